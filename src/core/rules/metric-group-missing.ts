import { finding, get, str, type Rule } from "../rule.js";

/**
 * No metricGroup. For a new plugin it is an error (set it now, it can never change later); for an
 * existing plugin the server already uses the plugin name, so the message says to pin exactly that.
 */
export const rule: Rule = {
  meta: {
    id: "metric-group-missing",
    kind: "document",
    defaultSeverity: "warning",
    description:
      "No metricGroup: required for new plugins; for existing ones it defaults to the name forever.",
  },
  check(ctx) {
    if (get(ctx.value, "metricGroup") !== undefined) return [];
    const name = str(get(ctx.value, "name"));
    const fallback = name ? `the plugin name \`${name}\`` : "the plugin name";
    if (ctx.isNew) {
      return [
        finding(
          this.meta,
          "/metricGroup",
          `new plugins must set \`metricGroup\`: it becomes the leading part of every metric key and can never be changed once the plugin runs`,
          { severity: "error", target: "key" },
        ),
      ];
    }
    return [
      finding(
        this.meta,
        "/metricGroup",
        `no \`metricGroup\`: it defaults to ${fallback} and can never be changed afterwards (set \`"metricGroup": ${JSON.stringify(name ?? "…")}\` to make that explicit)`,
        { target: "key" },
      ),
    ];
  },
};
