/**
 * Checks HTTP requests against GitHub's own OpenAPI description (the `api.github.com` document shipped
 * in `@octokit/openapi`), so that tests fail on any request GitHub would reject: an unknown route or
 * method, a path parameter of the wrong type, a missing required query parameter, a query value of the
 * wrong type, or a JSON body that does not match the operation's request body schema. Unknown query
 * parameters are ignored (GitHub ignores them too).
 *
 * The description is large (13 MB), so it is read once, on first use; route matching uses an index
 * built then. Schemas are converted from OpenAPI 3.0 to JSON Schema draft-07 and compiled per
 * operation on first use:
 * - `$ref`s are collected into `definitions` (so recursive components work);
 * - `nullable: true` becomes a type union with "null" (and adds null to an `enum`), or an
 *   `anyOf: [{type: "null"}, …]` wrapper when the schema composes others;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric draft-07 form;
 * - `oneOf` is checked as `anyOf`: GitHub's description has `oneOf`s whose branches overlap (an
 *   empty object or array matches several), which GitHub accepts but a strict `oneOf` would reject;
 * - only validation keywords are kept (no `description`, `example`, `x-github`, …);
 * - formats GitHub's description uses get simple checks (date-time, date, email, uri) or none.
 *
 * `POST /graphql` is not part of the REST description; it is accepted when the body has a string
 * `query` (and, optionally, an object `variables` and a string `operationName`).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

export interface RecordedRequest {
  method: string;
  /** The path without the query string, percent-encoded as sent (e.g. `/repos/o/r/pulls/1/files`). */
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body; a string when the body was not JSON; undefined when there was none. */
  body: unknown;
  /** Header names lower-cased. */
  headers: Record<string, string>;
}

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

interface RequestBody {
  required?: boolean;
  content?: Record<string, { schema?: unknown }>;
}

interface Spec {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
}

interface Operation {
  method: string;
  operationId: string;
  pathTemplate: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  requestBody: RequestBody | undefined;
  /** The documented responses by status code (`$ref`s unresolved). */
  responses: Record<string, unknown>;
  /** Compiled on first use, by status; null when that status has no JSON response schema. */
  responseValidators?: Map<string, ValidateFunction | null>;
  /** Compiled on first use; null when the operation has no JSON request body. */
  pathValidator?: ValidateFunction;
  queryValidator?: ValidateFunction;
  bodyValidator?: ValidateFunction | null;
}

type Segment =
  | { kind: "literal"; text: string }
  | { kind: "param"; name: string }
  | { kind: "mixed"; regex: RegExp; names: string[] };

interface Route {
  template: string;
  segments: Segment[];
  /** The last segment is a parameter that may span several segments (`contents/{path}`). */
  greedyTail: boolean;
  operations: Map<string, Operation>;
}

interface Index {
  spec: Spec;
  routesByLength: Map<number, Route[]>;
  greedyRoutes: Route[];
  converter: SchemaConverter;
  bodyAjv: Ajv;
  paramAjv: Ajv;
}

interface Match {
  route: Route;
  operation: Operation;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Trailing parameters GitHub accepts unencoded slashes in (`contents/dir/file.json`, `git/refs/heads/x`).
 * Octokit percent-encodes them (`dir%2Ffile.json`), which matches one segment anyway.
 */
const SLASH_PARAMS = new Set(["path", "ref", "branch", "basehead", "dir"]);

const GRAPHQL: Operation = {
  method: "POST",
  operationId: "graphql",
  pathTemplate: "/graphql",
  pathParams: [],
  queryParams: [],
  responses: {},
  requestBody: {
    required: true,
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["query"],
          properties: {
            query: { type: "string", minLength: 1 },
            variables: { type: "object" },
            operationName: { type: "string" },
          },
        },
      },
    },
  },
};

let index: Index | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function specPath(): string {
  return createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json");
}

/** Follows a local JSON pointer (`#/components/schemas/x`) into the description. */
function resolvePointer(spec: Spec, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`openapi: unsupported $ref ${ref}`);
  let node: unknown = spec;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) || !(key in node)) throw new Error(`openapi: dangling $ref ${ref}`);
    node = node[key];
  }
  return node;
}

/** Resolves a parameter or request body that may itself be a `$ref`. */
function deref(spec: Spec, value: unknown): unknown {
  let node = value;
  for (let hops = 0; isObject(node) && typeof node.$ref === "string"; hops++) {
    if (hops > 20) throw new Error("openapi: $ref cycle");
    node = resolvePointer(spec, node.$ref);
  }
  return node;
}

