/**
 * What crosses between the App and its analysis threads (analysis-threads.ts, analysis-thread.ts): the core's
 * inputs and findings are data, copied as they are, and the configuration too, but for its compiled
 * `policy.name_pattern` and `policy.extension_name_pattern` (functions), which cross as their sources and are
 * compiled again in the thread.
 */
import type { DescriptorInput, FileFindings } from "../../core/analyse.js";
import type { ResolvedConfig } from "../../core/config.js";
import { compileNamePattern } from "../../core/policy.js";

/** A configuration as it crosses: the name patterns' sources for the compiled patterns. */
export type ThreadConfig = Omit<ResolvedConfig, "policy"> & {
  policy: Omit<ResolvedConfig["policy"], "namePattern" | "extensionNamePattern"> & {
    namePattern?: string;
    extensionNamePattern?: string;
  };
};

/** The App to a thread. A run's configuration comes with its first message. */
export type ToThread =
  | { kind: "add"; run: number; config?: ThreadConfig; input: DescriptorInput }
  | { kind: "finish"; run: number; config?: ThreadConfig }
  | { kind: "close"; run: number };

/** A thread's answer to `add` or `finish` (`close` has none). */
export type FromThread = { ok: true; findings?: FileFindings[] } | { ok: false; error: string };

export function toThread(config: ResolvedConfig): ThreadConfig {
  const { namePattern, extensionNamePattern, ...rest } = config.policy;
  const policy: ThreadConfig["policy"] = rest;
  if (namePattern) policy.namePattern = namePattern.source;
  if (extensionNamePattern) policy.extensionNamePattern = extensionNamePattern.source;
  return { ...config, policy };
}

export function fromThread(config: ThreadConfig): ResolvedConfig {
  const { namePattern, extensionNamePattern, ...rest } = config.policy;
  const policy: ResolvedConfig["policy"] = rest;
  if (namePattern !== undefined) policy.namePattern = compileNamePattern(namePattern);
  if (extensionNamePattern !== undefined)
    policy.extensionNamePattern = compileNamePattern(extensionNamePattern);
  return { ...config, policy };
}
