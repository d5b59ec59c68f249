/**
 * A fake organisation `acme` for the audit's formats (HTML, CSV, SARIF, --compare) and the documentation's
 * screenshot, built from the shipped examples so that its findings are the ones `check` gives for them:
 * - `.github`: the organisation file makes `unknown-member` an error and locks it;
 * - `plugins`: a valid host plugin, and `demo/plugin.json` with a misspelt member (1 unknown-member error,
 *   on the line the test reads back);
 * - `legacy-plugins`: the host example with 30 mistakes of 24 rules, `fail_on: warning`;
 * - `remote-plugins`: the remote example with 4 mistakes, and a valid remote plugin;
 * - `tools`: one warning (an unknown process type), which does not fail at the default `fail_on: error`;
 * - `sandbox`: an invalid configuration; `archive`: archived; `network`: its tree answers 403.
 * Their migration to Extensions 2.0: `plugins`, `legacy-plugins`, `remote-plugins` and `tools` have not
 * started (their Python descriptors migrate partly, remote-mistakes' JMX one not at all);
 * - `jmx-plugins` is in progress: `pool/plugin.json` (JMX, migrates fully; its repository turns off the rule
 *   that wants its process types, which EF2 has no use for) beside `pool/extension/extension.yaml`, what
 *   `migrate` makes of it, and `was/plugin.json`, a PMI plugin (not at all; 1 invalid-value error);
 * - `extensions` is done: `snmp/extension.yaml` (an SNMP extension) and `kafka/extension/extension.yaml`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "../../../src/migrate/migrate.js";
import { ROOT, text, validHost } from "../../helpers.js";
import { FakeGitHub, type Route } from "../fake-github.js";

export const CONFIG = ".github/plugin-review.yml";
export const TOKEN = "ghp_audit_token_not_real";

const example = (path: string) => readFileSync(join(ROOT, "examples", path, "plugin.json"), "utf8");

/** The routes an audit of all repositories takes with a person's token that lists the installations. */
export const AUDIT_ROUTES: readonly Route[] = [
  "listOrgRepos",
  "contents",
  "ref",
  "tree",
  "blob",
  "installationRepos",
  "orgInstallations",
];

/** The misspelt member of acme/plugins' demo descriptor, which a later push fixes (`fixDemo`). */
export const MISSPELT = "metricGroupp";

export function demoDescriptor(misspelt = true): string {
  const doc = { ...validHost(), name: "custom.python.demo" };
  return text(misspelt ? { ...doc, [MISSPELT]: "x" } : doc);
}

/** A JMX plugin that `migrate` converts fully: one metric, no process type, nothing EF2 lacks. */
export const POOL = text({
  name: "custom.jmx.pool",
  version: "1.0",
  type: "JMX",
  entity: "PROCESS_GROUP_INSTANCE",
  metricGroup: "tech.pool",
  metrics: [
    {
      timeseries: { key: "active", unit: "Count", displayname: "Active", dimensions: ["rx_pid"] },
      source: {
        domain: "com.example",
        keyProperties: { type: "Pool" },
        attribute: "Active",
        calculateDelta: false,
        calculateRate: false,
        aggregation: "SUM",
      },
    },
  ],
});

/** A PMI plugin (WebSphere's): EF2 has no PMI data source. */
export const PMI = text({ ...validHost(), name: "custom.pmi.was", type: "PMI" });

/** What `migrate` writes for a descriptor: its extension.yaml. */
export function migrated(descriptor: string): string {
  const r = migrate(descriptor);
  if (!r.converted) throw new Error("the fixture's descriptor does not convert");
  return r.files.find((f) => f.path === "extension/extension.yaml")!.content;
}

export const SNMP_EXTENSION = [
  "name: custom:acme.router",
  "version: 1.0.0",
  'minDynatraceVersion: "1.285"',
  "author:",
  "  name: Acme",
  "snmp:",
  "  - group: router",
  "    interval:",
  "      minutes: 1",
  "    subgroups:",
  "      - subgroup: interfaces",
  "        table: true",
  "        metrics:",
  "          - key: acme.router.if.in",
  "            value: oid:1.3.6.1.2.1.2.2.1.10",
  "            type: count",
  "metrics:",
  "  - key: acme.router.if.in.count",
  "    metadata:",
  "      displayName: Bytes in",
  "      unit: Byte",
  "",
].join("\n");

export function acme(opts: { baseUrl?: string; routes?: readonly Route[] } = {}): FakeGitHub {
  const gh = new FakeGitHub(opts.routes ?? AUDIT_ROUTES, opts.baseUrl);
  gh.orgInstallations.push({ app_slug: "plugin-review", repository_selection: "all" });
  for (const r of [
    ".github",
    "plugins",
    "legacy-plugins",
    "remote-plugins",
    "tools",
    "sandbox",
    "network",
    "jmx-plugins",
    "extensions",
  ])
    gh.repo(`acme/${r}`);
  gh.repo("acme/archive", { archived: true });
  gh.file("acme/.github", "HEAD", CONFIG, "rules:\n  unknown-member: error\nlocked: [unknown-member]\n")
    .file("acme/plugins", "HEAD", "host/plugin.json", example("host-valid"))
    .file("acme/plugins", "HEAD", "demo/plugin.json", demoDescriptor())
    .file("acme/legacy-plugins", "HEAD", CONFIG, "fail_on: warning\n")
    .file("acme/legacy-plugins", "HEAD", "host/plugin.json", example("mistakes/host-mistakes"))
    .file("acme/remote-plugins", "HEAD", "snmp/plugin.json", example("mistakes/remote-mistakes"))
    .file("acme/remote-plugins", "HEAD", "http/plugin.json", example("remote-valid"))
    .file("acme/tools", "HEAD", "plugin.json", text({ ...validHost(), processTypeNames: ["PYTHN"] }))
    .file("acme/sandbox", "HEAD", CONFIG, "fail_on: sometimes\n")
    .file("acme/jmx-plugins", "HEAD", CONFIG, "rules:\n  activation-criteria-missing: off\n")
    .file("acme/jmx-plugins", "HEAD", "pool/plugin.json", POOL)
    .file("acme/jmx-plugins", "HEAD", "pool/extension/extension.yaml", migrated(POOL))
    .file("acme/jmx-plugins", "HEAD", "was/plugin.json", PMI)
    .file("acme/extensions", "HEAD", "snmp/extension.yaml", SNMP_EXTENSION)
    .file("acme/extensions", "HEAD", "kafka/extension/extension.yaml", migrated(POOL))
    .file("acme/archive", "HEAD", "plugin.json", "{")
    .file("acme/network", "HEAD", "plugin.json", "{")
    .fail("GET", /^\/repos\/acme\/network\/git\/trees\//, 403, Infinity, {
      message: "Resource not accessible",
    });
  process.env.GITHUB_TOKEN = TOKEN;
  return gh;
}

/**
 * A push to each of two repositories since an earlier audit: acme/plugins' demo descriptor loses its
 * misspelt member (one unknown-member error fixed), and acme/tools' descriptor gains an unknown technology
 * (one unknown-technology warning added). Every other finding stays.
 */
export function fixOneAddOne(gh: FakeGitHub): void {
  gh.file("acme/plugins", "HEAD", "demo/plugin.json", demoDescriptor(false)).file(
    "acme/tools",
    "HEAD",
    "plugin.json",
    text({ ...validHost(), processTypeNames: ["PYTHN"], technologies: ["PYTHON", "COBOL"] }),
  );
}
