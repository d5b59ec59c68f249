/**
 * `plugin-review audit --format html`: the audit as one self-contained page to open, print or attach to a
 * ticket. Nothing is fetched: no script at all, the style inlined, the charts plain SVG (a bar per rule or
 * repository is a few rectangles; a charting library would be larger than the whole page). A Content
 * Security Policy in the page forbids every load but its own style, so even a mistake here could not make
 * it reach the network or run a script.
 *
 * Everything that comes from repositories (names, paths, messages, reasons) is untrusted: it is HTML-escaped
 * wherever it lands, and only http(s) URLs from GitHub become links.
 */
import { createHash } from "node:crypto";
import { ruleDocsUrl } from "../../core/rule.js";
import { RULES_BY_ID } from "../../core/rules/index.js";
import type { Severity } from "../../core/types.js";
import { fails } from "../../core/verdict.js";
import { withoutBidi } from "../printable.js";
import {
  auditTime,
  blobUrl,
  bySeverity,
  findingCount,
  findingsByRule,
  repositoriesByFindings,
  reviewed,
  typeLabel,
  webUrl,
  type AuditFinding,
  type AuditReport,
  type AuditTotals,
  type OrganisationPolicyAccess,
  type AuditComparison,
  type ComparedFinding,
  type DescriptorReadiness,
  type MigrationState,
} from "./report.js";
import {
  capability,
  descriptorsLine,
  kind,
  findingsWords,
  MIGRATION_WORDS,
  readinessTrend,
  repositoriesLine,
} from "./readiness.js";

/** The repositories drawn in the chart by repository (all of them are in the list of findings below it). */
const CHARTED_REPOSITORIES = 30;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text for HTML content and attribute values: nothing in it can open a tag, an attribute or an entity, nor
 * reorder what the page shows around it (a bidirectional override), as in the Markdown and text reports.
 */
export function esc(s: string | number): string {
  return withoutBidi(String(s)).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A message: escaped, its `quoted` names set as code (after escaping: the backticks are all it reads). */
function message(s: string): string {
  return esc(s).replace(/`([^`]+)`/g, "<code>$1</code>");
}

const SEVERITIES: readonly Severity[] = ["error", "warning", "notice"];
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function a(href: string | undefined, content: string, cls = ""): string {
  const c = cls ? ` class="${cls}"` : "";
  return href ? `<a${c} href="${esc(href)}">${content}</a>` : cls ? `<span${c}>${content}</span>` : content;
}

function ruleLink(ruleId: string): string {
  return a(RULES_BY_ID.has(ruleId) ? ruleDocsUrl(ruleId) : undefined, `<code>${esc(ruleId)}</code>`);
}

// ---------------------------------------------------------------------------------------------------------
// Charts: one row per rule or repository, a label, a bar (an SVG of a few rectangles) and the count. Rows
// are HTML so that labels wrap on a narrow screen; the bar scales with the row.

interface Segment {
  cls: string;
  value: number;
}

const BAR = 1000; // the bar's width in its own coordinates

function bar(segments: readonly Segment[], max: number, label: string, attrs: string): string {
  let x = 0;
  const rects = segments
    .filter((s) => s.value > 0)
    .map((s) => {
      const w = (s.value / Math.max(max, 1)) * BAR;
      const r = `<rect class="${s.cls}" x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="10"/>`;
      x += w;
      return r;
    })
    .join("");
  return `<svg class="bar mark" ${attrs} viewBox="0 0 ${BAR} 10" preserveAspectRatio="none" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>${rects}</svg>`;
}

function row(label: string, svg: string, value: string): string {
  return `<div class="row"><span class="label">${label}</span>${svg}<span class="value">${value}</span></div>`;
}

/** A bar's segments: one per severity, in order. */
function segments(c: Record<Severity, number>): { cls: Severity; value: number }[] {
  return SEVERITIES.map((s) => ({ cls: s, value: c[s] }));
}

function severityWords(c: Record<Severity, number>): string {
  return SEVERITIES.filter((s) => c[s] > 0)
    .map((s) => plural(c[s], s))
    .join(", ");
}

function legend(items: readonly [string, string][]): string {
  return `<p class="legend">${items
    .map(
      ([cls, text]) =>
        `<span><svg viewBox="0 0 10 10" aria-hidden="true"><rect class="${cls}" width="10" height="10"/></svg>${esc(text)}</span>`,
    )
    .join("")}</p>`;
}

const SEVERITY_LEGEND = legend([
  ["error", "errors"],
  ["warning", "warnings"],
  ["notice", "notices"],
]);

function byRuleChart(report: AuditReport): string {
  const rules = findingsByRule(report);
  if (!rules.length) return `<p>No findings.</p>`;
  const max = Math.max(...rules.map((r) => r.total));
  const rows = rules.map((r) =>
    row(
      `${ruleLink(r.ruleId)} <small>${plural(r.repositories, "repository", "repositories")}</small>`,
      bar(
        segments(r),
        max,
        `${r.ruleId}: ${severityWords(r)}`,
        `data-rule="${esc(r.ruleId)}" data-count="${r.total}"`,
      ),
      esc(r.total.toLocaleString("en-US")),
    ),
  );
  return `${SEVERITY_LEGEND}<div class="chart" role="list">${rows.join("")}</div>`;
}

function byRepositoryChart(report: AuditReport): string {
  const repos = repositoriesByFindings(report);
  if (!repos.length) return `<p>No findings.</p>`;
  const shown = repos.slice(0, CHARTED_REPOSITORIES);
  const max = Math.max(...shown.map(findingCount));
  const rows = shown.map((r) => {
    const total = findingCount(r);
    return row(
      a(`#${anchor(r.repository)}`, esc(r.repository)),
      bar(
        segments(bySeverity(r)),
        max,
        `${r.repository}: ${severityWords(bySeverity(r))}`,
        `data-repository="${esc(r.repository)}" data-count="${total}"`,
      ),
      esc(total.toLocaleString("en-US")),
    );
  });
  const more =
    repos.length > shown.length
      ? `<p class="note">The ${shown.length} repositories with the most errors of ${repos.length} with findings; all of them are listed under <a href="#findings">Findings</a>.</p>`
      : "";
  return `${SEVERITY_LEGEND}<div class="chart" role="list">${rows.join("")}</div>${more}`;
}

