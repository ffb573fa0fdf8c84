// What the fast reader and the positions scan share of reading YAML text by character codes.

export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;
export const DOUBLE_QUOTE = 0x22;
export const HASH = 0x23;
export const SINGLE_QUOTE = 0x27;
export const COMMA = 0x2c;
export const DASH = 0x2d;
export const COLON = 0x3a;
export const GREATER = 0x3e;
export const QUESTION = 0x3f;
export const OPEN_SQUARE = 0x5b;
export const BACKSLASH = 0x5c;
export const CLOSE_SQUARE = 0x5d;
export const OPEN_CURLY = 0x7b;
export const PIPE = 0x7c;
export const CLOSE_CURLY = 0x7d;

/** The offset of the quote closing the one at `open` (single or double) on the same line, before `end`; -1 when none does. */
export function closingQuote(text: string, open: number, end: number): number {
  const quote = text.charCodeAt(open);
  for (let i = open + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (quote === DOUBLE_QUOTE && c === BACKSLASH) i += 1;
    else if (c === quote) {
      if (quote === SINGLE_QUOTE && text.charCodeAt(i + 1) === SINGLE_QUOTE) i += 1;
      else return i;
    }
  }
  return -1;
}
