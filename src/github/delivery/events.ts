/** The webhook events the App acts on (app.ts subscribes to them; the Lambda receiver drops the rest). */
export const PULL_REQUEST_ACTIONS = ["opened", "synchronize", "reopened", "ready_for_review"] as const;

export const HANDLED: Readonly<Record<string, readonly string[]>> = {
  // `edited` only when the base branch changed (see `isHandled`).
  pull_request: [...PULL_REQUEST_ACTIONS, "edited"],
  check_run: ["rerequested"],
  check_suite: ["requested", "rerequested"],
  merge_group: ["checks_requested"],
};

/** A pull request edit that retargeted it to another base branch (a title or body edit changes nothing we review). */
export function isBaseChange(payload: { changes?: unknown }): boolean {
  const changes = payload.changes as { base?: unknown } | undefined;
  return typeof changes === "object" && changes !== null && changes.base !== undefined;
}

export function isHandled(name: string, payload: { action?: unknown; changes?: unknown }): boolean {
  const { action } = payload;
  if (typeof action !== "string" || !(HANDLED[name] ?? []).includes(action)) return false;
  return !(name === "pull_request" && action === "edited") || isBaseChange(payload);
}
