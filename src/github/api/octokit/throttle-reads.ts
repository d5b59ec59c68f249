/**
 * The one patch of @octokit/plugin-throttling's internals (written for version 11; its test,
 * test/github/api/octokit/throttle-reads.test.ts, fails when the plugin changes what the patch relies on).
 *
 * The plugin spaces every POST about 1 s apart per installation, as GitHub asks of writes, and counts every
 * GraphQL request as one, queries included: the reads of a review (configuration and descriptors, review
 * threads) then queue behind other reviews' check runs and comments. GitHub rates a GraphQL query like a
 * REST GET (1 point for the secondary limit, a mutation 5), and reads are not what the spacing is for.
 *
 * The plugin hands each request to its `retryLimiter` as `schedule(doRequest, state, request, options)`,
 * where `state.write` is the write group that spaces it. The patched limiter gives a read a state whose write
 * group does not space it. Mutations and every REST write are spaced as before, and reads still go through the
 * plugin's concurrency limit and its rate-limit retries. (`retryLimiter` is the plugin's own option.)
 */
import Bottleneck from "bottleneck/light.js";

/** Bottleneck's group interface as the throttling plugin uses it, with no spacing at all. */
const NOT_SPACED = { key: () => ({ schedule: <T>(_options: unknown, job: () => Promise<T>) => job() }) };

/** Whether the arguments are those the plugin passes (the state with its write group, then the request). */
function isPluginCall(state: unknown, options: unknown): options is { method?: unknown; url?: unknown } {
  const write = (state as { write?: { key?: unknown } } | null)?.write;
  return typeof write?.key === "function" && typeof options === "object" && options !== null;
}

/** The throttling option that lets reads through the write spacing; `isWrite` says which requests write. */
export function readsNotSpacedAsWrites(isWrite: (options: { method?: unknown; url?: unknown }) => boolean): {
  retryLimiter: Bottleneck;
} {
  const retryLimiter = new Bottleneck();
  const schedule = retryLimiter.schedule.bind(retryLimiter) as (...args: unknown[]) => Promise<unknown>;
  retryLimiter.schedule = ((job: unknown, state: object, request: unknown, options: unknown) =>
    schedule(
      job,
      isPluginCall(state, options) && !isWrite(options) ? { ...state, write: NOT_SPACED } : state,
      request,
      options,
    )) as never;
  return { retryLimiter };
}
