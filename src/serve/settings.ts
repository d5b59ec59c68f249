/**
 * The server's settings beyond Probot's own (docs/deploy.md lists them all), read once from the
 * environment. A value that is not one is refused with the variable's name, never guessed.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { recoveryWindowMs } from "../github/delivery/recovery.js";
import { enterpriseApiUrl } from "../github/api/enterprise.js";
import {
  DELIVERY_LOG_RETENTION_MS,
  HOUR_MS,
  MINUTE_MS,
  RECOVERY_INTERVAL_MAX_MINUTES,
  RECOVERY_INTERVAL_MINUTES,
} from "../github/time-budget.js";

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
  /** What deliveries are signed with; undefined only without APP_ID (Probot's setup page, no App). */
  webhookSecret: string | undefined;
  /** Where Probot takes deliveries (WEBHOOK_PATH). */
  webhookPath: string;
  /** Bytes of webhook bodies held at once before their signature is verified, across all requests. */
  unverifiedBytes: number;
  /** Proxies in front of the server trusted to append the sender's address to X-Forwarded-For. */
  proxyHops: number;
}

/** A setting the server cannot start with: said with the variable's name, without a stack trace. */
export class SettingsError extends Error {}

export const RECOVERY_INTERVAL_ENV = "PLUGIN_REVIEW_RECOVERY_INTERVAL_MINUTES";
export const STATE_DIR_ENV = "PLUGIN_REVIEW_STATE_DIR";
export const METRICS_TOKEN_ENV = "METRICS_TOKEN";
export const UNVERIFIED_MB_ENV = "PLUGIN_REVIEW_UNVERIFIED_MB";
export const PROXY_HOPS_ENV = "PLUGIN_REVIEW_PROXY_HOPS";

/** The store's directory when none is set: beside the working directory, as `npm start` runs. */
export const DEFAULT_STATE_DIR = ".plugin-review-state";
/** Probot's (and @octokit/webhooks') webhook path when WEBHOOK_PATH is not set. */
export const DEFAULT_WEBHOOK_PATH = "/api/github/webhooks";
/** GitHub never sends a webhook body larger than this (it caps payloads at 25 MB). */
export const MAX_WEBHOOK_MB = 25;
/**
 * Unverified bodies held at once by default: two of GitHub's largest deliveries, or thousands of usual ones
 * (a few kilobytes to a few hundred), for the milliseconds each takes to arrive.
 */
export const DEFAULT_UNVERIFIED_MB = 64;

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number, min = 0): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new SettingsError(`${name} must be a number from ${min} to ${max}, not '${env[name]}'`);
  return n;
}

/**
 * Applies the working directory's `.env` to `env` as Probot's `run()` does (its values win), so that the
 * settings read here, and the checks made of Probot's own, see what Probot will: a METRICS_TOKEN or
 * WEBHOOK_SECRET written there counts as one in the environment.
 */
export function applyDotEnv(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): void {
  let text: string;
  try {
    text = readFileSync(join(cwd, ".env"), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  Object.assign(env, parseEnv(text));
}

export function serverSettings(env: NodeJS.ProcessEnv, cwd = process.cwd()): ServerSettings {
  // Probot checks deliveries against the secret `development` when none is set: anyone could sign one.
  if (env.APP_ID?.trim() && !env.WEBHOOK_SECRET)
    throw new SettingsError(
      "WEBHOOK_SECRET is not set, while APP_ID is: Probot would accept deliveries signed with its default " +
        "secret 'development', which anyone can forge. Set WEBHOOK_SECRET to the webhook secret in the App's " +
        "settings on GitHub (the setup page writes it to .env), or unset APP_ID to register an App.",
    );
  const interval = number(
    env,
    RECOVERY_INTERVAL_ENV,
    RECOVERY_INTERVAL_MINUTES,
    RECOVERY_INTERVAL_MAX_MINUTES,
  );
  // Whole hops only: an address read from the wrong place of X-Forwarded-For would be the sender's to choose.
  const proxyHops = number(env, PROXY_HOPS_ENV, 0, 10);
  if (!Number.isInteger(proxyHops))
    throw new SettingsError(
      `${PROXY_HOPS_ENV} must be a whole number from 0 to 10, not '${env[PROXY_HOPS_ENV]}'`,
    );
  // Probot builds its API URL from these itself: refused here rather than failing every request.
  try {
    enterpriseApiUrl(env);
  } catch (e) {
    throw new SettingsError((e as Error).message);
  }
  const dir = env[STATE_DIR_ENV]?.trim();
  const off = dir !== undefined && ["off", "none", "false"].includes(dir.toLowerCase());
  return {
    recovery: interval > 0,
    recoveryIntervalMs: interval * MINUTE_MS,
    // The log's whole retention: a server's first sweep cannot know how long it was down.
    recoveryWindowMs: recoveryWindowMs(env, DELIVERY_LOG_RETENTION_MS / HOUR_MS),
    stateDir: off ? undefined : resolve(cwd, dir || DEFAULT_STATE_DIR),
    metricsToken: env[METRICS_TOKEN_ENV] || undefined,
    webhookSecret: env.WEBHOOK_SECRET || undefined,
    webhookPath: env.WEBHOOK_PATH || DEFAULT_WEBHOOK_PATH,
    // At least one of GitHub's largest deliveries must fit, or it would be refused at every try.
    unverifiedBytes:
      number(env, UNVERIFIED_MB_ENV, DEFAULT_UNVERIFIED_MB, 64 * 1024, MAX_WEBHOOK_MB) * 1024 * 1024,
    proxyHops,
  };
}
