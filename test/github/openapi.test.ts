import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeGitHub } from "./fake-github.js";
import { cleanup, disableNetwork, githubMock } from "./github-mock.js";
import { findOperation, validateRequest, validateResponse, type RecordedRequest } from "./openapi.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";

function req(
  method: string,
  path: string,
  body?: unknown,
  query: Record<string, string> = {},
): RecordedRequest {
  return { method, path, query, body, headers: {} };
}

/** The value at `keys` inside parsed JSON, or undefined. */
function at(value: unknown, ...keys: string[]): unknown {
  let node = value;
  for (const key of keys) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function annotation(level: string) {
  return {
    path: "plugins/cpu/plugin.json",
    start_line: 3,
    end_line: 3,
    annotation_level: level,
    message: "metric key duplicated",
    title: "duplicate-metric-key",
  };
}

function review(event: string, comment: Record<string, unknown> = {}) {
  return {
    commit_id: SHA,
    event,
    body: "plugin-review found 1 problem",
    comments: [
      { path: "plugins/cpu/plugin.json", line: 3, side: "RIGHT", body: "duplicate key", ...comment },
    ],
  };
}

describe("findOperation", () => {
  it("maps a concrete path to its template", () => {
    expect(findOperation("POST", "/repos/o/r/pulls/1/reviews")).toEqual({
      operationId: "pulls/create-review",
      pathTemplate: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
    });
    expect(findOperation("post", "/app/installations/42/access_tokens")?.operationId).toBe(
      "apps/create-installation-access-token",
    );
  });

  it("prefers a literal segment to a parameter", () => {
    expect(findOperation("GET", "/orgs/o/actions/secrets/public-key")?.operationId).toBe(
      "actions/get-org-public-key",
    );
    expect(findOperation("GET", "/orgs/o/actions/secrets/NPM_TOKEN")?.operationId).toBe(
      "actions/get-org-secret",
    );
  });

  it("requires integer path parameters to be integers", () => {
    expect(findOperation("POST", "/repos/o/r/pulls/abc/reviews")).toBeUndefined();
    expect(findOperation("PATCH", "/repos/o/r/check-runs/latest")).toBeUndefined();
  });

  it("lets a file path span segments, encoded or not", () => {
    for (const path of ["/repos/o/r/contents/plugins/cpu/plugin.json", "/repos/o/r/contents/plugins%2Fcpu"]) {
      expect(findOperation("GET", path)?.pathTemplate).toBe("/repos/{owner}/{repo}/contents/{path}");
    }
  });

  it("knows GraphQL and nothing unknown", () => {
    expect(findOperation("POST", "/graphql")?.operationId).toBe("graphql");
    expect(findOperation("GET", "/repos/o/r/no-such-thing")).toBeUndefined();
    expect(findOperation("DELETE", "/repos/o/r/pulls/1/files")).toBeUndefined();
  });
});

describe("validateResponse", () => {
  const path = "/repos/o/r/check-runs";

  it("accepts what the fake returns for a created check run, without GitHub's every required field", () => {
    expect(
      validateResponse("POST", path, 201, { id: 1, head_sha: SHA, status: "in_progress", conclusion: null }),
    ).toEqual([]);
  });

  it("rejects a field of the wrong type, a value outside its enum and a malformed date", () => {
    const problems = validateResponse("POST", path, 201, {
      id: "1",
      status: "running",
      started_at: "yesterday",
    });
    expect(problems).toEqual([
      expect.stringMatching(/^checks\/create .* response 201: body \/id must be integer/),
      expect.stringMatching(/body \/status must be equal to one of the allowed values/),
      expect.stringMatching(/body \/started_at must match format "date-time"/),
    ]);
  });

  it("checks only successful JSON responses", () => {
    expect(validateResponse("POST", path, 422, { id: "1" })).toEqual([]);
    expect(validateResponse("GET", "/repos/o/r/contents/a.json", 200, "raw text")).toEqual([]);
  });
});

describe("validateRequest", () => {
  it("accepts a check run being created", () => {
    const body = { name: "plugin-review", head_sha: SHA, status: "in_progress" };
    expect(validateRequest(req("POST", "/repos/o/r/check-runs", body))).toEqual([]);
  });

  it("rejects a check run without head_sha", () => {
    const problems = validateRequest(req("POST", "/repos/o/r/check-runs", { name: "plugin-review" }));
    expect(problems).toEqual([
      expect.stringMatching(/^checks\/create .*must have required property 'head_sha'/),
    ]);
  });

  it("accepts annotations GitHub knows and rejects annotation_level error", () => {
    const update = (level: string) =>
      req("PATCH", "/repos/o/r/check-runs/5", {
        status: "completed",
        conclusion: "failure",
        output: {
          title: "1 problem",
          summary: "plugin-review found 1 problem",
          annotations: [annotation(level)],
        },
      });
    expect(validateRequest(update("failure"))).toEqual([]);
    const problems = validateRequest(update("error"));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("checks/update");
    expect(problems[0]).toContain(
      "/output/annotations/0/annotation_level must be equal to one of the allowed values",
    );
  });

  it("accepts a check run completed with a conclusion, and not without one", () => {
    const path = "/repos/o/r/check-runs/5";
    expect(validateRequest(req("PATCH", path, { status: "completed", conclusion: "success" }))).toEqual([]);
    expect(validateRequest(req("PATCH", path, { status: "completed" })).join("\n")).toContain(
      "must have required property 'conclusion'",
    );
  });

  it("enforces the 50-annotation limit per request", () => {
    const output = {
      title: "t",
      summary: "s",
      annotations: Array.from({ length: 51 }, () => annotation("notice")),
    };
    expect(validateRequest(req("PATCH", "/repos/o/r/check-runs/5", { output })).join("\n")).toContain(
      "/output/annotations must NOT have more than 50 items",
    );
  });

  it("accepts a review with line comments and rejects event COMMENTED", () => {
    const path = "/repos/o/r/pulls/1/reviews";
    expect(validateRequest(req("POST", path, review("COMMENT")))).toEqual([]);
    const problems = validateRequest(req("POST", path, review("COMMENTED")));
    expect(problems).toEqual([
      expect.stringMatching(/^pulls\/create-review .*\/event must be equal to one of the allowed values/),
    ]);
  });

  it("accepts subject_type on review comments, which the schema neither declares nor forbids", () => {
    // GitHub's description declares subject_type ("line" | "file") only for single review comments
    // (POST /pulls/{n}/comments); review comments leave it out but allow additional properties.
    const spec: unknown = JSON.parse(
      readFileSync(
        createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json"),
        "utf8",
      ),
    );
    const body = (path: string) =>
      at(spec, "paths", path, "post", "requestBody", "content", "application/json", "schema");
    const reviewComment = at(
      body("/repos/{owner}/{repo}/pulls/{pull_number}/reviews"),
      "properties",
      "comments",
      "items",
    );
    expect(at(reviewComment, "properties", "path")).toBeDefined();
    expect(at(reviewComment, "properties", "subject_type")).toBeUndefined();
    expect(at(reviewComment, "additionalProperties")).not.toBe(false);
    expect(
      at(body("/repos/{owner}/{repo}/pulls/{pull_number}/comments"), "properties", "subject_type"),
    ).toEqual(expect.objectContaining({ enum: ["line", "file"] }));

    const path = "/repos/o/r/pulls/1/reviews";
    expect(validateRequest(req("POST", path, review("COMMENT", { subject_type: "file" })))).toEqual([]);
    expect(validateRequest(req("POST", path, review("COMMENT", { line: "3" }))).join("\n")).toContain(
      "/comments/0/line must be integer",
    );
  });

  it("rejects unknown routes and methods", () => {
    expect(validateRequest(req("POST", "/repos/o/r/check-suites/runs", {}))).toEqual([
      expect.stringContaining("no operation in GitHub's REST API description matches"),
    ]);
    expect(validateRequest(req("PUT", "/repos/o/r/check-runs/5", {}))).toEqual([
      expect.stringContaining("the route exists for GET, PATCH only"),
    ]);
  });

  it("accepts a paged file listing and checks declared query parameters", () => {
    const path = "/repos/o/r/pulls/1/files";
    expect(validateRequest(req("GET", path, undefined, { per_page: "100", page: "2" }))).toEqual([]);
    expect(validateRequest(req("GET", path, undefined, { per_page: "100", utm: "x" }))).toEqual([]);
    expect(validateRequest(req("GET", path, undefined, { page: "two" }))).toEqual([
      expect.stringContaining("query /page must be integer"),
    ]);
    expect(validateRequest(req("GET", "/search/issues", undefined, {}))).toEqual([
      expect.stringContaining("query must have required property 'q'"),
    ]);
  });

  it("requires a body where the operation requires one", () => {
    expect(validateRequest(req("POST", "/repos/o/r/check-runs"))).toEqual([
      expect.stringContaining("a request body is required"),
    ]);
    expect(validateRequest(req("GET", "/repos/o/r/pulls/1/files", { per_page: 100 }))).toEqual([
      expect.stringContaining("sends a body but the operation takes none"),
    ]);
  });

  it("validates installation access token requests", () => {
    const path = "/app/installations/42/access_tokens";
    expect(validateRequest(req("POST", path))).toEqual([]);
    const body = { repositories: ["plugins"], permissions: { checks: "write", pull_requests: "write" } };
    expect(validateRequest(req("POST", path, body))).toEqual([]);
    expect(validateRequest(req("POST", path, { permissions: { checks: "admin" } })).join("\n")).toContain(
      "/permissions/checks must be equal to one of the allowed values",
    );
  });

  it("accepts GraphQL with a string query and rejects it without", () => {
    const query = 'query($owner: String!) { repository(owner: $owner, name: "r") { id } }';
    expect(validateRequest(req("POST", "/graphql", { query, variables: { owner: "o" } }))).toEqual([]);
    expect(validateRequest(req("POST", "/graphql", { query }))).toEqual([]);
    expect(validateRequest(req("POST", "/graphql", { variables: {} })).join("\n")).toContain(
      "must have required property 'query'",
    );
    expect(validateRequest(req("POST", "/graphql", { query, variables: "x" })).join("\n")).toContain(
      "/variables must be object",
    );
  });

  it("treats nullable fields as nullable", () => {
    // milestone is `oneOf: [string, integer], nullable: true` in issues/update.
    const path = "/repos/o/r/issues/7";
    expect(validateRequest(req("PATCH", path, { milestone: null, title: "t" }))).toEqual([]);
    expect(validateRequest(req("PATCH", path, { milestone: 3 }))).toEqual([]);
    expect(validateRequest(req("PATCH", path, { milestone: true })).join("\n")).toContain("/milestone");
  });
});

describe("githubMock", () => {
  beforeEach(() => disableNetwork());
  afterEach(() => cleanup());

  it("records fetch requests with their JSON bodies, queries and headers", async () => {
    const gh = githubMock();
    gh.scope.post("/repos/o/r/check-runs").reply(201, { id: 5 });
    gh.scope.get("/repos/o/r/pulls/1/files").query({ per_page: "100", page: "2" }).reply(200, []);
    const body = { name: "plugin-review", head_sha: SHA, status: "in_progress" };

    const created = await fetch("https://api.github.com/repos/o/r/check-runs", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "token ghs_x" },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ id: 5 });
    const files = await fetch("https://api.github.com/repos/o/r/pulls/1/files?per_page=100&page=2");
    expect(files.status).toBe(200);

    expect(gh.requests).toEqual([
      {
        method: "POST",
        path: "/repos/o/r/check-runs",
        query: {},
        body,
        headers: expect.objectContaining({
          "content-type": "application/json",
          authorization: "token ghs_x",
        }),
        at: expect.any(Number),
      },
      expect.objectContaining({
        method: "GET",
        path: "/repos/o/r/pulls/1/files",
        query: { per_page: "100", page: "2" },
        body: undefined,
      }),
    ]);
    gh.assertAllValid();
    gh.assertDone();
  });

  it("fails assertAllValid on a request GitHub would reject", async () => {
    const gh = githubMock();
    gh.scope.patch("/repos/o/r/check-runs/5").reply(200, {});
    await fetch("https://api.github.com/repos/o/r/check-runs/5", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ output: { title: "t", summary: "s", annotations: [annotation("error")] } }),
    });
    expect(() => gh.assertAllValid()).toThrow(/checks\/update .*annotation_level/);
    gh.assertDone();
  });

  it("fails assertDone on pending interceptors and on unanswered requests", async () => {
    const gh = githubMock();
    gh.scope.get("/repos/o/r/pulls/1/files").reply(200, []);
    expect(() => gh.assertDone()).toThrow(/pulls\/1\/files/);
    await expect(fetch("https://api.github.com/repos/o/r/pulls/2")).rejects.toThrow();
    await fetch("https://api.github.com/repos/o/r/pulls/1/files");
    expect(gh.unmatched).toEqual(["GET https://api.github.com/repos/o/r/pulls/2"]);
    expect(() => gh.assertDone()).toThrow(/no interceptor answered/);
  });
});

