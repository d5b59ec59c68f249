/**
 * The server's settings beyond Probot's own (docs/deploy.md lists them all), read once from the
 * environment. A value that is not one is refused with the variable's name, never guessed.
 */
import { resolve } from "node:path";
import { DELIVERY_LOG_RETENTION_MS, recoveryWindowMs } from "../github/delivery/recovery.js";

export interface ServerSettings {
  /** Between recovery sweeps (the first runs at start). */
  recoveryIntervalMs: number;
  /** Whether the recovery runs at all (PLUGIN_REVIEW_RECOVERY_INTERVAL_MINUTES=0 turns it off). */
  recovery: boolean;
  /** How far back the first sweep reads GitHub's delivery log when the store says nothing. */
  recoveryWindowMs: number;
  /** The store's directory; undefined: no store (GitHub's delivery log alone). */
  stateDir: string | undefined;
  /** `GET /metrics` requires `Authorization: Bearer <token>` when set. */
  metricsToken: string | undefined;
}

export const RECOVERY_INTERVAL_ENV = "PLUGIN_REVIEW_RECOVERY_INTERVAL_MINUTES";
export const STATE_DIR_ENV = "PLUGIN_REVIEW_STATE_DIR";
export const METRICS_TOKEN_ENV = "METRICS_TOKEN";

/** The store's directory when none is set: beside the working directory, as `npm start` runs. */
export const DEFAULT_STATE_DIR = ".plugin-review-state";

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > max)
    throw new Error(`${name} must be a number from 0 to ${max}, not '${env[name]}'`);
  return n;
}

export function serverSettings(env: NodeJS.ProcessEnv, cwd = process.cwd()): ServerSettings {
  const interval = number(env, RECOVERY_INTERVAL_ENV, 5, 24 * 60);
  const dir = env[STATE_DIR_ENV]?.trim();
  const off = dir !== undefined && ["off", "none", "false"].includes(dir.toLowerCase());
  return {
    recovery: interval > 0,
    recoveryIntervalMs: interval * 60_000,
    // The log's whole retention: a server's first sweep cannot know how long it was down.
    recoveryWindowMs: recoveryWindowMs(env, DELIVERY_LOG_RETENTION_MS / 3600_000),
    stateDir: off ? undefined : resolve(cwd, dir || DEFAULT_STATE_DIR),
    metricsToken: env[METRICS_TOKEN_ENV] || undefined,
  };
}
