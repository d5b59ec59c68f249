import { ef2Version } from "../ef2/names.js";
import { hasPlaceholder } from "../ef2/placeholders.js";
import { get, has, obj } from "../guards.js";
import { defineRule } from "../rule.js";
import { quote } from "../quote.js";

/** Three numbers without leading zeros: what EF2 takes as an extension's version. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/**
 * Dynatrace refuses an extension whose `version` is not `major.minor.patch`, and YAML reads an unquoted `1.10`
 * as the number 1.1. The suggestion is the version written as `migrate` writes an EF1 one (ef2/names.ts).
 */
export const rule = defineRule({
  meta: {
    id: "ef2-version-format",
    kind: "document",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    hasSuggestions: true,
    description: "The extension's `version` is missing or not `major.minor.patch` (semantic version).",
    messages: {
      missing: "the extension has no `version`; EF2 needs one, `major.minor.patch`, raised on every upload",
      notSemver:
        "`version` is `{{value}}`, not `major.minor.patch` (three numbers without leading zeros); Dynatrace refuses the upload",
      notString:
        "`version` is `{{value}}`, which YAML reads as {{read}}, not the text `major.minor.patch`; Dynatrace refuses the upload",
      empty:
        "`version` is empty, which YAML reads as nothing (null), not the text `major.minor.patch`; Dynatrace refuses the upload",
    },
  },
  check(context) {
    const doc = obj(context.value);
    if (!doc) return;
    if (!has(doc, "version")) {
      context.report({ pointer: "", messageId: "missing", target: "key" });
      return;
    }
    const version = get(doc, "version");
    // A build template's placeholder is the build's to fill (build-placeholder says so).
    if (typeof version === "string" && (SEMVER.test(version) || hasPlaceholder(version))) return;
    // As written: YAML keeps `1.10` as the number 1.1. A list or a mapping is not quoted.
    const written = context.source("/version") ?? "";
    const numbers = typeof version === "string" ? version : typeof version === "number" ? written : "";
    // Only a version that starts with its numbers has a better writing (ef2Version makes up `1.0.0` for others).
    const better = /^\s*v?\d/.test(numbers) ? ef2Version(numbers).version : undefined;
    const suggest =
      better !== undefined && better !== version && SEMVER.test(better)
        ? [{ replacement: JSON.stringify(better), description: `write ${quote(better)}` }]
        : [];
    if (typeof version === "string") {
      context.report({ pointer: "/version", messageId: "notSemver", data: { value: version }, suggest });
      return;
    }
    // Nothing written (`version:`): an empty code span would say nothing, and Markdown shows it as two backticks.
    if (version === null && !written.trim()) {
      context.report({ pointer: "/version", messageId: "empty", suggest });
      return;
    }
    const read =
      version === null
        ? "nothing (null)"
        : Array.isArray(version)
          ? "a list"
          : typeof version === "object"
            ? "a mapping"
            : `the ${typeof version} ${String(version)}`;
    context.report({
      pointer: "/version",
      messageId: "notString",
      data: {
        value: /^[^\n]{0,40}$/.test(written) ? written : `${written.slice(0, 40).split("\n")[0]}…`,
        read,
      },
      suggest,
    });
  },
});