/** The `definitions` key for a `$ref`: `#/components/schemas/app-permissions` → `components.schemas.app-permissions`. */
function definitionKey(ref: string): string {
  return ref.slice(2).split("/").join(".");
}

function pointerEscape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Keywords copied as they are; everything not listed here or handled below is dropped. */
const PLAIN_KEYWORDS = new Set([
  "type",
  "enum",
  "const",
  "required",
  "minimum",
  "maximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
]);

const COMPOSITION = ["allOf", "anyOf", "oneOf", "not", "$ref"];

/** Converts OpenAPI 3.0 schemas to self-contained draft-07 schemas; components are converted once. */
class SchemaConverter {
  private readonly components = new Map<string, { schema: Schema; refs: Set<string> }>();
  readonly formats = new Set<string>();

  constructor(private readonly spec: Spec) {}

  /** `schema` (which may contain `$ref`s) with every component it reaches under `definitions`. */
  standalone(schema: unknown): Schema {
    const refs = new Set<string>();
    const root = this.convert(schema, refs);
    const definitions: Record<string, Schema> = {};
    const queue = [...refs];
    for (let ref = queue.pop(); ref !== undefined; ref = queue.pop()) {
      const key = definitionKey(ref);
      if (key in definitions) continue;
      const component = this.component(ref);
      definitions[key] = component.schema;
      for (const next of component.refs) if (!(definitionKey(next) in definitions)) queue.push(next);
    }
    if (Object.keys(definitions).length === 0) return root;
    return "$ref" in root ? { allOf: [root], definitions } : { ...root, definitions };
  }

  private component(ref: string): { schema: Schema; refs: Set<string> } {
    let component = this.components.get(ref);
    if (!component) {
      const refs = new Set<string>();
      component = { schema: this.convert(resolvePointer(this.spec, ref), refs), refs };
      this.components.set(ref, component);
    }
    return component;
  }

  private convert(schema: unknown, refs: Set<string>): Schema {
    if (!isObject(schema)) return {};
    if (typeof schema.$ref === "string") {
      // OpenAPI 3.0 ignores a $ref's siblings.
      refs.add(schema.$ref);
      return { $ref: `#/definitions/${pointerEscape(definitionKey(schema.$ref))}` };
    }
    const out: Schema = {};
    const sub = (value: unknown): Schema | boolean =>
      typeof value === "boolean" ? value : this.convert(value, refs);
    for (const [key, value] of Object.entries(schema)) {
      if (PLAIN_KEYWORDS.has(key)) {
        out[key] = value;
      } else if (key === "properties" || key === "patternProperties") {
        if (!isObject(value)) continue;
        out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, sub(s)]));
      } else if (key === "additionalProperties" || key === "not") {
        out[key] = sub(value);
      } else if (key === "items") {
        out.items = Array.isArray(value) ? value.map(sub) : sub(value);
      } else if (key === "allOf" || key === "anyOf") {
        if (Array.isArray(value)) out[key] = value.map(sub);
      } else if (key === "format" && typeof value === "string") {
        out.format = value;
        this.formats.add(value);
      }
    }
    if (Array.isArray(schema.oneOf)) {
      const branches = schema.oneOf.map(sub);
      if (out.anyOf === undefined) out.anyOf = branches;
      else out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { anyOf: branches }];
    }
    for (const [bound, flag] of [
      ["minimum", "exclusiveMinimum"],
      ["maximum", "exclusiveMaximum"],
    ] as const) {
      const exclusive = schema[flag];
      if (typeof exclusive === "number") out[flag] = exclusive;
      else if (exclusive === true && typeof schema[bound] === "number") {
        out[flag] = schema[bound];
        delete out[bound];
      }
    }
    if (schema.nullable === true) return nullable(out);
    return out;
  }
}

/** Makes a converted schema accept null, the way OpenAPI 3.0's `nullable: true` does. */
function nullable(schema: Schema): Schema {
  if (COMPOSITION.some((key) => key in schema)) return { anyOf: [{ type: "null" }, schema] };
  const out = { ...schema };
  if (typeof out.type === "string") out.type = [out.type, "null"];
  else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

const FORMATS: Record<string, RegExp | ((value: string) => boolean)> = {
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})$/i,
  date: /^\d{4}-\d{2}-\d{2}$/,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: (value) => URL.canParse(value),
};

