import { finding, type Rule } from "../rule.js";

/**
 * Not in the spec's catalog: the file exceeds the configured size limit (`max_file_size`, default 5 MB)
 * and was not parsed. Reported instead of reading an unbounded file into memory.
 */
export const rule: Rule = {
  meta: {
    id: "file-too-large",
    kind: "parse",
    defaultSeverity: "error",
    description: "The file is larger than the configured max_file_size and was not reviewed.",
  },
  check(ctx) {
    const o = ctx.oversize;
    if (!o) return [];
    return [
      finding(
        this.meta,
        "",
        `the file is ${o.size.toLocaleString("en-US")} bytes, over the limit of ${o.limit.toLocaleString("en-US")} bytes (\`max_file_size\`); it was not reviewed`,
        { target: "key" },
      ),
    ];
  },
};
