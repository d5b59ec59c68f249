import { DATA_SOURCES } from "../ef2/extension.js";
import { obj } from "../guards.js";
import { escapeSegment } from "../json/pointer.js";
import { defineRule } from "../rule.js";

const SOURCES: ReadonlySet<string> = new Set(DATA_SOURCES);

/**
 * An extension has one data source (extensions-2.md §1 and §7): one that declares two (`python:` and `jmx:`, say)
 * is not an extension Dynatrace runs. Each source after the first, in the order of the file, at its key.
 */
export const rule = defineRule({
  meta: {
    id: "multiple-data-sources",
    kind: "document",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    // The first source only says where to look: the finding is about this source, whatever precedes it.
    positionalData: ["first"],
    nameData: ["source"],
    description:
      "The extension declares more than one data source (`python` and `jmx`, …): an extension has one.",
    messages: {
      second:
        "data source `{{source}}` beside `{{first}}`: an extension has exactly one data source; make one extension per data source",
    },
  },
  check(context) {
    const doc = obj(context.value);
    if (!doc) return;
    // In the order of the file (a mapping's keys keep it), not the schema's.
    const present = Object.keys(doc).filter((k) => SOURCES.has(k));
    const first = present[0];
    for (const source of present.slice(1))
      context.report({
        pointer: `/${escapeSegment(source)}`,
        messageId: "second",
        data: { source, first: first as string },
        target: "key",
      });
  },
});
