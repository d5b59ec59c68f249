/**
 * The webhook proxy channel of Probot's setup page, made before Probot makes it. Without credentials, Probot
 * creates a smee.io channel first, so that the App it registers on this machine gets its deliveries through
 * it; when smee.io cannot be reached it says "Unable to connect to smee.io, try restarting your server." as
 * the first line of all, before its welcome, which reads as a server that failed to start (and restarting
 * does not help without a network). Here the channel is asked for once, in the same conditions Probot asks:
 * - reached: the channel goes to Probot, which writes it to `.env` and registers the App with it, as ever;
 * - not reached: Probot is told to skip it (NO_SMEE_SETUP, for this process only) and `warning` says, in one
 *   line logged after Probot's welcome, what that means for the App registered now and what to do.
 * With APP_ID set, in production, with a channel of one's own (WEBHOOK_PROXY_URL) or NO_SMEE_SETUP=true,
 * nothing is asked for and Probot does as it does.
 */

/** What Probot's setup takes as its `SmeeClient` (it calls `createChannel` only). */
export interface ChannelMaker {
  createChannel(): Promise<string>;
}

export interface SetupChannel {
  /** For Probot's `run()`: the channel made already. */
  SmeeClient?: ChannelMaker;
  /** What to log once Probot's setup page is up, when no channel could be made. */
  warning?: string;
}

/** Whether Probot's setup would create a smee.io channel (its setup app's conditions, APP_ID unset). */
function wantsChannel(env: NodeJS.ProcessEnv): boolean {
  return (
    !env.APP_ID?.trim() &&
    env.NODE_ENV !== "production" &&
    !env.PROJECT_DOMAIN &&
    !env.WEBHOOK_PROXY_URL &&
    env.NO_SMEE_SETUP !== "true"
  );
}

/** Why a request failed, in a word where there is one (ECONNREFUSED, ENOTFOUND) rather than "fetch failed". */
function why(e: unknown): string {
  const error = e as { message?: unknown; code?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = error.cause?.code ?? error.code;
  if (typeof code === "string") return code;
  const message = error.cause?.message ?? error.message;
  return typeof message === "string" ? message : String(e);
}

/**
 * The channel for Probot's setup, or the warning that there is none. `maker` is smee-client's (a development
 * dependency, loaded only here); `env` is changed only to tell Probot to skip a channel it could not make.
 */
export async function setupChannel(
  env: NodeJS.ProcessEnv = process.env,
  maker?: ChannelMaker,
): Promise<SetupChannel> {
  if (!wantsChannel(env)) return {};
  let smee: ChannelMaker;
  try {
    smee = maker ?? (await import("smee-client")).SmeeClient;
  } catch {
    // Not installed (`npm ci --omit=dev`): Probot's own setup says so.
    return {};
  }
  try {
    const channel = await smee.createChannel();
    return { SmeeClient: { createChannel: () => Promise.resolve(channel) } };
  } catch (e) {
    env.NO_SMEE_SETUP = "true";
    return {
      warning:
        `no webhook proxy: smee.io cannot be reached (${why(e)}), so an App registered from this page now gets ` +
        `no deliveries on this machine. Restart once smee.io can be reached, or put WEBHOOK_PROXY_URL=<a channel ` +
        `from https://smee.io/new> in .env first; NO_SMEE_SETUP=true goes without (docs/deploy.md)`,
    };
  }
}
