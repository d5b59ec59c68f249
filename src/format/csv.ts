/**
 * CSV for spreadsheets (RFC 4180), whatever the cells hold: `audit --format csv` and `migrate`'s
 * metric-keys.csv. A cell that a spreadsheet would run as a formula (one starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return) is prefixed with `'`, as OWASP advises, so that opening the file never evaluates
 * what a descriptor wrote.
 */

/** A cell from a repository, safe to open in a spreadsheet: never read as a formula. */
export function textCell(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** RFC 4180 quoting: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
export function field(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
