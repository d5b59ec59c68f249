/**
 * GitHub's GraphQL API as the App meets it (`octokit.graphql`, which Probot ships; one API call per
 * document): what its failures look like, and which of them mean "use REST instead".
 */
import { causedBy, DeadlineError, httpStatus, isTimeout } from "../errors.js";
import { isGraphqlUrl } from "../octokit/octokit.js";
import type { Octokit } from "../octokit/octokit.js";

/** What `octokit.graphql` throws when GitHub answers with errors (a `GraphqlResponseError`), or any failure. */
export interface GraphqlFailure {
  name?: string;
  /** The data GitHub answered beside the errors (null or absent when nothing of the document ran). */
  data?: Record<string, unknown> | null;
  errors?: { type?: string; message: string; path?: (string | number)[] }[];
}

/** `octokit.graphql`, taking GitHub's NOT_FOUND answers (null where a repository is missing) as data. */
export async function graphqlQuery<T>(
  octokit: Octokit,
  text: string,
  vars: Record<string, unknown>,
): Promise<T> {
  try {
    return await octokit.graphql<T>(text, vars);
  } catch (e) {
    const failure = e as GraphqlFailure;
    const notFoundOnly =
      failure.name === "GraphqlResponseError" &&
      failure.data != null &&
      (failure.errors ?? []).every((x) => x.type === "NOT_FOUND");
    if (notFoundOnly) return failure.data as T;
    throw e;
  }
}

/** A GraphQL request's failure, not that of a REST request made on the way (a blob, a reply). */
function ofGraphql(e: unknown): boolean {
  return isGraphqlUrl((e as { request?: { url?: unknown } } | null | undefined)?.request?.url);
}

/**
 * GraphQL refused the document itself (errors other than NOT_FOUND, or no GraphQL endpoint), as opposed to
 * GitHub failing, throttling or refusing the token, which the review reports or retries as for REST.
 * Nothing of a refused document ran.
 */
function graphqlRefused(e: unknown): boolean {
  if ((e as GraphqlFailure).name === "GraphqlResponseError") return true;
  if (!ofGraphql(e)) return false;
  const status = httpStatus(e);
  return status === 400 || status === 404 || status === 405 || status === 410 || status === 422;
}

/**
 * Why GraphQL cannot serve the installation now: it refused the document, did not answer within the
 * request timeout, or failed (5xx); undefined for failures REST would meet too (a revoked token, a missing
 * permission, a rate limit) and for the review's deadline.
 */
export function graphqlUnavailable(e: unknown): "refused" | "did not answer in time" | "failed" | undefined {
  if (graphqlRefused(e)) return "refused";
  if (!ofGraphql(e)) return undefined;
  if (causedBy(e, (x) => x instanceof DeadlineError)) return undefined;
  if (isTimeout(e)) return "did not answer in time";
  const status = httpStatus(e);
  return status !== undefined && status >= 500 ? "failed" : undefined;
}
