import { finding, metricEntries, str, type Rule } from "../rule.js";

/** The display name is what people read; repeating the key gives them nothing. */
export const rule: Rule = {
  meta: {
    id: "displayname-equals-key",
    kind: "document",
    defaultSeverity: "error",
    description: "A timeseries displayname equals its key.",
  },
  check(ctx) {
    return metricEntries(ctx.value)
      .filter((m) => m.kind === "timeseries" && m.key !== undefined && str(m.spec.displayname) === m.key)
      .map((m) =>
        finding(
          this.meta,
          `${m.pointer}/displayname`,
          `\`displayname\` must differ from the key \`${m.key}\`: give the metric a human-readable name`,
        ),
      );
  },
};
