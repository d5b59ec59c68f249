/**
 * Build placeholders in an extension.yaml: some published extensions are templates that their build fills in
 * (`version: <%=version%>`, `name: com.dynatrace.extension.<%=extensionName%>`), the EJS and lodash `<% %>`
 * tags. A value holding one is what the build replaces, not what Dynatrace reads: the review says so
 * (`build-placeholder`) and judges neither its format nor its changes. Pure.
 */

const PLACEHOLDER = /<%[\s\S]*?%>/;

/** `v` is a string that holds a build placeholder. */
export function hasPlaceholder(v: unknown): v is string {
  return typeof v === "string" && v.includes("<%") && PLACEHOLDER.test(v);
}

/** A string of the document that holds a build placeholder, and where. */
export interface Placeholder {
  pointer: string;
  value: string;
}

/** Every string value of `doc` holding a placeholder, in document order (iterative: depth costs no stack). */
export function placeholdersIn(doc: unknown): Placeholder[] {
  const out: Placeholder[] = [];
  const stack: [unknown, string][] = [[doc, ""]];
  while (stack.length) {
    const [v, pointer] = stack.pop()!;
    if (typeof v === "string") {
      if (hasPlaceholder(v)) out.push({ pointer, value: v });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${pointer}/${i}`]);
    } else if (typeof v === "object" && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i]!;
        stack.push([x, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`]);
      }
    }
  }
  return out;
}
