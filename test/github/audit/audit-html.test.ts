/**
 * `plugin-review audit --format html` in a real browser: Debian's Chromium (`/usr/bin/chromium`), driven by
 * playwright-core (which brings no browser of its own), headless with a fresh profile. The page is made by
 * the audit of the fake organisation of organisation.ts, compared with an earlier audit; the test reads what
 * the browser shows, not the HTML text: no console error, no request, the JSON report's totals, one bar per
 * rule with findings (drawn to scale), every finding linked to its line at the audited commit, no overflow
 * on a narrow screen or in print. Hostile values from repositories stay text. A screenshot is kept in
 * test-artifacts/ (PLUGIN_REVIEW_DOCS_SCREENSHOT=1 also writes the documentation's, docs/images/).
 * Skipped, with the reason printed, where Chromium is not installed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import type { AuditReport, ReviewedRepository } from "../../../src/format/audit/report.js";
import { mainRun as run } from "../../cli/run.js";
import { describeUnless, MORE_THAN_NPM_CI, ROOT, text, validHost } from "../../helpers.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { acme, demoDescriptor, fixOneAddOne, MISSPELT, PMI } from "./organisation.js";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const ARTIFACTS = join(ROOT, "test-artifacts");

/** Why the browser cannot run here, or undefined. */
function noBrowser(): string | undefined {
  if (!existsSync(CHROMIUM))
    return `${CHROMIUM} is not installed (Debian's package: apt-get install chromium; ${MORE_THAN_NPM_CI})`;
  const r = spawnSync(CHROMIUM, ["--version"], { encoding: "utf8", timeout: 60_000 });
  if (r.error || r.status !== 0) return `${CHROMIUM} does not run: ${r.error?.message ?? r.stderr}`;
  return undefined;
}
const skip = noBrowser();
const describeBrowser = describeUnless(skip);

