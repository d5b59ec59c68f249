/** The webhook events the App acts on (app.ts subscribes to them; the Lambda receiver drops the rest). */
export const PULL_REQUEST_ACTIONS = ["opened", "synchronize", "reopened", "ready_for_review"] as const;

export const HANDLED: Readonly<Record<string, readonly string[]>> = {
  pull_request: PULL_REQUEST_ACTIONS,
  check_run: ["rerequested"],
  check_suite: ["requested", "rerequested"],
};

export function isHandled(name: string, action: unknown): boolean {
  return typeof action === "string" && (HANDLED[name] ?? []).includes(action);
}
