/**
 * What crosses between the App and its analysis threads (analysis-threads.ts, analysis-thread.ts): the core's
 * inputs and findings are data, copied as they are, and the configuration too, but for its compiled
 * `policy.name_pattern` (a function), which crosses as its source and is compiled again in the thread.
 */
import type { DescriptorInput, FileFindings } from "../../core/analyse.js";
import type { ResolvedConfig } from "../../core/config.js";
import { compileNamePattern } from "../../core/policy.js";

/** A configuration as it crosses: the name pattern's source for the compiled pattern. */
export type ThreadConfig = Omit<ResolvedConfig, "policy"> & {
  policy: Omit<ResolvedConfig["policy"], "namePattern"> & { namePattern?: string };
};

/** The App to a thread. A run's configuration comes with its first message. */
export type ToThread =
  | { kind: "add"; run: number; config?: ThreadConfig; input: DescriptorInput }
  | { kind: "finish"; run: number; config?: ThreadConfig }
  | { kind: "close"; run: number };

/** A thread's answer to `add` or `finish` (`close` has none). */
export type FromThread = { ok: true; findings?: FileFindings[] } | { ok: false; error: string };

export function toThread(config: ResolvedConfig): ThreadConfig {
  const { namePattern, ...policy } = config.policy;
  return { ...config, policy: namePattern ? { ...policy, namePattern: namePattern.source } : policy };
}

export function fromThread(config: ThreadConfig): ResolvedConfig {
  const { namePattern, ...policy } = config.policy;
  return {
    ...config,
    policy: namePattern === undefined ? policy : { ...policy, namePattern: compileNamePattern(namePattern) },
  };
}