/** Gives every format seen so far a check (or none), so that Ajv neither warns nor throws. */
function registerFormats(ajv: Ajv, formats: Iterable<string>): void {
  for (const name of formats) {
    if (ajv.formats[name] !== undefined) continue;
    ajv.addFormat(name, FORMATS[name] ?? true);
  }
}

function compileSegment(text: string): Segment {
  if (!text.includes("{")) return { kind: "literal", text };
  const whole = /^\{([^{}]+)\}$/.exec(text);
  if (whole?.[1] !== undefined) return { kind: "param", name: whole[1] };
  const names: string[] = [];
  const source = text
    .split(/(\{[^{}]+\})/)
    .map((part) => {
      const param = /^\{([^{}]+)\}$/.exec(part);
      if (param?.[1] === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1]);
      return "(.+?)";
    })
    .join("");
  return { kind: "mixed", regex: new RegExp(`^${source}$`), names };
}

function buildIndex(): Index {
  const spec = JSON.parse(readFileSync(specPath(), "utf8")) as Spec;
  const routesByLength = new Map<number, Route[]>();
  const greedyRoutes: Route[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    const segments = template.split("/").slice(1).map(compileSegment);
    const last = segments[segments.length - 1];
    const route: Route = {
      template,
      segments,
      greedyTail: last?.kind === "param" && SLASH_PARAMS.has(last.name),
      operations: new Map(),
    };
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const params = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]
        .map((p) => deref(spec, p))
        .filter((p): p is Parameter => isObject(p) && typeof p.name === "string" && typeof p.in === "string");
      const requestBody = deref(spec, op.requestBody);
      route.operations.set(method.toUpperCase(), {
        method: method.toUpperCase(),
        operationId: typeof op.operationId === "string" ? op.operationId : `${method} ${template}`,
        pathTemplate: template,
        pathParams: params.filter((p) => p.in === "path"),
        queryParams: params.filter((p) => p.in === "query"),
        requestBody: isObject(requestBody) ? (requestBody as RequestBody) : undefined,
        responses: isObject(op.responses) ? op.responses : {},
      });
    }
    const bucket = routesByLength.get(segments.length) ?? [];
    bucket.push(route);
    routesByLength.set(segments.length, bucket);
    if (route.greedyTail) greedyRoutes.push(route);
  }
  const converter = new SchemaConverter(spec);
  const options = { strict: false, allErrors: true, validateSchema: false, addUsedSchema: false } as const;
  const bodyAjv = new Ajv(options);
  const paramAjv = new Ajv({ ...options, coerceTypes: "array" });
  return { spec, routesByLength, greedyRoutes, converter, bodyAjv, paramAjv };
}

function getIndex(): Index {
  index ??= buildIndex();
  return index;
}

