import { FAILSAFE_SCHEMA, type LoadOptions, load, Type } from 'js-yaml';
import {
  CLOSE_CURLY,
  CLOSE_SQUARE,
  COLON,
  COMMA,
  CR,
  closingQuote,
  DASH,
  DOUBLE_QUOTE,
  HASH,
  LF,
  OPEN_CURLY,
  OPEN_SQUARE,
  QUESTION,
  SINGLE_QUOTE,
  SPACE,
} from './text-codes.js';

/**
 * The outcome of a fast read: the document's data, or `ok: false` when the text must go to
 * the full reader (`parseYamlStream`), which alone positions diagnostics.
 */
export type FastRead = { readonly ok: true; readonly data: Record<string, unknown> } | { readonly ok: false };

const FALL_BACK: FastRead = Object.freeze({ ok: false });

/**
 * Reads one clean YAML document fast, giving exactly the data `parseYamlStream` gives for it
 * (YAML 1.2 core schema, integers beyond 2^53 as bigint, `__proto__` as an own key), or
 * `ok: false` whenever that is not certain: a construct outside the subset proven equivalent
 * (see {@link FAST_READ_FALLBACKS}), any syntax error, or a document that is not one map.
 * Never throws on bad input.
 */
export function readFast(input: string): FastRead {
  // One leading byte order mark is dropped, as the full reader does; any other falls back.
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.length === 0 || outsideSubset(text)) return FALL_BACK;
  typedScalars = 0;
  warned = false;
  let data: unknown;
  try {
    data = load(text, LOAD_OPTIONS);
  } catch {
    return FALL_BACK;
  }
  if (warned || typeof data !== 'object' || data === null || Array.isArray(data)) return FALL_BACK;
  return countTypedValues(data) === typedScalars ? { ok: true, data: data as Record<string, unknown> } : FALL_BACK;
}

/**
 * What sends a text to the full reader before the fast parser runs, each a construct the two
 * readers were not proven to read alike or one only the full reader positions. So do, read
 * line by line: a document start marker that is not the first thing, or a second one; a line
 * over 1000 characters; a flow collection over several lines or as a key with no value; a
 * plain scalar alone on its line after a comment indented less than it. After the parse, a
 * syntax error of the fast parser, a warning, a root that is not a map, a key that reads as a
 * number, boolean or null, and a duplicate key also fall back.
 */
