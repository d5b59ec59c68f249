/**
 * The gateway a review gets (`gatewayFor`): every operation of the port (port.ts) through REST (rest/),
 * except those with a GraphQL form (graphql/, named in ROUTES), which go through GraphQL while
 * it works for the installation. A GraphQL API that refuses a document (an older GitHub Enterprise Server,
 * a schema without a field used here), fails, or does not answer in time (an outage of GitHub's GraphQL API
 * alone) switches the installation to REST for a while, logged once, and the operation that met the
 * failure is done again through REST. This is the App's only GraphQL→REST fallback.
 */
import { MINUTE_MS, REST_AFTER_GRAPHQL_FAILURE_MS } from "../time-budget.js";
import { REAL_TIME, type Clock } from "./clock.js";
import { GraphqlGateway } from "./graphql/gateway.js";
import { graphqlUnavailable } from "./graphql/query.js";
import type { Octokit } from "./octokit/octokit.js";
import type { GitHubGateway, Logger } from "./port.js";
import { RestGateway } from "./rest/gateway.js";

type Operation = keyof GitHubGateway;

/** An operation's GraphQL form, as the log names it; `writes`: it writes (see ROUTES). */
type GraphqlForm = { what: string; writes?: true };

/**
 * How each operation of the port goes: "rest", or the GraphQL form that does it in fewer calls than REST.
 * Every operation is listed, so that a new one does not compile until it is placed here. A write's failure
 * other than a refusal is thrown rather than done again through REST: GitHub may have made it (the review
 * reads what GitHub holds, now through REST, before it writes again). A refused document ran nothing.
 */
const ROUTES = {
  reviewStart: { what: "the review's first query" },
  readFiles: { what: "the files query" },
  pullState: { what: "the review threads query" },
  changesRequested: { what: "the reviews query" },
  publish: { what: "the fixed threads' mutation", writes: true },
  dismissReviews: { what: "the dismissal mutation", writes: true },
  latestRun: "rest",
  runAnnotations: "rest",
  readDefaultBranchFile: "rest",
  repositoryVisible: "rest",
  repositorySelection: "rest",
  pullRequest: "rest",
  listChanged: "rest",
  folderFiles: "rest",
  permissionOf: "rest",
  createCheckRun: "rest",
  updateCheckRun: "rest",
  postReview: "rest",
  commentOnPullRequest: "rest",
} as const satisfies Record<Operation, "rest" | GraphqlForm>;

const OPERATIONS = Object.keys(ROUTES) as Operation[];

/**
 * Which installations read through REST because GraphQL failed for them lately. One per app (the server's
 * process, a Lambda container, a CLI run), shared by its reviews.
 */
export class GraphqlAvailability {
  private readonly restUntil = new Map<string, number>();

  constructor(private readonly clock: Clock = REAL_TIME) {}

  /** Whether the installation's reviews use GraphQL now. */
  usable(installation: string): boolean {
    const until = this.restUntil.get(installation);
    if (until === undefined) return true;
    if (Date.now() < until) return false;
    this.restUntil.delete(installation);
    return true;
  }

  /** Switches the installation to REST for a while; true when it was not already (the caller logs it, once). */
  switchToRest(installation: string): boolean {
    const was = this.usable(installation);
    if (was) this.restUntil.set(installation, Date.now() + this.clock.ms(REST_AFTER_GRAPHQL_FAILURE_MS));
    return was;
  }

  get restForMinutes(): number {
    return Math.round(REST_AFTER_GRAPHQL_FAILURE_MS / MINUTE_MS);
  }
}

/**
 * The gateway for a review: GraphQL while it works for `installation` (whatever names it: the installation
 * id, or the CLI's token), REST for a while after it failed.
 */
export function gatewayFor(
  octokit: Octokit,
  opts: { log: Logger; installation: string | number | undefined; availability: GraphqlAvailability },
): GitHubGateway {
  const { log, availability } = opts;
  const installation = String(opts.installation ?? "default");
  const rest = new RestGateway(octokit, log);
  const graphql = new GraphqlGateway(octokit, log);
  type Call = (...args: unknown[]) => Promise<unknown>;
  const call = (gw: GitHubGateway, op: Operation): Call => (gw[op] as Call).bind(gw);

  /** The GraphQL form while GraphQL works for the installation; on its failure, REST (see ROUTES). */
  const either =
    (op: Operation, form: GraphqlForm): Call =>
    async (...args) => {
      if (!availability.usable(installation)) return call(rest, op)(...args);
      try {
        return await call(graphql, op)(...args);
      } catch (e) {
        const why = graphqlUnavailable(e);
        if (!why) throw e;
        if (availability.switchToRest(installation))
          log.warn(
            { err: (e as Error).message },
            `GraphQL ${why} (${form.what}): this installation reads and writes through REST for the next ${availability.restForMinutes} minutes (more API calls; fixed threads get a reply but cannot be resolved)`,
          );
        if (form.writes && why !== "refused") throw e;
        return call(rest, op)(...args);
      }
    };

  const gateway: Partial<Record<Operation, Call>> = {};
  for (const op of OPERATIONS) {
    const route: "rest" | GraphqlForm = ROUTES[op];
    gateway[op] = route === "rest" ? call(rest, op) : either(op, route);
  }
  return gateway as GitHubGateway;
}