function compile(idx: Index, ajv: Ajv, schema: unknown): ValidateFunction {
  const standalone = idx.converter.standalone(schema);
  registerFormats(ajv, idx.converter.formats);
  return ajv.compile(standalone);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `/repos/o/r/pulls/1?x=1` → `["repos", "o", "r", "pulls", "1"]` (still percent-encoded). */
function splitPath(path: string): string[] {
  let pathname = path.replace(/[?#].*$/s, "");
  if (/^https?:\/\//i.test(pathname)) pathname = new URL(pathname).pathname;
  if (pathname.length > 1) pathname = pathname.replace(/\/$/, "");
  return pathname.split("/").slice(1);
}

/** Path parameter values when `segments` fit the route's shape; the rank orders matches (lower wins). */
function matchShape(
  route: Route,
  segments: string[],
): { values: Record<string, string>; rank: number[] } | undefined {
  const values: Record<string, string> = {};
  const rank: number[] = [];
  for (const [i, segment] of route.segments.entries()) {
    const isTail = route.greedyTail && i === route.segments.length - 1;
    const raw = isTail ? segments.slice(i).join("/") : segments[i];
    if (raw === undefined || (raw === "" && segment.kind !== "literal")) return undefined;
    if (segment.kind === "literal") {
      if (decodeSegment(raw) !== segment.text) return undefined;
      rank.push(0);
    } else if (segment.kind === "param") {
      values[segment.name] = isTail ? raw.split("/").map(decodeSegment).join("/") : decodeSegment(raw);
      rank.push(2);
    } else {
      const found = segment.regex.exec(decodeSegment(raw));
      if (!found) return undefined;
      segment.names.forEach((name, n) => (values[name] = found[n + 1] ?? ""));
      rank.push(1);
    }
  }
  return { values, rank };
}

function pathParamsValid(idx: Index, op: Operation, values: Record<string, string>): boolean {
  if (op.pathParams.length === 0) return true;
  op.pathValidator ??= compile(idx, idx.paramAjv, {
    type: "object",
    required: op.pathParams.map((p) => p.name),
    properties: Object.fromEntries(op.pathParams.map((p) => [p.name, p.schema ?? {}])),
  });
  return op.pathValidator({ ...values });
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** The best operation for `method path`, plus the methods of the routes whose shape fits the path. */
function lookup(method: string, path: string): { match?: Match; otherMethods: Set<string> } {
  const verb = method.toUpperCase();
  const segments = splitPath(path);
  const otherMethods = new Set<string>();
  if (segments.length === 1 && segments[0] === "graphql") {
    if (verb === "POST") return { match: { route: graphqlRoute, operation: GRAPHQL }, otherMethods };
    otherMethods.add("POST");
    return { otherMethods };
  }
  const idx = getIndex();
  const exact = idx.routesByLength.get(segments.length) ?? [];
  const greedy = idx.greedyRoutes.filter((r) => r.segments.length < segments.length);
  let best: { match: Match; rank: number[] } | undefined;
  for (const route of [...exact, ...greedy]) {
    const shape = matchShape(route, segments);
    if (!shape) continue;
    // Spanning several segments ranks below every exact-length match.
    const rank = route.segments.length === segments.length ? [0, ...shape.rank] : [1, ...shape.rank];
    const operation =
      route.operations.get(verb) ?? (verb === "HEAD" ? route.operations.get("GET") : undefined);
    const typed = [...route.operations.values()].filter((op) => pathParamsValid(idx, op, shape.values));
    for (const op of typed) otherMethods.add(op.method);
    if (!operation || !typed.includes(operation)) continue;
    if (!best || compareRanks(rank, best.rank) < 0) best = { match: { route, operation }, rank };
  }
  return best ? { match: best.match, otherMethods } : { otherMethods };
}

const graphqlRoute: Route = {
  template: "/graphql",
  segments: [{ kind: "literal", text: "graphql" }],
  greedyTail: false,
  operations: new Map([["POST", GRAPHQL]]),
};

/**
 * The operation GitHub's description defines for `method path` (`/repos/o/r/pulls/1/reviews` →
 * `pulls/create-review`, `/repos/{owner}/{repo}/pulls/{pull_number}/reviews`). A literal segment beats a
 * parameter, and path parameters must match their schemas (so `pulls/abc` is no pull request). A query
 * string on `path` is ignored. `POST /graphql` is reported as operation `graphql`.
 */
export function findOperation(
  method: string,
  path: string,
): { operationId: string; pathTemplate: string } | undefined {
  const { match } = lookup(method, path);
  return match && { operationId: match.operation.operationId, pathTemplate: match.operation.pathTemplate };
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === "" ? "" : `${error.instancePath} `;
  let detail = "";
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    detail = `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  } else if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    detail = `: ${params.additionalProperty}`;
  }
  return `${where}${error.message ?? error.keyword}${detail}`;
}

function hasBody(body: unknown): boolean {
  return body !== undefined && body !== null && body !== "";
}

function isEmptyBody(body: unknown): boolean {
  return !hasBody(body) || (isObject(body) && Object.keys(body).length === 0);
}

/**
 * Problems GitHub would reject `req` for; `[]` when it is valid. Each message names the operation and,
 * for schema problems, the offending location (Ajv's instancePath) and Ajv's message.
 */
export function validateRequest(req: RecordedRequest): string[] {
  const verb = req.method.toUpperCase();
  const { match, otherMethods } = lookup(verb, req.path);
  if (!match) {
    const hint =
      otherMethods.size > 0 ? ` (the route exists for ${[...otherMethods].sort().join(", ")} only)` : "";
    return [`${verb} ${req.path}: no operation in GitHub's REST API description matches${hint}`];
  }
  const op = match.operation;
  const name = `${op.operationId} (${verb} ${op.pathTemplate})`;
  const problems: string[] = [];
  const idx = op === GRAPHQL ? undefined : getIndex();

  if (idx && op.queryParams.length > 0) {
    op.queryValidator ??= compile(idx, idx.paramAjv, {
      type: "object",
      required: op.queryParams.filter((p) => p.required === true).map((p) => p.name),
      properties: Object.fromEntries(op.queryParams.map((p) => [p.name, p.schema ?? {}])),
    });
    const declared = Object.fromEntries(
      Object.entries(req.query).filter(([key]) => op.queryParams.some((p) => p.name === key)),
    );
    if (!op.queryValidator(declared)) {
      for (const error of op.queryValidator.errors ?? [])
        problems.push(`${name}: query ${describeError(error)}`);
    }
  }

  const content = op.requestBody?.content ?? {};
  const jsonType = Object.keys(content).find((type) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type));
  if (!hasBody(req.body)) {
    if (op.requestBody?.required === true) problems.push(`${name}: a request body is required`);
    return problems;
  }
  if (op.requestBody === undefined) {
    if (!isEmptyBody(req.body)) problems.push(`${name}: sends a body but the operation takes none`);
    return problems;
  }
  if (jsonType === undefined) return problems; // raw uploads, markdown text: not JSON Schema material

  let body = req.body;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      problems.push(`${name}: the body is not JSON`);
      return problems;
    }
  }
  if (op.bodyValidator === undefined) {
    const schema = content[jsonType]?.schema;
    if (op === GRAPHQL) {
      const ajv = graphqlAjv();
      op.bodyValidator = ajv.compile(schema as Schema);
    } else if (idx && schema !== undefined) {
      op.bodyValidator = compile(idx, idx.bodyAjv, schema);
    } else {
      op.bodyValidator = null;
    }
  }
  const validate = op.bodyValidator;
  if (validate && !validate(body)) {
    for (const error of validate.errors ?? []) problems.push(`${name}: body ${describeError(error)}`);
  }
  return problems;
}

let graphqlAjvInstance: Ajv | undefined;

/** GraphQL does not need the REST description, so it gets its own small Ajv. */
function graphqlAjv(): Ajv {
  graphqlAjvInstance ??= new Ajv({ strict: false, allErrors: true });
  return graphqlAjvInstance;
}

/**
 * A converted schema without its `required` lists: the fake of GitHub returns only the fields the app
 * reads, so a response is checked for what it holds (types, enums, formats, nesting), not for completeness.
 */
function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "required" && Array.isArray(value)) continue;
    out[key] =
      (key === "properties" || key === "patternProperties" || key === "definitions") && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutRequired(sub)]))
        : withoutRequired(value);
  }
  return out;
}