let context: BrowserContext;
let dir = "";
beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), "plugin-review-audit-html-"));
  // A persistent context is how playwright takes a user-data-dir: a fresh one, deleted afterwards.
  context = await chromium.launchPersistentContext(join(dir, "profile"), {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1000, height: 900 },
  });
}, 120_000);
afterAll(async () => {
  await context?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => disableNetwork());
afterEach(() => {
  cleanup();
  delete process.env.GITHUB_TOKEN;
});

interface Opened {
  page: Page;
  url: string;
  /** Console errors and warnings, uncaught errors, dialogs. */
  problems: string[];
  /** Every request the page made, its own document included. */
  requests: string[];
}

async function open(html: string, name: string): Promise<Opened> {
  const file = join(dir, `${name}.html`);
  writeFileSync(file, html);
  const url = pathToFileURL(file).href;
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("request", (r) => requests.push(r.url()));
  // Should the page ask for anything but itself, the request is recorded and never leaves.
  await page.route("**/*", (route) => (route.request().url() === url ? route.continue() : route.abort()));
  await page.goto(url, { waitUntil: "load" });
  return { page, url, problems, requests };
}

const encodePath = (p: string) => p.split("/").map(encodeURIComponent).join("/");

describeBrowser("audit --format html in Chromium", { timeout: 180_000 }, () => {
  it("shows the JSON report's totals, a bar per rule drawn to scale, the change since an earlier audit, and links to each line", async () => {
    const gh = acme();
    const earlierFile = join(dir, "audit-earlier.json");
    const earlier = JSON.parse((await run(["audit", "acme", "--format", "json"])).stdout) as AuditReport;
    earlier.auditedAt = new Date(Date.now() - 28 * 86_400_000).toISOString(); // as if four weeks ago
    writeFileSync(earlierFile, JSON.stringify(earlier));
    fixOneAddOne(gh);
    const json = JSON.parse(
      (await run(["audit", "acme", "--format", "json", "--compare", earlierFile])).stdout,
    ) as AuditReport;
    const html = await run(["audit", "acme", "--format", "html", "--compare", earlierFile]);
    expect(html.status).toBe(0);
    const { page, url, problems, requests } = await open(html.stdout, "acme");

    expect(problems).toEqual([]);
    expect(requests).toEqual([url]); // the page itself, nothing else

    // The totals the JSON report gives.
    for (const [key, value] of Object.entries(json.totals))
      expect(await page.locator(`[data-total="${key}"]`).innerText(), key).toBe(
        value.toLocaleString("en-US"),
      );

    // One mark per rule with findings, each as long as its count (to the longest) on screen.
    const reviewed = json.repositories.filter((r): r is ReviewedRepository => r.status === "reviewed");
    const perRule = new Map<string, number>();
    for (const r of reviewed)
      for (const f of r.files)
        for (const x of f.findings) perRule.set(x.ruleId, (perRule.get(x.ruleId) ?? 0) + 1);
    const marks = await page.locator("#by-rule svg.mark").evaluateAll((svgs) =>
      svgs.map((s) => ({
        rule: s.getAttribute("data-rule"),
        count: Number(s.getAttribute("data-count")),
        drawn: [...s.querySelectorAll("rect")].reduce((w, r) => w + r.getBoundingClientRect().width, 0),
        width: s.getBoundingClientRect().width,
      })),
    );
    expect(new Map(marks.map((m) => [m.rule, m.count]))).toEqual(perRule);
    expect(marks.length).toBe(perRule.size);
    const most = Math.max(...perRule.values());
    for (const m of marks) expect(m.drawn / m.width, m.rule ?? "").toBeCloseTo(m.count / most, 2);

    // Every finding links to its line at the audited commit; the line holds what the finding names.
    const links = await page
      .locator("#findings a.line")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    let count = 0;
    for (const r of reviewed)
      for (const f of r.files)
        for (const x of f.findings) {
          count++;
          expect(links).toContain(
            `https://github.com/${r.repository}/blob/${r.commit}/${encodePath(f.path)}#L${x.line}`,
          );
          const lines = gh.contents.get(`${r.repository}@HEAD`)!.get(f.path)!.toString("utf8").split("\n");
          expect(lines[x.line - 1], `${r.repository}/${f.path}:${x.line}`).toBeTruthy();
        }
    expect(links.length).toBe(count); // one link per finding
    const variant = reviewed.find((r) => r.repository === "acme/remote-plugins")!;
    const mismatch = variant.files.flatMap((f) => f.findings).find((x) => x.ruleId === "variant-mismatch")!;
    const snmp = gh.contents.get("acme/remote-plugins@HEAD")!.get("snmp/plugin.json")!.toString("utf8");
    expect(snmp.split("\n")[mismatch.line - 1]).toMatch(/^\s*"type":/);

    // The change since the earlier audit: one finding fixed (linked at the earlier commit), one new.
    expect(await page.locator('[data-changes="fixed"]').innerText()).toBe("1");
    expect(await page.locator('[data-changes="new"]').innerText()).toBe("1");
    const changes = await page
      .locator("#trend tr[data-change]")
      .evaluateAll((rows) =>
        rows.map((r) => [r.getAttribute("data-change"), r.querySelector("a")?.getAttribute("href")]),
      );
    const fixedAt = earlier.repositories.find((r) => r.repository === "acme/plugins") as ReviewedRepository;
    const tools = reviewed.find((r) => r.repository === "acme/tools")!;
    const added = tools.files[0]!.findings.find((x) => x.baseline === "new")!;
    expect(changes).toEqual([
      [
        "fixed",
        `https://github.com/acme/plugins/blob/${fixedAt.commit}/demo/plugin.json#L${
          demoDescriptor()
            .split("\n")
            .findIndex((l) => l.includes(MISSPELT)) + 1
        }`,
      ],
      ["new", `https://github.com/acme/tools/blob/${tools.commit}/plugin.json#L${added.line}`],
    ]);
    expect(await page.locator("#trend svg.change").count()).toBe(2);

    // The migration to Extensions 2.0: a mark per state and per descriptor type, each as the JSON's
    // repositories and descriptors count them, its segments drawn to scale.
    const migration = { done: 0, "in-progress": 0, "not-started": 0 } as Record<string, number>;
    const perType = new Map<string, Record<string, number>>();
    for (const r of reviewed) {
      if (r.migration) migration[r.migration]!++;
      for (const f of r.files) {
        const x = f.readiness;
        if (!x) continue; // an extension.yaml reviewed beside its plugin.json
        const label = [x.type, x.variant].join(" ");
        const of = perType.get(label) ?? { fully: 0, partly: 0, "not-at-all": 0, unread: 0 };
        of[(x.migrate ?? "unread").replace(/ /g, "-")]!++;
        perType.set(label, of);
      }
    }
    expect(migration).toEqual({ done: 1, "in-progress": 1, "not-started": 4 }); // the fixture's
    const drawn = (selector: string, attrs: string[]) =>
      page.locator(selector).evaluateAll(
        (svgs, names) =>
          svgs.map((s) => ({
            counts: Object.fromEntries(names.map((n) => [n, s.getAttribute(`data-${n}`)])),
            widths: Object.fromEntries(
              [...s.querySelectorAll("rect")].map((r) => [
                r.getAttribute("class"),
                r.getBoundingClientRect().width / s.getBoundingClientRect().width,
              ]),
            ),
          })),
        attrs,
      );
    const stateMarks = await drawn("#readiness svg.mark[data-migration]", ["migration", "count"]);
    expect(Object.fromEntries(stateMarks.map((m) => [m.counts.migration, Number(m.counts.count)]))).toEqual(
      migration,
    );
    const mostState = Math.max(...Object.values(migration));
    for (const m of stateMarks)
      expect(m.widths[m.counts.migration!] ?? 0).toBeCloseTo(Number(m.counts.count) / mostState, 2);
    const capabilities = ["fully", "partly", "not-at-all", "unread"];
    const typeMarks = await drawn("#readiness svg.mark[data-type]", ["type", "count", ...capabilities]);
    expect(
      new Map(
        typeMarks.map((m) => [
          m.counts.type,
          Object.fromEntries(capabilities.map((c) => [c, Number(m.counts[c])])),
        ]),
      ),
    ).toEqual(perType);
    const mostType = Math.max(...typeMarks.map((m) => Number(m.counts.count)));
    for (const m of typeMarks)
      for (const c of capabilities)
        expect(m.widths[c] ?? 0, `${m.counts.type} ${c}`).toBeCloseTo(Number(m.counts[c]) / mostType, 2);
    // Why the PMI plugin does not migrate, linked to the line that says PMI at the audited commit.
    const jmx = reviewed.find((r) => r.repository === "acme/jmx-plugins")!;
    const pmi = jmx.files.find((f) => f.path === "was/plugin.json")!.readiness!;
    const was = page.locator('#readiness tbody[data-repository="acme/jmx-plugins"] tr', {
      hasText: "was/plugin.json",
    });
    expect(await was.innerText()).toContain("PMI plugins have no EF2 form");
    expect(await was.locator("a", { hasText: `line ${pmi.items[0]!.line}` }).getAttribute("href")).toBe(
      `https://github.com/acme/jmx-plugins/blob/${jmx.commit}/was/plugin.json#L${pmi.items[0]!.line}`,
    );
    expect(PMI.split("\n")[pmi.items[0]!.line! - 1]).toMatch(/"type": "PMI"/);
    // What a descriptor that migrates partly loses, folded, each item linked to its line.
    const plugins = reviewed.find((r) => r.repository === "acme/plugins")!;
    const lost = plugins.files.find((f) => f.path === "host/plugin.json")!.readiness!;
    const host = page.locator('#readiness tbody[data-repository="acme/plugins"] tr', {
      hasText: "host/plugin.json",
    });
    expect(await host.locator("summary").innerText()).toMatch(
      new RegExp(`^${lost.items.length} items not carried over: ${lost.items[0]!.member}, `),
    );
    expect(
      await host.locator("details a.line").evaluateAll((as) => as.map((x) => x.getAttribute("href"))),
    ).toEqual(
      lost.items.map(
        (i) => `https://github.com/acme/plugins/blob/${plugins.commit}/host/plugin.json#L${i.line}`,
      ),
    );
    // Each repository with a migration is listed with its state, its descriptors and its extensions.
    const listed = await page
      .locator("#readiness tbody[data-repository]")
      .evaluateAll((bodies) =>
        bodies.map((b) => [
          b.getAttribute("data-repository"),
          b.getAttribute("data-migration"),
          b.rows.length,
        ]),
      );
    expect(listed).toEqual(
      reviewed
        .filter((r) => r.migration)
        .map((r) => [
          r.repository,
          r.migration,
          r.files.filter((f) => f.readiness).length + r.extensions!.length,
        ]),
    );
    // And the migration since the earlier audit (the same repositories: no change).
    expect(await page.locator("[data-readiness-trend]").innerText()).toBe(
      "Migration to Extensions 2.0: done 1 → 1, in progress 1 → 1, not started 4 → 4 repositories; EF1 descriptors 8 → 8.",
    );

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "audit-report.png"), fullPage: true });
    if (process.env.PLUGIN_REVIEW_DOCS_SCREENSHOT === "1") {
      // The documentation's picture: the page's top, down to the chart by repository.
      const bottom = await page.locator("#by-repository").evaluate((e) => e.getBoundingClientRect().bottom);
      await page.screenshot({
        path: join(ROOT, "docs", "images", "audit-report.png"),
        fullPage: true,
        clip: { x: 0, y: 0, width: 1000, height: Math.ceil(bottom + 16) },
      });
      // The readiness section's charts, for its own section of rolling-out.md.
      const box = await page.locator("#readiness").evaluate((e) => {
        const top = e.getBoundingClientRect().top;
        const charts = e.querySelectorAll(".chart");
        return { top, bottom: charts[charts.length - 1]!.getBoundingClientRect().bottom };
      });
      await page.screenshot({
        path: join(ROOT, "docs", "images", "audit-readiness.png"),
        fullPage: true,
        clip: { x: 0, y: Math.floor(box.top - 8), width: 1000, height: Math.ceil(box.bottom - box.top + 16) },
      });
    }
    // (It scrolls the page: after the clips above, which are measured from the top.)
    await page.locator("#readiness").screenshot({ path: join(ARTIFACTS, "audit-readiness.png") });

    // A narrow screen: nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.locator("html").evaluate((e) => e.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(ARTIFACTS, "audit-report-narrow.png") });
    // Printed: no navigation, nothing wider than an A4 page's text.
    await page.emulateMedia({ media: "print" });
    await page.setViewportSize({ width: 680, height: 960 });
    expect(await page.locator("nav").isVisible()).toBe(false);
    expect(await page.locator("html").evaluate((e) => e.scrollWidth)).toBeLessThanOrEqual(680);
    const pdf = await page.pdf({ format: "A4" });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    writeFileSync(join(ARTIFACTS, "audit-report.pdf"), pdf);
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
    gh.assertClean();
  });

  it("shows hostile paths, member names, types and branch names as text: no markup, no script, no dialog", async () => {
    const gh = acme({
      routes: ["getRepo", "contents", "ref", "tree", "blob", "installationRepos", "orgInstallations"],
    });
    const path = `<img src=x onerror=alert(1)>"'/<script>alert(2)</script>/plugin.json`;
    const member = "<iframe src=javascript:alert(3)>";
    const branch = `"'><svg/onload=alert(4)>`;
    // A `type` as written and an extension.yaml's path land in the readiness's chart and table.
    const type = `<object data=x onerror=alert(5)>`;
    const ef2 = `<embed src=x onload=alert(6)>/extension.yaml`;
    gh.repo("acme/hostile", { defaultBranch: branch })
      .file("acme/hostile", "HEAD", path, text({ ...validHost(), [member]: 1 }))
      .file("acme/hostile", "HEAD", "typed/plugin.json", text({ ...validHost(), type }))
      .file("acme/hostile", "HEAD", ef2, "name: custom:x\n");
    const html = await run(["audit", "acme", "--repo", "hostile", "--format", "html"]);
    const { page, url, problems, requests } = await open(html.stdout, "hostile");
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    expect(await page.locator("script, img, iframe, object, embed, [onload], [onerror]").count()).toBe(0);
    const findings = await page.locator("#findings").innerText();
    expect(findings).toContain(path.replace("/plugin.json", "/plugin.json:"));
    expect(findings).toContain(member);
    expect(await page.locator("#findings").innerText()).toContain(branch);
    const readiness = await page.locator("#readiness").innerText();
    expect(readiness).toContain(`EF1 ${type} host`);
    expect(readiness).toContain(ef2);
    expect(
      await page
        .locator("#readiness svg.mark[data-type]")
        .evaluateAll((s) => s.map((x) => x.getAttribute("data-type"))),
    ).toContain(`${type} host`);
    const hrefs = await page
      .locator("a[href]")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    for (const h of hrefs) expect(h).toMatch(/^(#|https:\/\/github\.com\/)/);
    await page.close();
    gh.assertClean();
  });

  it("wraps long paths and names: nothing wider than a narrow screen or a printed page; no bidirectional override", async () => {
    const gh = acme({
      routes: ["getRepo", "contents", "ref", "tree", "blob", "installationRepos", "orgInstallations"],
    });
    // As real repositories name them: long folders of underscores, which a browser does not break.
    const path =
      "teams/observability_platform/infrastructure_monitoring/custom_python_extensions/oracle_database_performance_monitor/plugin.json";
    // A right-to-left override makes "evil/gnp.json" read as "evil/nosj.png" (and reorders what follows).
    const rlo = "\u202e";
    const hidden = `evil${rlo}gnp/plugin.json`;
    const member = `${rlo}gnirts_live_a_member_name_as_long_as_a_sentence_without_any_space_in_it`;
    gh.repo("acme/observability_platform_infrastructure_monitoring_plugins_of_the_team", {
      defaultBranch: "release_branch_for_the_observability_platform_infrastructure_monitoring_plugins",
    })
      .file(
        "acme/observability_platform_infrastructure_monitoring_plugins_of_the_team",
        "HEAD",
        path,
        text({ ...validHost(), [member]: 1 }),
      )
      .file(
        "acme/observability_platform_infrastructure_monitoring_plugins_of_the_team",
        "HEAD",
        hidden,
        text({ ...validHost(), name: "custom.python.other", [member]: 1 }),
      );
    const html = await run([
      "audit",
      "acme",
      "--repo",
      "observability_platform_infrastructure_monitoring_plugins_of_the_team",
      "--format",
      "html",
    ]);
    expect(html.status).toBe(0);
    const { page, problems } = await open(html.stdout, "long");
    expect(await page.locator("#findings").innerText()).toContain(`${path}:`);
    const shown = await page.locator("body").innerText();
    expect(shown).toContain("evilgnp/plugin.json");
    expect(shown).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(html.stdout).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/); // attributes too
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.locator("html").evaluate((e) => e.scrollWidth)).toBeLessThanOrEqual(360);
    await page.emulateMedia({ media: "print" });
    await page.setViewportSize({ width: 680, height: 960 });
    expect(await page.locator("html").evaluate((e) => e.scrollWidth)).toBeLessThanOrEqual(680);
    // Printed, every column of the findings fits on the page: the message is not cut off.
    const right = await page
      .locator("#findings td.message")
      .evaluateAll((cells) => Math.max(...cells.map((c) => c.getBoundingClientRect().right)));
    expect(right).toBeLessThanOrEqual(680);
    expect(problems).toEqual([]);
    await page.close();
    gh.assertClean();
  });
});
