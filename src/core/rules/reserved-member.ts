import { finding, has, obj, type Rule } from "../rule.js";

const RESERVED = ["experimentalMinVersion", "productiveMinVersion"];

/** Members reserved for built-in plugin releases. */
export const rule: Rule = {
  meta: {
    id: "reserved-member",
    kind: "document",
    defaultSeverity: "error",
    description: "experimentalMinVersion or productiveMinVersion is present (reserved for built-in plugins).",
  },
  check(ctx) {
    const doc = obj(ctx.value);
    return RESERVED.filter((k) => has(doc, k)).map((k) =>
      finding(
        this.meta,
        `/${k}`,
        `\`${k}\` is reserved for built-in plugins; remove it from custom plugins`,
        {
          target: "key",
        },
      ),
    );
  },
};