/**
 * Problems in a successful (2xx) JSON response to `method path` that GitHub's description would not allow:
 * a field of the wrong type, a value outside its enum, a malformed date. Fields the description marks
 * required may be absent (see `withoutRequired`). `[]` when valid, or when the status documents no JSON.
 */
export function validateResponse(method: string, path: string, status: number, body: unknown): string[] {
  // A raw media type's bytes (a blob asked for as application/vnd.github.raw) are no JSON to check.
  if (status < 200 || status > 299 || typeof body !== "object" || body === null || Buffer.isBuffer(body))
    return [];
  const verb = method.toUpperCase();
  const { match } = lookup(verb, path);
  if (!match || match.operation === GRAPHQL) return [];
  const op = match.operation;
  const idx = getIndex();
  op.responseValidators ??= new Map();
  let validate = op.responseValidators.get(String(status));
  if (validate === undefined) {
    const response = deref(idx.spec, op.responses[String(status)]);
    const content = isObject(response) && isObject(response.content) ? response.content : {};
    const json = Object.entries(content).find(([type]) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type));
    const schema = json && isObject(json[1]) ? json[1].schema : undefined;
    if (schema === undefined) validate = null;
    else {
      const standalone = withoutRequired(idx.converter.standalone(schema)) as Schema;
      registerFormats(idx.bodyAjv, idx.converter.formats);
      validate = idx.bodyAjv.compile(standalone);
    }
    op.responseValidators.set(String(status), validate);
  }
  if (!validate || validate(body)) return [];
  const name = `${op.operationId} (${verb} ${op.pathTemplate}) response ${status}`;
  return (validate.errors ?? []).map((error) => `${name}: body ${describeError(error)}`);
}
