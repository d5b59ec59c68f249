/** Where a rule's documentation lives, for links in SARIF, check runs and review comments. */
export const DOCS_BASE = "https://github.com/plugin-review/plugin-review/blob/main/docs/rules/";

export function ruleDocsUrl(ruleId: string): string {
  return `${DOCS_BASE}${ruleId}.md`;
}
