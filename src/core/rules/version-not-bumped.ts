import { compareVersions, jsonEqual, nextVersion, NUMERIC_VERSION } from "../compare.js";
import { packaged } from "../ef2/package.js";
import { hasPlaceholder } from "../ef2/placeholders.js";
import { get, str } from "../guards.js";
import { defineRule, type RuleContext } from "../rule.js";
import { quote } from "../quote.js";

/** The server only takes a changed descriptor with a higher version; names the next version to use. */
export const rule = defineRule({
  meta: {
    id: "version-not-bumped",
    kind: "change",
    defaultSeverity: "error",
    fixable: "code",
    files: ["plugin.json", "extension.yaml"],
    description: "The descriptor (or extension) changed and its version equals the base version.",
    messages: {
      extension:
        "the extension changed but `version` is still `{{head}}`{{equalTo}}: Dynatrace refuses an upload whose version is not higher than the installed one; increase it, e.g. to `{{next}}`",
      extensionFile:
        "`{{file}}`, which the extension packages, changed but `version` is still `{{head}}`{{equalTo}}: Dynatrace refuses an upload whose version is not higher than the installed one; increase it, e.g. to `{{next}}`",
      notBumped: "the descriptor changed but `version` is still `{{head}}`; increase it",
      notBumpedNext:
        "the descriptor changed but `version` is still `{{head}}`{{equalTo}}; increase it, e.g. to `{{next}}`",
    },
  },
  check(context) {
    if (!context.base) return;
    if (context.format === "extension.yaml") {
      checkExtension(context);
      return;
    }
    const head = str(get(context.value, "version"));
    const base = str(get(context.base.value, "version"));
    if (head === undefined || base === undefined) return;
    const bothValid = NUMERIC_VERSION.test(head) && NUMERIC_VERSION.test(base);
    const same = bothValid ? compareVersions(head, base) === 0 : head === base;
    if (!same || jsonEqual(context.value, context.base.value)) return;
    if (!NUMERIC_VERSION.test(head)) {
      context.report({ pointer: "/version", messageId: "notBumped", data: { head } });
      return;
    }
    const next = nextVersion(head);
    context.report({
      pointer: "/version",
      messageId: "notBumpedNext",
      data: { head, next, equalTo: head !== base ? ` (equal to the base's ${quote(base)})` : "" },
      fix: { replacement: JSON.stringify(next), description: `bump the version to ${quote(next)}` },
    });
  },
});

/**
 * An extension is what Dynatrace packages: extension.yaml and the files it references (docs/extensions.md);
 * a change to any of them needs a higher version. Versions compare as semantic versions; a build placeholder
 * (`<%=version%>`) and a version that is no version (ef2-version-format says so) are not compared. The fix
 * bumps the patch.
 */
function checkExtension(context: RuleContext<"extension" | "extensionFile">): void {
  const base = context.base!;
  const head = get(context.value, "version");
  const was = get(base.value, "version");
  if (typeof head !== "string" || typeof was !== "string" || hasPlaceholder(head) || hasPlaceholder(was))
    return;
  if (!NUMERIC_VERSION.test(head) || !NUMERIC_VERSION.test(was) || compareVersions(head, was) !== 0) return;
  const pkg = context.package;
  const file = jsonEqual(context.value, base.value)
    ? pkg?.changed.find(packaged(pkg, context.value, context.extension.module?.name))
    : undefined;
  if (jsonEqual(context.value, base.value) && file === undefined) return;
  const next = nextSemanticVersion(head);
  const data = { head, next, equalTo: head !== was ? ` (equal to the base's ${quote(was)})` : "" };
  context.report({
    pointer: "/version",
    ...(file === undefined
      ? { messageId: "extension", data }
      : { messageId: "extensionFile", data: { ...data, file } }),
    fix: { replacement: JSON.stringify(next), description: `bump the version to ${quote(next)}` },
  });
}

/**
 * The next `major.minor.patch` after a version of dot-separated digits: its first three numbers (missing ones 0,
 * without leading zeros) with the patch raised. Dynatrace takes no other form, so a head of `1.4` or `01.4.0.0`
 * equal to the base's `1.4.0` is fixed to `1.4.1`, not to `1.5` or `01.4.0.1`, which ef2-version-format refuses.
 */
function nextSemanticVersion(version: string): string {
  const [major = "0", minor = "0", patch = "0"] = version.split(".").map((s) => s.replace(/^0+(?=\d)/, ""));
  return nextVersion(`${major}.${minor}.${patch}`);
}
