/**
 * The Probot app, as Probot loads it (`probot run`, the tests' default): the handlers are in
 * src/github/delivery/app.ts, beside the scheduler they feed; the server and the Lambda functions call
 * `createApp` with their own scheduler, store and metrics.
 */
import { createApp } from "./github/delivery/app.js";

export { createApp, type AppOptions, type DeliveryJournal } from "./github/delivery/app.js";

/** The app as the tests run it: each delivery's review runs before its handling ends. */
export default createApp();
