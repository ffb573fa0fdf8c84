/** The outcome of turning file bytes into text. */
export type DecodeResult = { ok: true; text: string } | { ok: false; message: string; offset: number; text: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * Decodes UTF-8 bytes, dropping a byte order mark. UTF-16 and UTF-32 text (known by its byte
 * order mark), binary data (a NUL byte) and invalid UTF-8 are refused with the character
 * offset of the first bad byte, so the caller can position the diagnostic.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  const encoding = otherUnicodeEncoding(bytes);
  if (encoding !== undefined) {
    return { ok: false, message: `the file is ${encoding} text (it starts with that byte order mark); kurel reads UTF-8 only`, offset: 0, text: '' };
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    const text = lenient.decode(bytes.subarray(0, nul));
    return { ok: false, message: 'the file holds binary data (a NUL byte), not YAML text', offset: text.length, text };
  }
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const text = lenient.decode(bytes.subarray(0, bad));
    return { ok: false, message: `the file is not valid UTF-8 text (byte ${bad})`, offset: text.length, text };
  }
}

/** Strips a leading byte order mark from already-decoded text. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// The encoding a byte order mark other than UTF-8's names; UTF-32's are tried first, since
// UTF-32 little-endian's starts with UTF-16 little-endian's.
function otherUnicodeEncoding(bytes: Uint8Array): string | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return 'UTF-32 (little-endian)';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32 (big-endian)';
  if (a === 0xff && b === 0xfe) return 'UTF-16 (little-endian)';
  if (a === 0xfe && b === 0xff) return 'UTF-16 (big-endian)';
  return undefined;
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const width = sequenceWidth(b);
    if (width === 0 || i + width > bytes.length) return i;
    for (let k = 1; k < width; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    if (width > 1 && !utf8Ok(bytes.subarray(i, i + width))) return i;
    i += width;
  }
  return i;
}

// The length of the UTF-8 sequence a lead byte starts, or 0 for a byte that cannot lead one.
function sequenceWidth(b: number): number {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b < 0xe0) return 2;
  if (b >= 0xe0 && b < 0xf0) return 3;
  return b >= 0xf0 && b < 0xf5 ? 4 : 0;
}

function utf8Ok(chunk: Uint8Array): boolean {
  try {
    utf8.decode(chunk);
    return true;
  } catch {
    return false;
  }
}
