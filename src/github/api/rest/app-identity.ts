/**
 * The App's own account (`GET /app` with the App's JWT: its slug, so its bot's login `<slug>[bot]`), learned
 * once per process (the server, a Lambda container) by the first review that reads what is on a pull
 * request. Like the installation-token request, it is the App's request, not an installation's, and no
 * review's: the API budget of a review does not count it. An installation's token cannot ask it (GitHub
 * answers 401), nor can a person's token (`plugin-review pr` is told the slug instead: `--app`). On a
 * GitHub Enterprise Server it goes to that server's API, as every request of the App does (GHE_HOST).
 *
 * A failure is not remembered: the review that asked gets it (and posts nothing: review/pull-review/publish-stage.ts) and
 * the next review asks again. A slug is never guessed: every author taken for the App, or none, would let
 * anyone's markers speak for it, or make it repeat everything it said.
 */
import { AppIdentityError } from "../errors.js";
import type { Octokit } from "../octokit/octokit.js";
import { appIdentity, type AppIdentity, type Logger } from "../port.js";

/** `app`: the App's own Octokit (JWT), made when the identity is first asked. */
export function appIdentityOnce(app: () => Promise<Octokit>, log: Logger): () => Promise<AppIdentity> {
  let known: Promise<AppIdentity> | undefined;
  return () => {
    known ??= read(app).then(
      (identity) => {
        log.info(`the App's own account is ${identity.login} (GET /app)`);
        return identity;
      },
      (e: unknown) => {
        known = undefined;
        throw e;
      },
    );
    return known;
  };
}

async function read(app: () => Promise<Octokit>): Promise<AppIdentity> {
  let slug: unknown;
  try {
    slug = (await (await app()).request("GET /app")).data?.slug;
  } catch (e) {
    throw new AppIdentityError(e);
  }
  if (typeof slug !== "string" || slug === "")
    throw new AppIdentityError(new Error("GitHub's answer names no slug"));
  return appIdentity(slug);
}

/**
 * The App's id, from its JWT (no request), once per process: what tells its own check runs from another app's
 * of the same name. A `pull_request` delivery does not say (its `installation` holds no `app_id`).
 */
export function appIdOnce(app: () => Promise<Octokit>): () => Promise<number | undefined> {
  let known: Promise<number | undefined> | undefined;
  return () => {
    known ??= app()
      .then((octokit) => octokit.auth({ type: "app" }))
      .then((auth) => (auth as { appId?: number }).appId)
      .catch((e: unknown) => {
        known = undefined;
        throw e;
      });
    return known;
  };
}
