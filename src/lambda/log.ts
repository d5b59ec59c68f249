/** One JSON object per line, as CloudWatch Logs Insights reads it; the delivery id is on every line. */
export type Fields = Record<string, unknown>;

export function logLine(level: "info" | "warn" | "error", msg: string, fields: Fields = {}): void {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}
