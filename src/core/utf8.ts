/**
 * UTF-8 at the edge of the core: descriptors arrive as bytes (git, the GitHub API) or as text (tests, the
 * CLI's reads), and JSON must be UTF-8. Sizes are UTF-8 byte counts, as `max_file_size` means them.
 */

/** The UTF-8 length of `s` in bytes when it is over `limit`; at or under it, any count that is too (only the comparison matters). */
export function utf8Length(s: string, limit: number): number {
  // Cheap bounds first: UTF-8 takes 1 to 3 bytes per UTF-16 unit, and ASCII exactly 1.
  if (s.length * 3 <= limit || !/[\u0080-\uffff]/.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
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
