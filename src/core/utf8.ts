/**
 * UTF-8 at the edge of the core: descriptors arrive as bytes (git, the GitHub API) or as text (tests, the
 * CLI's reads), and JSON must be UTF-8. Sizes are UTF-8 byte counts, as `max_file_size` means them.
 */

/** The UTF-8 length of `s` in bytes when it is over `limit`; at or under it, any count that is too (only the comparison matters). */
export function utf8Length(s: string, limit: number): number {
  // Cheap bounds first: UTF-8 takes 1 to 3 bytes per UTF-16 unit. Then Node's own count, which reads a
  // 2 MB text some ten times faster than a regular expression looking for its first non-ASCII character.
  if (s.length * 3 <= limit) return s.length;
  return Buffer.byteLength(s, "utf8");
}

const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** Decodes UTF-8; on invalid bytes returns the text up to them and where they start (as a text offset). */
export function decodeUtf8(bytes: Uint8Array): { text: string; badOffset?: number } {
  try {
    return { text: fatalDecoder.decode(bytes) };
  } catch {
    // Find the first invalid byte by decoding ever longer prefixes would be quadratic; validate by hand.
    let i = 0;
    while (i < bytes.length) {
      const b = bytes[i] as number;
      const need =
        b < 0x80
          ? 0
          : b >= 0xc2 && b <= 0xdf
            ? 1
            : b >= 0xe0 && b <= 0xef
              ? 2
              : b >= 0xf0 && b <= 0xf4
                ? 3
                : -1;
      if (need < 0) break;
      let ok = i + need < bytes.length;
      for (let k = 1; ok && k <= need; k++) ok = ((bytes[i + k] as number) & 0xc0) === 0x80;
      if (ok && need > 0) {
        try {
          fatalDecoder.decode(bytes.subarray(i, i + need + 1));
        } catch {
          ok = false; // overlong or surrogate encodings
        }
      }
      if (!ok) break;
      i += need + 1;
    }
    const prefix = lenientDecoder.decode(bytes.subarray(0, i));
    return { text: lenientDecoder.decode(bytes), badOffset: prefix.length };
  }
}
