import { dashboardProblem, MAX_ALERT_READS, MAX_DASHBOARD_READS, readAlert } from "../ef2/package.js";
import { defineRule, type RuleContext } from "../rule.js";

/** A path that names no file inside the extension's folder: absolute, a drive or scheme, or climbing out. */
function outside(path: string): boolean {
  return /^[/\\]|^[A-Za-z][A-Za-z0-9+.-]*:/.test(path) || path.split(/[/\\]/).includes("..");
}

/** Every folder that holds a listed file, without its final `/`. */
function foldersOf(paths: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const path of paths)
    for (let cut = path.indexOf("/"); cut > 0; cut = path.indexOf("/", cut + 1)) out.add(path.slice(0, cut));
  return out;
}

/** Whether `file` is under a symbolic link (listed by its name and `/`): what a link points to is not listed. */
function underLink(paths: ReadonlySet<string>, file: string): boolean {
  for (let cut = file.indexOf("/"); cut > 0; cut = file.indexOf("/", cut + 1))
    if (paths.has(file.slice(0, cut + 1))) return true;
  return false;
}

/**
 * Dynatrace packages an extension as extension.yaml and the files it lists by `path` (`alerts`, `dashboards`,
 * `documents.dashboards`), relative to it at the root of extension.zip, and refuses a package that lacks one
 * (extensions-2.md §7, "referenced files exist"). Judged only when the caller lists the extension's files
 * (`DescriptorInput.files`), and when the extension holds one of the files it lists or a folder they are listed
 * in: a lone extension.yaml (copied out of its project, or whose assets a build writes) says nothing. A path that leaves the extension's folder or is
 * absolute is not judged here: it names no file of the package.
 */
export const rule = defineRule({
  meta: {
    id: "asset-missing",
    kind: "document",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    nameData: ["path"],
    // Where the JSON breaks moves as the file is edited: the message id says what is wrong.
    positionalData: ["problem"],
    description:
      "`alerts`, `dashboards` or `documents.dashboards` lists a file the extension does not hold, or an alert or dashboard file that is not JSON.",
    messages: {
      missing:
        "`{{path}}` is listed, but the extension has no `{{file}}`: Dynatrace refuses a package that lacks a file extension.yaml lists",
      unreadable: "alert `{{path}}` {{problem}}: Dynatrace cannot import the metric event it should hold",
      unchecked: "alert `{{path}}` {{problem}}, so the metric event it holds was not checked",
      dashboardUnreadable:
        "dashboard `{{path}}` {{problem}}: Dynatrace cannot import the dashboard it should hold",
      dashboardUnchecked: "dashboard `{{path}}` {{problem}}, so it was not checked to be JSON",
    },
  },
  check(context) {
    const pkg = context.package;
    if (!pkg) return;
    checkFiles(context);
    const paths = pkg.paths;
    if (!paths) return;
    const folders = foldersOf(paths);
    const missing: { asset: (typeof context.extension.assets)[number]; file: string }[] = [];
    let held = false;
    for (const asset of context.extension.assets) {
      if (asset.path.trim() === "" || outside(asset.path)) continue;
      const file = pkg.resolve(asset.path);
      if (file === undefined || file === pkg.folder.replace(/\/$/, "")) continue;
      // A symbolic link is listed by its name and `/`; a folder by its files (not a file, but not missing).
      if (paths.has(file) || paths.has(`${file}/`) || folders.has(file) || underLink(paths, file))
        held = true;
      else missing.push({ asset, file });
    }
    // A lone extension.yaml (copied out of its project, or one whose assets a build writes) holds none of what
    // it lists: judged only when the extension holds one of its listed files or a folder they are listed in.
    const judged = held || missing.some(({ file }) => folders.has(file.slice(0, file.lastIndexOf("/"))));
    if (!judged) return;
    for (const { asset, file } of missing)
      context.report({ pointer: asset.pointer, messageId: "missing", data: { path: asset.path, file } });
  },
});

/**
 * The alert files `alerts` lists that the caller read (the first MAX_ALERT_READS entries: ef2/package.ts
 * alertPaths) must hold a metric event's JSON (extensions-2.md §6, §7 "referenced files exist and parse"), and
 * the dashboard files `dashboards` and `documents.dashboards` list (the first MAX_DASHBOARD_READS of each:
 * dashboardPaths) a JSON object, a dashboard's JSON (only that: its members are not judged). One larger than the
 * review reads is said to be unchecked (a warning), never passed in silence. Once per file, at its first entry.
 */
function checkFiles(
  context: RuleContext<"unreadable" | "unchecked" | "dashboardUnreadable" | "dashboardUnchecked">,
): void {
  const pkg = context.package!;
  const said = new Set<string>();
  for (const asset of context.extension.assets) {
    const [, list, index] = /^\/(alerts|dashboards|documents\/dashboards)\/(\d+)\//.exec(asset.pointer) ?? [];
    const alert = list === "alerts";
    const file = pkg.resolve(asset.path);
    if (index === undefined || file === undefined || said.has(file)) continue;
    if (Number(index) >= (alert ? MAX_ALERT_READS : MAX_DASHBOARD_READS)) continue;
    said.add(file);
    const read = alert ? readAlert(pkg, asset.path) : dashboardProblem(pkg, asset.path);
    if (!read || !("problem" in read)) continue;
    const data = { path: asset.path, problem: read.problem };
    if (read.tooLarge)
      context.report({
        pointer: asset.pointer,
        messageId: alert ? "unchecked" : "dashboardUnchecked",
        data,
        severity: "warning",
      });
    else
      context.report({
        pointer: asset.pointer,
        messageId: alert ? "unreadable" : "dashboardUnreadable",
        data,
      });
  }
}
