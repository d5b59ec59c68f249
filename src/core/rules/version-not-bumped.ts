import { compareVersions, jsonEqual, nextVersion, NUMERIC_VERSION } from "../compare.js";
import { finding, get, str, type Rule } from "../rule.js";

/** The server only takes a changed descriptor with a higher version; names the next version to use. */
export const rule: Rule = {
  meta: {
    id: "version-not-bumped",
    kind: "change",
    defaultSeverity: "error",
    description: "The descriptor changed and its version equals the base version.",
  },
  check(ctx) {
    if (!ctx.base) return [];
    const head = str(get(ctx.value, "version"));
    const base = str(get(ctx.base.value, "version"));
    if (head === undefined || base === undefined) return [];
    const bothValid = NUMERIC_VERSION.test(head) && NUMERIC_VERSION.test(base);
    const same = bothValid ? compareVersions(head, base) === 0 : head === base;
    if (!same || jsonEqual(ctx.value, ctx.base.value)) return [];
    if (!NUMERIC_VERSION.test(head)) {
      return [
        finding(
          this.meta,
          "/version",
          `the descriptor changed but \`version\` is still \`${head}\`; increase it`,
        ),
      ];
    }
    const next = nextVersion(head);
    return [
      finding(
        this.meta,
        "/version",
        `the descriptor changed but \`version\` is still \`${head}\`${head !== base ? ` (equal to the base's \`${base}\`)` : ""}; increase it, e.g. to \`${next}\``,
        {
          fix: { replacement: JSON.stringify(next), description: `bump the version to \`${next}\`` },
        },
      ),
    ];
  },
};
