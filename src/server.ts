/**
 * `npm start`: the App on Probot's own server (`run()`), which reads Probot's environment (APP_ID,
 * PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST, WEBHOOK_PATH, LOG_LEVEL, GHE_HOST,
 * GHE_PROTOCOL, …) and, without credentials, serves its setup page that registers the app from app.yml.
 * Deliveries are acknowledged at once and reviewed in the background (src/serve/server.ts); SIGTERM stops taking
 * deliveries and finishes the reviews in flight, for up to 25 s. A setting it cannot start with (an APP_ID
 * without WEBHOOK_SECRET, a value out of range) ends it with status 1 and a message naming the variable.
 */
import { startServer } from "./serve/server.js";
import { SettingsError } from "./serve/settings.js";

const server = await startServer().catch((e: unknown) => {
  if (!(e instanceof SettingsError)) throw e;
  console.error(`plugin-review: ${e.message}`);
  process.exit(1);
});
process.once("SIGTERM", () => {
  void server.stop().then((drained) => process.exit(drained ? 0 : 1));
});