// ---------------------------------------------------------------------------------------------------------

/** An id for a repository's section: letters, digits and `-` only (ids come from untrusted names). */
function anchor(repository: string): string {
  return `repo-${[...repository].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `-${c.codePointAt(0)!.toString(16)}-`)).join("")}`;
}

/** The totals as cards: what there is to fix, and what it blocks. */
const CARDS: [keyof AuditTotals, string][] = [
  ["errors", "errors"],
  ["warnings", "warnings"],
  ["notices", "notices"],
  ["descriptors", "descriptors reviewed"],
  ["wouldFail", "repositories where a pull request would fail"],
  ["failingDescriptors", "descriptors a pull request could not touch"],
];

function totals(t: AuditTotals): string {
  const n = (k: keyof AuditTotals) => `<span data-total="${k}">${esc(t[k].toLocaleString("en-US"))}</span>`;
  const cards = CARDS.map(
    ([k, label]) =>
      `<div class="total ${k}"><dt>${esc(label)}</dt><dd data-total="${k}">${esc(t[k].toLocaleString("en-US"))}</dd></div>`,
  ).join("");
  return `<dl class="totals">${cards}</dl><p>${n("repositories")} ${t.repositories === 1 ? "repository" : "repositories"}: ${n("reviewed")} reviewed, ${n("invalidConfiguration")} with an invalid configuration, ${n("skipped")} skipped, ${n("unreadable")} unreadable.</p>`;
}

function findingRow(
  repo: { url?: string; commit?: string },
  path: string,
  f: AuditFinding,
  extra = "",
): string {
  const place = `${esc(path)}:${f.line}:${f.column}`;
  return `<tr class="finding ${f.severity}"${extra}><td class="where">${a(blobUrl(repo, path, f.line), place, "line")}</td><td><span class="sev ${f.severity}">${f.severity}</span></td><td>${ruleLink(f.ruleId)}</td><td class="message">${message(f.message)}</td></tr>`;
}

const FINDINGS_HEAD = `<thead><tr><th>Where</th><th>Severity</th><th>Rule</th><th>Message</th></tr></thead>`;

function repoTitle(r: { repository: string; url?: string; commit?: string }): string {
  const url = webUrl(r.url);
  return a(url && r.commit ? `${url}/tree/${r.commit}` : url, esc(r.repository));
}

