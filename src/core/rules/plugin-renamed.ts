import { finding, get, str, type Rule } from "../rule.js";

/** To the server a new name is a new plugin: the old one's data and settings do not carry over. */
export const rule: Rule = {
  meta: {
    id: "plugin-renamed",
    kind: "change",
    defaultSeverity: "warning",
    description: "name changed: to the server this is a new plugin.",
  },
  check(ctx) {
    if (!ctx.base) return [];
    const before = str(get(ctx.base.value, "name"));
    const after = str(get(ctx.value, "name"));
    if (before === undefined || after === undefined || before === after) return [];
    return [
      finding(
        this.meta,
        "/name",
        `the plugin was renamed from \`${before}\` to \`${after}\`: the server treats it as a new plugin, and the old one's data and configuration do not carry over`,
      ),
    ];
  },
};