export const FAST_READ_FALLBACKS: readonly { readonly name: string; readonly pattern: RegExp }[] = Object.freeze([
  // Control characters but line ends (a tab too), a byte order mark, Unicode line separators,
  // non-characters.
  { name: 'character', pattern: /[^\P{Cc}\n\r]|[\ufeff\u2028\u2029\ufffe\uffff]/u },
  { name: 'lone surrogate', pattern: /\p{Cs}/u },
  { name: 'carriage return without line feed', pattern: /\r(?!\n)/ },
  // Wherever a node may start, in quotes and comments too; inside a word (`R&D`, `hi!`) or just
  // after a quote it is text. Without any anchor an alias (`*a`) is an error of the fast parser,
  // as is a plain scalar starting with `@` or a backtick, so those need no scan.
  { name: 'anchor or tag', pattern: /[&!](?<![^\s[\]{},:][&!])/ },
  { name: 'directive', pattern: /(?:^|\n)%/ },
  { name: 'complex key', pattern: /\?(?<![^\s[\]{},]\?)(?=[\s[\]{},]|$)/ },
  { name: 'merge key', pattern: /<</ },
  { name: 'flow collection as key', pattern: /[\]}][ ]*:/ },
  { name: 'empty key', pattern: /:(?=[\s[\]{},]|$)(?<=(?:^|[[{,\n]|(?:^|\s)-[ ])[ ]*:)/ },
  // After an entry with nothing on its line the fast parser may take a less indented `-` as
  // the same list's next entry (`a:\n  -\n- x`), which the full reader refuses.
  { name: 'empty sequence entry', pattern: /-(?<![^ \n]-)[ ]*(?:#[^\r\n]*)?(?:\r?\n|$)/ },
  // The readers disagree on trailing white-space lines under these block scalar headers.
  { name: 'block scalar indentation indicator or keep chomping', pattern: /[|>](?<![^ \n][|>])(?:[-+]?[0-9]|\+)/ },
  // The full reader refuses leading empty lines holding spaces, the fast parser does not.
  { name: 'block scalar with leading white-space lines', pattern: /[|>](?<![^ \n][|>])-?[ ]*(?:#[^\r\n]*)?\r?\n(?:[ ]*\r?\n)*[ ]+(?:\r?\n|$)/ },
  // A header alone on its line (after `key:` on the line above) ends its scalar differently.
  { name: 'block scalar header on its own line', pattern: /(?:^|\n)[ ]*[|>][-+0-9]*[ ]*(?:#[^\r\n]*)?(?:\r?\n|$)/ },
  // The readers fold an escaped line break followed by an empty line differently.
  { name: 'escaped line break', pattern: /\\\r?\n/ },
  // The fast parser accepts code points beyond U+10FFFF; the full reader refuses them.
  { name: 'escape beyond Unicode', pattern: /\\U(?!00(?:0[0-9a-fA-F]|10)[0-9a-fA-F]{4})/ },
  // The fast parser accepts a comment with no white space before it.
  { name: 'comment without white space', pattern: /[\]}"']#/ },
  { name: 'document end marker', pattern: /(?:^|\n)\.\.\./ },
  // Suppression comments are read from the full reader's syntax tree (docs/profiles.md).
  { name: 'suppression comment', pattern: /kurel-disable/ },
]);

// A document start marker is allowed once, before any content, with nothing after it on its line.
const DOCUMENT_START = /(?:^|\n)---/g;
const BLANK_OR_COMMENTS = /^(?:[ ]*(?:#[^\r\n]*)?\r?\n)*$/;
const REST_OF_MARKER_LINE = /(?:[ ]+(?:#[^\r\n]*)?)?(?:\r?\n|$)/y;

// An implicit key ends at most 1024 characters after it starts; the fast parser does not check.
const MAX_LINE = 1000;

// One pass over the text for all of them is cheaper than one pass each.
const ANY_FALLBACK = new RegExp(FAST_READ_FALLBACKS.map((f) => `(?:${f.pattern.source})`).join('|'), 'u');

function outsideSubset(text: string): boolean {
  if (ANY_FALLBACK.test(text)) return true;
  return !singleDocument(text) || hasLongLine(text) || hasMultilineFlow(text) || hasPlainAfterLowComment(text);
}

function singleDocument(text: string): boolean {
  DOCUMENT_START.lastIndex = 0;
  const first = DOCUMENT_START.exec(text);
  if (first === null) return true;
  if (DOCUMENT_START.exec(text) !== null) return false;
  const end = first.index + first[0].length;
  REST_OF_MARKER_LINE.lastIndex = end;
  return REST_OF_MARKER_LINE.test(text) && BLANK_OR_COMMENTS.test(text.slice(0, end - 3));
}

/** True when a line is over {@link MAX_LINE} characters (see there). */
export function hasLongLine(text: string): boolean {
  if (text.length <= MAX_LINE) return false;
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    if (end - start > MAX_LINE) return true;
    start = end + 1;
  }
  return text.length - start > MAX_LINE;
}

const BRACKET = /[[\]{}]/g;

/**
 * True when a flow collection may span lines (the readers check its indentation and comments
 * differently), or a flow collection is a key without `:` after it (`{[a]}`, `{x, {y: 1}}`):
 * a line holding an unclosed flow collection or unbalanced brackets, or a flow collection
 * where a key of a flow map starts. Only lines holding a bracket are read.
 */
function hasMultilineFlow(text: string): boolean {
  BRACKET.lastIndex = 0;
  while (BRACKET.exec(text) !== null) {
    const start = text.lastIndexOf('\n', BRACKET.lastIndex - 1) + 1;
    let end = text.indexOf('\n', BRACKET.lastIndex);
    if (end === -1) end = text.length;
    if (!simpleFlowLine(text, start, end)) return true;
    BRACKET.lastIndex = end;
  }
  return false;
}

// The flow collections open on the line being read, innermost last.
const openFlows: number[] = [];

/**
 * Reads one line as YAML does where it matters here: a quote opens a quoted scalar only where
 * a node starts (the start of the line, after `- `, `? `, `: `, a flow opener or a comma in a
 * flow), ` #` starts a comment, a bracket opens a flow collection only where a node starts or
 * inside a flow. Brackets in plain text count too, so a line is never judged simpler than it is.
 */
function simpleFlowLine(text: string, start: number, end: number): boolean {
  openFlows.length = 0;
  let brackets = 0;
  let nodeStart = true;
  let previous = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === CR) continue;
    if (c === HASH && (i === start || text.charCodeAt(i - 1) === SPACE)) break;
    if ((c === DOUBLE_QUOTE || c === SINGLE_QUOTE) && nodeStart) {
      i = closingQuote(text, i, end);
      if (i === -1) return false;
      previous = c;
      nodeStart = false;
      continue;
    }
    let next = false;
    if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      brackets += 1;
      if (nodeStart || openFlows.length > 0) {
        if (openFlows[openFlows.length - 1] === OPEN_CURLY && (previous === OPEN_CURLY || previous === COMMA)) return false;
        openFlows.push(c);
        next = true;
      }
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
      brackets -= 1;
      if (brackets < 0) return false;
      openFlows.pop();
    } else if (c === COMMA) {
      next = openFlows.length > 0;
    } else if (c === COLON) {
      const after = i + 1 === end ? SPACE : text.charCodeAt(i + 1);
      const jsonKey = previous === DOUBLE_QUOTE || previous === SINGLE_QUOTE || previous === CLOSE_SQUARE || previous === CLOSE_CURLY;
      next =
        after === SPACE ||
        after === CR ||
        (openFlows.length > 0 &&
          (jsonKey || after === COMMA || after === OPEN_SQUARE || after === CLOSE_SQUARE || after === OPEN_CURLY || after === CLOSE_CURLY));
    } else if (c === DASH || c === QUESTION) {
      const after = i + 1 === end ? SPACE : text.charCodeAt(i + 1);
      next = nodeStart && (after === SPACE || after === CR);
    }
    nodeStart = next;
    previous = c;
  }
  return brackets === 0 && openFlows.length === 0;
}

// A line holding only a comment, and its indentation.
const COMMENT_LINE = /(?:^|\n)( *)#/g;
// What starts a plain scalar standing alone on its line: no quote, flow, block scalar or list
// indicator first, and no `key:` before a comment.
const PLAIN_SCALAR_LINE = /(?!["'[{|>]|-(?:[ \r\n]|$))(?![^\r\n#]*:(?:[ \r\n]|$))[^ \r\n#]/y;

/**
 * True when a plain scalar stands alone on a line after comment lines, one of them indented
 * less than it: the full reader may join it with the next key (`b:\n#c\n  x\nd: 1`), the fast
 * parser does not. Blank lines may come between. Each line is read once, so hostile runs of
 * comment lines cost linear time.
 */
function hasPlainAfterLowComment(text: string): boolean {
  COMMENT_LINE.lastIndex = 0;
  let match = COMMENT_LINE.exec(text);
  while (match !== null) {
    let lowest = (match[1] ?? '').length;
    let newline = text.indexOf('\n', COMMENT_LINE.lastIndex);
    while (newline !== -1) {
      const start = newline + 1;
      let i = start;
      while (text.charCodeAt(i) === SPACE) i += 1;
      const c = text.charCodeAt(i);
      if (c === HASH) {
        lowest = Math.min(lowest, i - start);
      } else if (i < text.length && c !== LF && !(c === CR && text.charCodeAt(i + 1) === LF)) {
        PLAIN_SCALAR_LINE.lastIndex = i;
        if (i - start > lowest && PLAIN_SCALAR_LINE.test(text)) return true;
        break;
      }
      newline = text.indexOf('\n', i);
    }
    if (newline === -1) return false;
    // Go on from the line after the comments; the comment lines already read are not read again.
    COMMENT_LINE.lastIndex = newline;
    match = COMMENT_LINE.exec(text);
  }
  return false;
}

// Every int, float and bool the schema builds is counted; as many must be found among the
// values of the data, or one of them became a map key (a key the full reader refuses).
let typedScalars = 0;

/**
 * Numbers, booleans and bigints among the values of the data, or -1 when a key reads `null`
 * or `[object Object]`, which is what a `null`, `~` or empty key or a map as key becomes (keys
 * the full reader refuses). Recursion is bounded by the fast parser's nesting limit.
 */
function countTypedValues(value: object): number {
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) {
        const inner = countTypedValues(item);
        if (inner === -1) return -1;
        count += inner;
      } else if (typeof item !== 'string' && item !== null) count += 1;
    }
    return count;
  }
  const map = value as Record<string, unknown>;
  for (const key in map) {
    if (key === 'null' || key === '[object Object]') return -1;
    const item = map[key];
    if (typeof item === 'object' && item !== null) {
      const inner = countTypedValues(item);
      if (inner === -1) return -1;
      count += inner;
    } else if (typeof item !== 'string' && item !== null) count += 1;
  }
  return count;
}

// The YAML 1.2 core schema exactly as the `yaml` package resolves plain scalars (the tests of
// its core schema, in the same order), shaped as kurel's reader shapes the values: integers
// within 2^53 are numbers (never -0), larger ones stay exact as bigint. Quoted and block
// scalars are strings whatever they hold.
const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT_DEC = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

// Every plain scalar, keys included, is offered to each type in turn; a look at its first
// character turns most away before any pattern runs.
function mayBeNull(source: string): boolean {
  const c = source.charCodeAt(0);
  return source.length === 1 ? c === TILDE : source.length === 4 && (c === LOWER_N || c === UPPER_N);
}

function mayBeBool(source: string): boolean {
  const c = source.charCodeAt(0) | 0x20;
  return (source.length === 4 && c === LOWER_T) || (source.length === 5 && c === LOWER_F);
}

// Integers and floats start with a digit or a sign; floats also with `.`.
function mayBeNumber(source: string, dot: boolean): boolean {
  const c = source.charCodeAt(0);
  return (c >= DIGIT_0 && c <= DIGIT_9) || c === PLUS || c === DASH || (dot && c === DOT);
}

const TILDE = 0x7e;
const LOWER_N = 0x6e;
const UPPER_N = 0x4e;
const LOWER_T = 0x74;
const LOWER_F = 0x66;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const PLUS = 0x2b;
const DOT = 0x2e;

const coreNull = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (source: string) => mayBeNull(source) && NULL.test(source),
  construct: () => null,
});

const coreBool = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (source: string) => mayBeBool(source) && BOOL.test(source),
  construct: (source: string) => {
    typedScalars += 1;
    return source[0] === 't' || source[0] === 'T';
  },
});

const coreInt = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (source: string) => mayBeNumber(source, false) && (INT_OCT.test(source) || INT_DEC.test(source) || INT_HEX.test(source)),
  construct: (source: string) => {
    typedScalars += 1;
    // Up to 15 characters a decimal is below 2^53; `+ 0` makes -0 the 0 that BigInt gives.
    if (source.length <= 15 && INT_DEC.test(source)) return parseInt(source, 10) + 0;
    const big = BigInt(source);
    const small = Number(big);
    return Number.isSafeInteger(small) ? small : big;
  },
});

const coreFloat = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (source: string) => mayBeNumber(source, true) && (FLOAT_NAN.test(source) || FLOAT_EXP.test(source) || FLOAT.test(source)),
  construct: (source: string) => {
    typedScalars += 1;
    if (!FLOAT_NAN.test(source)) return parseFloat(source);
    if (source.slice(-3).toLowerCase() === 'nan') return NaN;
    return source[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  },
});

const CORE_SCHEMA = FAILSAFE_SCHEMA.extend({ implicit: [coreNull, coreBool, coreInt, coreFloat] });

let warned = false;

// js-yaml's own nesting limit (it counts every node, scalars too) stays well below kurel's 128
// levels, so a text near the limit goes to the full reader, which reports `too-deep`.
const LOAD_OPTIONS: LoadOptions & { maxDepth: number } = {
  schema: CORE_SCHEMA,
  maxDepth: 100,
  onWarning: () => {
    warned = true;
  },
};