/** Which repositories a pull request would fail today, and why: the failing findings or the configuration. */
function wouldFail(report: AuditReport): string {
  const out: string[] = [];
  for (const r of report.repositories) {
    if (r.status === "invalid-configuration")
      out.push(
        `<li><h3>${repoTitle(r)}</h3><p>Its configuration is invalid: every pull request fails until it is fixed.</p><pre>${esc(r.reason)}</pre></li>`,
      );
    else if (r.status === "reviewed" && r.wouldFail) {
      // Why, per descriptor: its findings at `fail_on`, by rule (each finding is listed under Findings).
      const files = r.files.filter((f) => f.wouldFail);
      const items = files.map((f) => {
        const failing = f.findings.filter((x) => fails(x.severity, r.failOn));
        const rules = new Map<string, number>();
        for (const x of failing) rules.set(x.ruleId, (rules.get(x.ruleId) ?? 0) + 1);
        const why = [...rules].map(([id, n]) => `${ruleLink(id)}${n > 1 ? ` ×${n}` : ""}`).join(", ");
        return `<li>${a(blobUrl(r, f.path), `<code>${esc(f.path)}</code>`)}: ${plural(failing.length, "finding")} at <code>fail_on: ${esc(r.failOn)}</code> (${why})</li>`;
      });
      out.push(
        `<li><h3>${repoTitle(r)}</h3><p>A pull request touching ${files.length === 1 ? "this descriptor" : `one of these ${files.length} descriptors`} fails once existing findings count (<code>existing: fail</code>); its findings are <a href="#${anchor(r.repository)}">listed below</a>.</p><ul>${items.join("")}</ul></li>`,
      );
    }
  }
  if (!out.length)
    return `<p>None: no pull request touching a descriptor would fail, even with <code>existing: fail</code>.</p>`;
  return `<ul class="plain">${out.join("")}</ul>`;
}

const POLICY: Record<OrganisationPolicyAccess["state"], string> = {
  read: "read",
  "not-read": "NOT read",
  none: "none to read",
  "app-not-installed": "App not installed",
  unknown: "unknown",
};