describe("FakeGitHub: a route the test did not enable", () => {
  beforeEach(() => disableNetwork());
  afterEach(() => cleanup());

  it("is answered 404 at once, as GitHub answers a route it does not have, and named by assertClean", async () => {
    const gh = new FakeGitHub([]);
    const answer = await fetch("https://api.github.com/repos/o/r/pulls/1/reviews", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(review("COMMENT")),
    });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      message: "Not Found",
      documentation_url: "https://docs.github.com/rest",
      status: "404",
    });
    // Answered, but by no route: not among the requests the routes answered, and a failure of the test.
    expect(gh.requests).toEqual([]);
    expect(gh.mock.unmatched).toEqual(["POST https://api.github.com/repos/o/r/pulls/1/reviews"]);
    expect(() => gh.assertClean()).toThrow(/no interceptor answered:\n- POST .*\/pulls\/1\/reviews/);
  });

  it("does not hide a route another fake of the test answers, on github.com or a GitHub Enterprise Server", async () => {
    const first = new FakeGitHub(["token"]);
    const second = new FakeGitHub(["listCheckRuns"]);
    const runs = await fetch(`https://api.github.com/repos/o/r/commits/${SHA}/check-runs`);
    expect(runs.status).toBe(200);
    expect(second.requests).toHaveLength(1);
    expect(first.mock.unmatched).toEqual([]);

    const ghes = new FakeGitHub(["token"], "https://ghe.example/api/v3");
    const graphql = await fetch("https://ghe.example/api/graphql", { method: "POST", body: "{}" });
    expect(graphql.status).toBe(404);
    expect(ghes.mock.unmatched).toEqual(["POST https://ghe.example/api/graphql"]);
  });
});
