/**
 * GitHub's GraphQL API for the fake: queries are parsed, validated and executed by graphql-js against
 * GitHub's own public schema (`@octokit/graphql-schema`), so that a query GitHub would refuse (an unknown
 * field, a wrong argument or variable type) fails the test. The resolvers answer from the fake's state:
 * files by repository and ref, check runs by head commit.
 */
import { schema as published } from "@octokit/graphql-schema";
import { buildSchema, graphqlSync, type GraphQLSchema } from "graphql";

let schema: GraphQLSchema | undefined;

/** GitHub's schema, built once (the SDL is large). */
function githubSchema(): GraphQLSchema {
  schema ??= buildSchema(published.idl, {
    // The published SDL repeats two enterprise fields; validating queries against it is unaffected.
    assumeValidSDL: true,
  });
  return schema;
}

export interface GraphqlState {
  /** The bytes of a file at a ref ("HEAD": the default branch), or undefined. */
  file(owner: string, repo: string, ref: string, path: string): { bytes: Buffer; sha: string } | undefined;
  /** The check runs on a head commit. */
  runs(sha: string): { id: number; name: string; status: string; app: { id: number }; annotations: number }[];
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
      const entry = state.file(owner, name, expression!.slice(0, at), expression!.slice(at + 1));
      return entry ? blob(entry) : null;
    },
  };
}

/** Answers a GraphQL request body as GitHub would: `{ data }`, or `{ errors }` for an invalid query. */
export function answerGraphql(
  state: GraphqlState,
  body: { query: string; variables?: Record<string, unknown> },
): { data?: unknown; errors?: { message: string }[] } {
  const rootValue = {
    repository: ({ owner, name }: { owner: string; name: string }) => repository(state, owner, name),
  };
  const result = graphqlSync({
    schema: githubSchema(),
    source: body.query,
    rootValue,
    variableValues: body.variables ?? {},
  });
  return result.errors
    ? { errors: result.errors.map((e) => ({ message: e.message })) }
    : { data: result.data };
}
