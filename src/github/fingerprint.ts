/**
 * Hidden fingerprints in review comments (after reviewdog): a comment carries the identity of its
 * finding (rule id, path, pointer), so a redelivered webhook, a re-run or a later push never posts the
 * same comment twice, and a thread whose finding is gone can be marked as fixed.
 */
import { createHash } from "node:crypto";

const MARKER = /<!-- plugin-review:fingerprint=([0-9a-f]{16}) -->/;
const FIXED = "<!-- plugin-review:fixed -->";

export function fingerprint(ruleId: string, path: string, pointer: string): string {
  return createHash("sha256").update(`${ruleId}\0${path}\0${pointer}`).digest("hex").slice(0, 16);
}

export function fingerprintMarker(fp: string): string {
  return `<!-- plugin-review:fingerprint=${fp} -->`;
}

export function readFingerprint(body: string | null | undefined): string | undefined {
  return body ? MARKER.exec(body)?.[1] : undefined;
}

export const FIXED_MARKER = FIXED;

export function isFixedReply(body: string | null | undefined): boolean {
  return !!body && body.includes(FIXED);
}
