/**
 * Hidden fingerprints in review comments (after reviewdog): a comment carries the identity of its
 * finding (rule id, path, pointer), so a redelivered webhook, a re-run or a later push never posts the
 * same comment twice, and a thread whose finding is gone can be marked as fixed.
 */
import { createHash } from "node:crypto";

/** The one pattern of a fingerprint marker; `fingerprintMarker` writes it, the readers below read it. */
const MARKERS = /<!-- plugin-review:fingerprint=([0-9a-f]{16}) -->/g;

/** Closes a "Fixed in …" reply, so that a thread is answered once. */
export const FIXED_MARKER = "<!-- plugin-review:fixed -->";

export function fingerprint(ruleId: string, path: string, pointer: string): string {
  return createHash("sha256").update(`${ruleId}\0${path}\0${pointer}`).digest("hex").slice(0, 16);
}

export function fingerprintMarker(fp: string): string {
  return `<!-- plugin-review:fingerprint=${fp} -->`;
}

/** Every fingerprint in a body (a review body lists many findings). */
export function readFingerprints(body: string | null | undefined): string[] {
  return body ? [...body.matchAll(MARKERS)].map((m) => m[1] as string) : [];
}

/** The fingerprint of a review comment (one finding per comment). */
export function readFingerprint(body: string | null | undefined): string | undefined {
  return readFingerprints(body)[0];
}

export function isFixedReply(body: string | null | undefined): boolean {
  return !!body && body.includes(FIXED_MARKER);
}
