/**
 * Hidden markers in review comments (after reviewdog): a comment carries its finding's fingerprint (the
 * finding's identity, computed in src/core/identity.ts), so that a redelivered webhook, a re-run or a later
 * push never posts the same comment twice, and a thread whose finding is gone can be marked as fixed.
 *
 * Comments written before findings had an identity carry `plugin-review:fingerprint=…` (rule, path and raw
 * pointer), and those of the 64-bit fingerprints before SHA-256 an `id=` of 16 hex digits: this pattern
 * (32 hex digits) reads neither, so the App neither answers nor resolves them and does not count them as
 * already said.
 */

/** The one pattern of a marker; `fingerprintMarker` writes it, the readers below read it. */
const MARKERS = /<!-- plugin-review:id=([0-9a-f]{32}) -->/g;

/** Closes a "Fixed in …" reply, so that a thread is answered once. */
export const FIXED_MARKER = "<!-- plugin-review:fixed -->";

export function fingerprintMarker(fp: string): string {
  return `<!-- plugin-review:id=${fp} -->`;
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
