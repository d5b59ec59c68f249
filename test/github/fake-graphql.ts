/**
 * GitHub's GraphQL API for the fake: queries are parsed, validated and executed by graphql-js against
 * GitHub's own public schema (`@octokit/graphql-schema`), so that a query GitHub would refuse (an unknown
 * field, a wrong argument or variable type) fails the test. The resolvers answer from the fake's state:
 * files by repository and ref, check runs by head commit, a pull request's review threads and reviews
 * (and the mutations that reply to and resolve a thread).
 */
import { schema as published } from "@octokit/graphql-schema";
import {
  buildSchema,
  executeSync,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from "graphql";

let schema: GraphQLSchema | undefined;

/** GitHub's schema, built once (the SDL is large). */
export function githubSchema(): GraphQLSchema {
  schema ??= buildSchema(published.idl, {
    // The published SDL repeats two enterprise fields; validating queries against it is unaffected.
    assumeValidSDL: true,
  });
  return schema;
}

export interface GraphqlState {
  /** Whether the installation can see the repository (GitHub answers NOT_FOUND otherwise). */
  repoExists(owner: string, name: string): boolean;
  /** The bytes of a file at a ref ("HEAD": the default branch), or undefined. */
  file(
    owner: string,
    repo: string,
    ref: string,
    path: string,
  ): { bytes: Buffer; sha: string; mode?: number } | undefined;
  /** The check runs on a head commit. */
  runs(sha: string): {
    id: number;
    name: string;
    status: string;
    conclusion?: string;
    external_id?: string;
    app: { id: number };
    annotations: number;
  }[];
  /** A pull request's fields (graphql-js calls a function field with its arguments). */
  pullRequest?(owner: string, repo: string, number: number): unknown;
  /** Mutation fields, by name. */
  mutations?: Record<string, (args: never) => unknown>;
}

/** Like GitHub: a blob's text is cut at this size (`isTruncated`), and binary blobs have none. */
const TEXT_LIMIT = 1024 * 1024;

function blob(entry: { bytes: Buffer; sha: string }) {
  const binary = entry.bytes.includes(0);
  return {
    __typename: "Blob",
    oid: entry.sha,
    byteSize: entry.bytes.length,
    isBinary: binary,
    isTruncated: !binary && entry.bytes.length > TEXT_LIMIT,
    text: binary ? null : entry.bytes.subarray(0, TEXT_LIMIT).toString("utf8"),
  };
}

function repository(state: GraphqlState, owner: string, name: string) {
  return {
    pullRequest: ({ number }: { number: number }) => state.pullRequest?.(owner, name, number) ?? null,
    object: ({ expression, oid }: { expression?: string; oid?: string }) => {
      if (oid)
        return {
          __typename: "Commit",
          checkSuites: ({ filterBy }: { filterBy?: { appId?: number | null; checkName?: string } }) => {
            const runs = state
              .runs(oid)
              .filter((r) => filterBy?.appId == null || r.app.id === filterBy.appId)
              .filter((r) => !filterBy?.checkName || r.name === filterBy.checkName);
            return {
              nodes: runs.length
                ? [
                    {
                      checkRuns: () => ({
                        nodes: runs.map((r) => ({
                          databaseId: r.id,
                          status: r.status.toUpperCase(),
                          conclusion: r.conclusion?.toUpperCase() ?? null,
                          externalId: r.external_id ?? null,
                          annotations: () => ({ totalCount: r.annotations }),
                        })),
                      }),
                    },
                  ]
                : [],
            };
          },
        };
      const at = (expression ?? "").indexOf(":");
      // A commit by its sha: its tree entries by path (\`file\`), each with its git mode.
      if (at < 0)
        return {
          __typename: "Commit",
          file: ({ path }: { path: string }) => {
            const entry = state.file(owner, name, expression!, path);
            if (!entry) return null;
            const mode = entry.mode ?? 0o100644;
            // A submodule's entry is its commit; every other entry here is a blob (a link's: the path it names).
            return { mode, object: mode === 0o160000 ? { __typename: "Commit" } : blob(entry) };
          },
        };
      const entry = state.file(owner, name, expression!.slice(0, at), expression!.slice(at + 1));
      return entry ? blob(entry) : null;
    },
  };
}

/** Parsed and validated documents by their text: a review sends the same few queries again and again. */
const documents = new Map<string, DocumentNode | readonly GraphQLError[]>();

/** The query parsed and checked against GitHub's schema, or why GitHub would refuse it (as `graphqlSync` does). */
function checkedDocument(query: string): DocumentNode | readonly GraphQLError[] {
  let checked = documents.get(query);
  if (checked === undefined) {
    try {
      const document = parse(query);
      const errors = validate(githubSchema(), document);
      checked = errors.length ? errors : document;
    } catch (e) {
      checked = [e instanceof GraphQLError ? e : new GraphQLError(String(e))];
    }
    if (documents.size >= 500) documents.clear();
    documents.set(query, checked);
  }
  return checked;
}

/** GitHub's error for a repository it cannot resolve: the field is null, the rest of the data stays. */
class NotFound extends GraphQLError {}

/**
 * GitHub's error for a mutation it refuses on the data (REST's 422, such as a review line comment outside
 * the diff): that mutation's field is null, the document's other mutations still run.
 */
export class Unprocessable extends GraphQLError {}

/** GitHub's error for a mutation the integration may not make (REST's 403): that field is null, the others run. */
export class Forbidden extends GraphQLError {}

export interface GraphqlAnswer {
  data?: unknown;
  errors?: { message: string; type?: string; path?: readonly (string | number)[] }[];
  /** True when GitHub would refuse the query itself (it does not validate against the schema). */
  invalid: boolean;
}

/**
 * Answers a GraphQL request body as GitHub would: `{ data }`; `{ errors }` alone for an invalid query;
 * data with `null` where a repository does not exist, beside a NOT_FOUND error naming it; data with `null`
 * for a mutation refused as UNPROCESSABLE, beside that error.
 */
export function answerGraphql(
  state: GraphqlState,
  body: { query: string; variables?: Record<string, unknown> },
): GraphqlAnswer {
  const rootValue = {
    ...state.mutations,
    repository: ({ owner, name }: { owner: string; name: string }) => {
      if (!state.repoExists(owner, name))
        throw new NotFound(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
      return repository(state, owner, name);
    },
  };
  const document = checkedDocument(body.query);
  const result: ExecutionResult =
    document instanceof Array
      ? { errors: document }
      : executeSync({ schema: githubSchema(), document, rootValue, variableValues: body.variables ?? {} });
  if (!result.errors) return { data: result.data, invalid: false };
  const errors = result.errors.map((e) => ({
    message: e.message,
    ...(e.originalError instanceof NotFound ? { type: "NOT_FOUND" } : {}),
    ...(e.originalError instanceof Unprocessable ? { type: "UNPROCESSABLE" } : {}),
    ...(e.originalError instanceof Forbidden ? { type: "FORBIDDEN" } : {}),
    ...(e.path ? { path: e.path } : {}),
  }));
  // An error without a type is graphql-js refusing the document (GitHub's validation).
  const invalid = errors.some((e) => e.type === undefined);
  return invalid && result.data === undefined ? { errors, invalid } : { data: result.data, errors, invalid };
}