function policy(report: AuditReport): string {
  const app = report.app
    ? `<p>The App <code>${esc(report.app.app)}</code>: ${esc(report.app.detail)}.</p>`
    : "";
  const rows = report.repositories.flatMap((r) => {
    const p = "organisationPolicy" in r ? r.organisationPolicy : undefined;
    if (!p || p.state === "read" || p.state === "none") return [];
    return [
      `<tr><td>${repoTitle(r)}</td><td><span class="policy ${p.state}">${esc(POLICY[p.state])}</span></td><td>${esc(p.detail ?? "")}</td></tr>`,
    ];
  });
  if (!rows.length)
    return `${app}<p>The App reads ${esc(report.organization)}/.github for every repository reviewed (or there is nothing to read).</p>`;
  return `${app}<p>Where the App cannot read the organisation's configuration, its checks apply the repository's own file alone: a rule the organisation locks can be turned off there.</p><div class="scroll"><table><thead><tr><th>Repository</th><th>Organisation policy</th><th>Why</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

function notReviewed(report: AuditReport): string {
  const items = report.repositories.flatMap((r) => {
    if (r.status === "skipped") return [`<li>${esc(r.repository)}: skipped (${esc(r.reason)})</li>`];
    if (r.status === "unreadable")
      return [`<li>${esc(r.repository)}: could not be read: ${esc(r.reason)}</li>`];
    if (r.status === "reviewed" && r.truncated)
      return [`<li>${esc(r.repository)}: GitHub cut its tree short; some descriptors may be missing</li>`];
    return [];
  });
  return items.length
    ? `<section id="not-reviewed"><h2>Not reviewed</h2><ul>${items.join("")}</ul></section>`
    : "";
}

function allFindings(report: AuditReport): string {
  const repos = reviewed(report).filter((r) => r.files.some((f) => f.findings.length));
  if (!repos.length) return `<p>No findings.</p>`;
  return repos
    .map((r) => {
      const rows = r.files.flatMap((f) =>
        f.findings.map((x) => findingRow(r, f.path, x, x.baseline === "new" ? ` data-change="new"` : "")),
      );
      const sum = severityWords(bySeverity(r));
      return `<section class="repo" id="${anchor(r.repository)}"><h3>${repoTitle(r)}</h3><p class="meta">${esc(sum)} in ${plural(r.descriptors, "descriptor")} at commit <code>${esc(r.commit.slice(0, 12))}</code> of <code>${esc(r.defaultBranch)}</code>; <code>fail_on: ${esc(r.failOn)}</code></p><div class="scroll"><table class="findings">${FINDINGS_HEAD}<tbody>${rows.join("")}</tbody></table></div></section>`;
    })
    .join("");
}

// ---------------------------------------------------------------------------------------------------------
// The trend, with --compare: the backlog then and now, and what was fixed and added, per rule.

function trend(report: AuditReport, c: AuditComparison): string {
  const e = c.earlier.totals;
  const t = report.totals;
  const max = Math.max(findingCount(e), findingCount(t), 1);
  const point = (label: string, x: AuditTotals, key: string) =>
    row(
      esc(label),
      bar(
        segments(bySeverity(x)),
        max,
        `${label}: ${severityWords(bySeverity(x)) || "no findings"}`,
        `data-audit="${key}" data-count="${findingCount(x)}"`,
      ),
      esc(findingCount(x).toLocaleString("en-US")),
    );
  const changeMax = Math.max(1, ...c.byRule.map((r) => Math.max(r.fixed, r.new)));
  const half = BAR / 2;
  const diverging = c.byRule.map((r) => {
    const wf = (r.fixed / changeMax) * half;
    const wn = (r.new / changeMax) * half;
    const label = `${r.ruleId}: ${r.fixed} fixed, ${r.new} new`;
    const svg = `<svg class="bar change" data-rule="${esc(r.ruleId)}" data-fixed="${r.fixed}" data-new="${r.new}" viewBox="0 0 ${BAR} 10" preserveAspectRatio="none" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title><line class="axis" x1="${half}" y1="0" x2="${half}" y2="10"/>${r.fixed ? `<rect class="fixed" x="${(half - wf).toFixed(1)}" y="0" width="${wf.toFixed(1)}" height="10"/>` : ""}${r.new ? `<rect class="new" x="${half}" y="0" width="${wn.toFixed(1)}" height="10"/>` : ""}</svg>`;
    return row(
      ruleLink(r.ruleId),
      svg,
      `<span class="fixed-n">−${r.fixed}</span> <span class="new-n">+${r.new}</span>`,
    );
  });
  const changes = [...c.fixed.map((f) => ["fixed", f] as const), ...c.new.map((f) => ["new", f] as const)];
  const changeRows = changes.map(
    ([kind, f]: readonly [string, ComparedFinding]) =>
      `<tr class="change ${kind}" data-change="${kind}"><td><span class="chg ${kind}">${kind}</span></td><td class="where">${a(f.url, `${esc(f.repository)}/${esc(f.path)}:${f.line}:${f.column}`, "line")}</td><td><span class="sev ${f.severity}">${f.severity}</span></td><td>${ruleLink(f.ruleId)}</td><td class="message">${message(f.message)}</td></tr>`,
  );
  const notCompared = c.notCompared.length
    ? `<p>Not compared (their findings are neither fixed nor new):</p><ul>${c.notCompared.map((n) => `<li>${esc(n.repository)}: ${esc(n.reason)}</li>`).join("")}</ul>`
    : "";
  return `<section id="trend"><h2>Since ${esc(auditTime(c.earlier.auditedAt))}</h2>
<p class="headline"><span data-changes="fixed">${c.fixed.length}</span> fixed, <span data-changes="new">${c.new.length}</span> new, ${c.unchanged.toLocaleString("en-US")} unchanged in ${plural(c.compared, "repository", "repositories")} reviewed by both audits (the earlier one: <code>${esc(c.earlier.file.split(/[\\/]/).pop() ?? "")}</code>).</p>
${readinessTrend(report) ? `<p data-readiness-trend>Migration to Extensions 2.0: ${esc(readinessTrend(report)!)}.</p>` : ""}
<h3>The backlog then and now</h3>${SEVERITY_LEGEND}<div class="chart" role="list">${point(`Earlier (${auditTime(c.earlier.auditedAt)})`, e, "earlier")}${point(`Now (${auditTime(report.auditedAt)})`, t, "now")}</div>
${
  diverging.length
    ? `<h3>Fixed and new, by rule</h3>${legend([
        ["fixed", "fixed"],
        ["new", "new"],
      ])}<div class="chart" role="list">${diverging.join("")}</div>`
    : ""
}
${changeRows.length ? `<div class="scroll"><table class="findings changes"><thead><tr><th>Change</th><th>Where</th><th>Severity</th><th>Rule</th><th>Message</th></tr></thead><tbody>${changeRows.join("")}</tbody></table></div>` : ""}
${notCompared}</section>`;
}

// ---------------------------------------------------------------------------------------------------------
// The migration to Extensions 2.0: repositories by state, EF1 descriptors by what `migrate` can do with them
// (per type), and each descriptor's and extension's row.

const MIGRATION_ORDER: readonly MigrationState[] = ["done", "in-progress", "not-started"];
/** What `migrate` can do, as the chart's segments: class, the totals' key, words. */
const CAPABILITIES = [
  ["fully", "fully", "fully"],
  ["partly", "partly", "partly"],
  ["not-at-all", "notAtAll", "not at all"],
  ["unread", "unread", "not read"],
] as const;
/** At most this many items of one descriptor are listed on the page (the JSON and CSV list them all). */
const LISTED_ITEMS = 20;

function readinessItems(
  repo: { url?: string; commit?: string },
  path: string,
  r: DescriptorReadiness,
): string {
  if (!r.items.length) return "";
  const items = r.items.slice(0, LISTED_ITEMS).map((i) => {
    const where = [
      i.member ? `<code>${esc(i.member)}</code>` : "",
      i.line !== undefined ? a(blobUrl(repo, path, i.line), `line ${i.line}`, "line") : "",
    ]
      .filter(Boolean)
      .join(", ");
    return `<li>${where ? `${where}: ` : ""}${message(i.text)}</li>`;
  });
  const more =
    r.items.length > LISTED_ITEMS
      ? `<li class="note">… and ${r.items.length - LISTED_ITEMS} more (the JSON and CSV reports list them all)</li>`
      : "";
  const list = `<ul class="items">${items.join("")}${more}</ul>`;
  if (r.migrate !== "partly") return list;
  // What is lost can be long (a member per chart and key metric): folded under the members' names.
  const members = [...new Set(r.items.flatMap((i) => (i.member ? [i.member] : [])))];
  const named = members.slice(0, 3).map((m) => `<code>${esc(m)}</code>`);
  const etc = members.length > named.length ? ", …" : "";
  return `<details><summary>${plural(r.items.length, "item")} not carried over${named.length ? `: ${named.join(", ")}${etc}` : ""}</summary>${list}</details>`;
}

function readiness(report: AuditReport): string {
  const t = report.readiness;
  const repos = reviewed(report).filter((r) => r.migration);
  if (!t || !repos.length)
    return `<p>No EF1 descriptor and no EF2 extension${t ? "" : " (this report predates the readiness)"}.</p>`;
  const stateMax = Math.max(...MIGRATION_ORDER.map((s) => t.repositories[s]));
  const states = MIGRATION_ORDER.map((s) => {
    const n = t.repositories[s];
    return row(
      esc(MIGRATION_WORDS[s]),
      bar(
        [{ cls: s, value: n }],
        stateMax,
        `${MIGRATION_WORDS[s]}: ${plural(n, "repository", "repositories")}`,
        `data-migration="${s}" data-count="${n}"`,
      ),
      esc(n.toLocaleString("en-US")),
    );
  });
  const typeMax = Math.max(1, ...t.byType.map((x) => x.total));
  const types = t.byType.map((x) => {
    const words = CAPABILITIES.filter(([, k]) => x[k] > 0)
      .map(([, k, w]) => `${x[k]} ${w}`)
      .join(", ");
    const counts = CAPABILITIES.map(([cls, k]) => `data-${cls}="${x[k]}"`).join(" ");
    const label = typeLabel(x);
    return row(
      `<code>${esc(label)}</code>`,
      bar(
        CAPABILITIES.map(([cls, k]) => ({ cls, value: x[k] })),
        typeMax,
        `${label}: ${words}`,
        `data-type="${esc(label)}" data-count="${x.total}" ${counts}`,
      ),
      esc(x.total.toLocaleString("en-US")),
    );
  });
  const rows = repos.flatMap((r) => {
    const cells = [
      ...r.files.flatMap((f) => {
        const x = f.readiness;
        if (!x) return [];
        const ext = x.extension ? `<br><small>EF2: <code>${esc(x.extension)}</code></small>` : "";
        const cls = (x.migrate ?? "unread").replace(/ /g, "-");
        return [
          `<td class="where">${a(blobUrl(r, f.path), esc(f.path), "line")}${ext}</td><td>${esc(kind(x))}</td><td>${esc(findingsWords(f))}</td><td><span class="capability ${cls}">${esc(capability(x))}</span></td><td class="message">${readinessItems(r, f.path, x)}</td>`,
        ];
      }),
      ...(r.extensions ?? []).map(
        (e) =>
          `<td class="where">${a(blobUrl(r, e.path), esc(e.path), "line")}${e.replaces ? `<br><small>replaces <code>${esc(e.replaces)}</code></small>` : ""}</td><td>${esc(kind(e))}</td><td>${esc(findingsWords(e))}</td><td>–</td><td class="message">${e.problem ? esc(e.problem) : ""}</td>`,
      ),
    ];
    // The repository's cell spans its descriptors' rows.
    const head = `<th scope="rowgroup" rowspan="${cells.length}">${repoTitle(r)}<br><span class="migration ${r.migration}">${esc(MIGRATION_WORDS[r.migration!])}</span></th>`;
    return [
      `<tbody data-repository="${esc(r.repository)}" data-migration="${r.migration}">`,
      ...cells.map((c, i) => `<tr>${i === 0 ? head : ""}${c}</tr>`),
      "</tbody>",
    ];
  });
  return `<p>${esc(repositoriesLine(t))}; ${esc(descriptorsLine(t))}.</p>
<h3>Repositories</h3>${legend(MIGRATION_ORDER.map((s) => [s, MIGRATION_WORDS[s]]))}<div class="chart" role="list">${states.join("")}</div>
<h3>EF1 descriptors: what <code>plugin-review migrate</code> can do with them</h3>${legend(CAPABILITIES.filter(([, k]) => k !== "unread" || t.descriptors.unread).map(([cls, , w]) => [cls, w]))}<div class="chart" role="list">${types.join("")}</div>
<div class="scroll"><table class="findings readiness"><thead><tr><th>Repository</th><th>Descriptor</th><th>Framework and type</th><th>Findings</th><th>Migrate</th><th>Not carried over, or why</th></tr></thead>${rows.join("")}</table></div>`;
}

// ---------------------------------------------------------------------------------------------------------

const STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--line:#d1d9e0;--link:#0969da;--error:#cf222e;--warning:#bf8700;--notice:#0969da;--fixed:#1a7f37;--new:#cf222e;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#151b23;--line:#3d444d;--link:#4493f8;--error:#f85149;--warning:#d29922;--notice:#4493f8;--fixed:#3fb950;--new:#f85149}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:72rem;padding:1rem;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
h1{font-size:1.6rem;margin:.2em 0}h2{font-size:1.25rem;margin:1.6em 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}h3{font-size:1.05rem;margin:1em 0 .3em}
code,pre{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;background:var(--panel);padding:.5em;border-radius:6px}
.meta,.note,small{color:var(--muted)}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3em 1em}
.totals{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr));gap:.5rem;margin:0}
.total{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem;display:flex;flex-direction:column-reverse;justify-content:flex-end}
.total dt{color:var(--muted);font-size:.85em}.total dd{margin:0;font-size:1.5rem;font-weight:600}
.total.errors dd{color:var(--error)}.total.warnings dd{color:var(--warning)}.total.wouldFail dd{color:var(--error)}
.chart{display:grid;gap:.15rem}
.row{display:grid;grid-template-columns:minmax(9rem,18rem) 1fr 4.5rem;gap:.5rem;align-items:center}
.row .label{overflow-wrap:anywhere}.row .value{text-align:right;font-variant-numeric:tabular-nums}
svg.bar{display:block;width:100%;height:.9rem;background:var(--panel)}
rect.error{fill:var(--error)}rect.warning{fill:var(--warning)}rect.notice{fill:var(--notice)}rect.fixed{fill:var(--fixed)}rect.new{fill:var(--new)}line.axis{stroke:var(--muted);stroke-width:2}
rect.done,rect.fully{fill:var(--fixed)}rect.in-progress,rect.partly{fill:var(--warning)}rect.not-started,rect.not-at-all{fill:var(--error)}rect.unread{fill:var(--muted)}
.migration,.capability{font-size:.8em;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.migration.done,.capability.fully{color:var(--fixed)}.migration.in-progress,.capability.partly{color:var(--warning)}.migration.not-started,.capability.not-at-all{color:var(--error)}
table.readiness th[scope=rowgroup]{background:none;font-weight:normal;overflow-wrap:anywhere}ul.items{margin:0;padding-left:1.1em}
.legend{display:flex;gap:1rem;font-size:.85em;color:var(--muted);margin:.3em 0}.legend svg{width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
.fixed-n{color:var(--fixed)}.new-n{color:var(--new)}
.scroll{overflow-x:auto;margin-top:.6rem}
table{border-collapse:collapse;width:100%;font-size:.92em}
th,td{text-align:left;vertical-align:top;padding:.3em .5em;border-bottom:1px solid var(--line)}
th{background:var(--panel)}
td.where{white-space:nowrap}td.message{overflow-wrap:anywhere}
.sev,.chg,.policy{font-size:.8em;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.sev.error,.chg.new,.policy.not-read{color:var(--error)}.sev.warning{color:var(--warning)}.sev.notice{color:var(--notice)}.chg.fixed{color:var(--fixed)}
ul.plain{list-style:none;padding:0}
li,h3,.meta,pre{overflow-wrap:anywhere}
footer{margin-top:2rem;color:var(--muted);font-size:.85em}
@media (max-width:40rem){
body{padding:.6rem;font-size:14px}
.row{grid-template-columns:1fr 3.5rem}.row .label{grid-column:1/-1}
table.findings thead{display:none}
table.findings tr{display:block;padding:.4em 0;border-bottom:1px solid var(--line)}
table.findings td{display:block;border:0;padding:.05em 0}td.where{white-space:normal;overflow-wrap:anywhere}
}
@media print{
:root{--fg:#000;--muted:#444;--bg:#fff;--panel:#f3f3f3;--line:#bbb;--link:#000}
*{print-color-adjust:exact;-webkit-print-color-adjust:exact}
body{max-width:none;padding:0;font-size:10pt}
nav{display:none}a{text-decoration:none}
details::details-content{content-visibility:visible;display:block}summary{list-style:none}
h2,h3{break-after:avoid}.row,tr,.total{break-inside:avoid}
.scroll{overflow:visible}td.where{white-space:normal;overflow-wrap:anywhere}
}
@page{margin:1.5cm}
`;

/** The page's Content Security Policy: its own style (by hash), data: images, nothing else at all. */
function csp(style: string): string {
  const hash = createHash("sha256").update(style).digest("base64");
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

export function formatHtml(report: AuditReport, version: string): string {
  const t = report.totals;
  const org = esc(report.organization);
  const c = report.comparison;
  const nav = [
    ["totals", "Totals"],
    ...(c ? [["trend", "Since the earlier audit"]] : []),
    ["by-rule", "By rule"],
    ["by-repository", "By repository"],
    ["readiness", "Extensions 2.0"],
    ["would-fail", "Would fail"],
    ["policy", "Organisation policy"],
    ["findings", "Findings"],
  ]
    .map(([id, label]) => `<li><a href="#${id}">${label}</a></li>`)
    .join("");
  const body = `<header><h1>plugin-review audit of ${org}</h1>
<p class="meta">${plural(t.reviewed, "repository", "repositories")} reviewed on ${esc(auditTime(report.auditedAt))}, each at its default branch's commit, with the configuration the App would use there and every finding counting (<code>existing: fail</code>).</p>
<nav aria-label="Sections"><ul>${nav}</ul></nav></header>
<main>
<section id="totals"><h2>Totals</h2>${totals(t)}</section>
${c ? trend(report, c) : ""}
<section id="by-rule"><h2>Findings by rule</h2>${byRuleChart(report)}</section>
<section id="by-repository"><h2>Findings by repository</h2>${byRepositoryChart(report)}</section>
<section id="readiness"><h2>Migration to Extensions 2.0</h2>${readiness(report)}</section>
<section id="would-fail"><h2>Pull requests that would fail today (<code>existing: fail</code>)</h2>${wouldFail(report)}</section>
<section id="policy"><h2>Where the organisation's policy cannot be read</h2>${policy(report)}</section>
${notReviewed(report)}
<section id="findings"><h2>Findings</h2><p class="note">Each links to its line at the audited commit; each rule to its documentation.</p>${allFindings(report)}</section>
</main>
<footer>plugin-review ${esc(version)} · <a href="https://github.com/plugin-review/plugin-review/blob/main/docs/rolling-out.md">Rolling out a policy</a></footer>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp(STYLE)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>plugin-review audit of ${org}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
