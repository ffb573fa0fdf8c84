/**
 * Globs as kurel reads them (docs/configuration.md, "Globs"), translated to the syntax of a
 * linear-time regular expression engine (RE2), so that matching a name costs at most time
 * linear in the glob's length times the name's, whatever the wildcards: `*`, `**`, `?`,
 * classes (`[a-z]`, `[!a]`, `[[:digit:]]`), braces (`{a,b}`, `{1..3}`), and the extglobs
 * `@(a|b)`, `?(a)`, `+(a)`, `*(a)`. A leading `!` negates the whole glob. The one form RE2
 * cannot express, the extglob `!(a)` (anything but), is refused, with the reason.
 *
 * The meaning is picomatch's with `dot: true`: `*` and `?` never match a `/`; `**` as a whole
 * part matches any number of parts (none too); no wildcard matches a part that is exactly `.` or
 * `..`, which the matcher marks with {@link DOT_PART} and {@link DOT_DOT_PART} before it matches
 * (see {@link markDotParts}). Pure: no package, no file system.
 */

/** The longest glob accepted, as the longest pattern (docs/profiles.md, "Limits"). */
export const MAX_GLOB_LENGTH = 1000;

/** How deep braces and extglobs may nest in one glob. */
const MAX_NESTING = 32;

/** The most names a numeric range (`{1..300}`) stands for. */
const MAX_RANGE = 1000;

/** A path part that is exactly `.`, as the matcher writes it: no wildcard matches it. */
export const DOT_PART = '\u0001';
/** A path part that is exactly `..`, as the matcher writes it. */
export const DOT_DOT_PART = '\u0002';

const MARKED_PARTS: ReadonlyMap<string, string> = new Map([
  ['.', DOT_PART],
  ['..', DOT_DOT_PART],
]);

/** A glob translated: the RE2 source of what it matches (whole paths), and whether a leading `!` negates it. */
export type TranslatedGlob = { ok: true; source: string; negated: boolean } | { ok: false; reason: string };

/** One character of a part, not `/` and not a marked `.`/`..` part. */
const ANY = `[^/${DOT_PART}${DOT_DOT_PART}]`;
/** One part that a wildcard may match, and any number of them joined by `/`. */
const PART = `${ANY}[^/]*`;
const PARTS = `${PART}(?:/${PART})*`;

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7F',
  blank: ' \\t',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '\\x21-\\x7E',
  lower: 'a-z',
  print: '\\x20-\\x7E',
  punct: '!-/:-@\\[-`{-~',
  space: ' \\t\\r\\n\\v\\f',
  upper: 'A-Z',
  word: 'A-Za-z0-9_',
  xdigit: 'A-Fa-f0-9',
};

class Refused extends Error {}

/** Translates a glob (see the module's comment); never throws. */
export function translateGlob(glob: string): TranslatedGlob {
  if (glob.length > MAX_GLOB_LENGTH) return { ok: false, reason: `it is ${glob.length} characters long; at most ${MAX_GLOB_LENGTH} are accepted` };
  let start = 0;
  let negated = false;
  while (glob[start] === '!' && glob[start + 1] !== '(') {
    negated = !negated;
    start += 1;
  }
  // As picomatch: `./a` is `a`.
  while (glob.startsWith('./', start)) start += 2;
  try {
    const reader = new GlobReader(glob, start);
    return { ok: true, source: reader.translate(), negated };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message };
    throw err;
  }
}

/** A path with its parts that are exactly `.` or `..` marked, as {@link translateGlob}'s sources expect. */
export function markDotParts(path: string): string {
  if (!path.includes('.')) return path;
  return path
    .split('/')
    .map((part) => MARKED_PARTS.get(part) ?? part)
    .join('/');
}

/** True when a character of a glob starts a wildcard, a class, a brace or an extglob (`\` escapes too). */
export function hasGlobSyntax(text: string): boolean {
  return /[*?[\]{}\\]|[@+!]\(/.test(text);
}

/**
 * The parts of a glob between the slashes that are not inside a brace or an extglob, or
 * undefined when a brace or an extglob holds a slash (its parts are not known before matching).
 */
export function globParts(glob: string): string[] | undefined {
  const closers = matchGroups(glob);
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i += 1;
    else if (closers.has(i)) {
      const end = closers.get(i) ?? i;
      if (glob.slice(i, end).includes('/')) return undefined;
      i = end;
    } else if (c === '/') {
      parts.push(glob.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(glob.slice(from));
  return parts;
}

/**
 * Where each brace and extglob of a glob closes, by the index of its opening `{` or `(`: one
 * pass with a stack, so that no opener is ever looked for twice. An opener never closed, and a
 * closer with no opener, are plain characters. Classes (`[...]`) hide what they hold.
 */
function matchGroups(glob: string): Map<number, number> {
  const closers = new Map<number, number>();
  const open: { at: number; closer: string }[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (c === '[') {
      const end = classEnd(glob, i);
      if (end !== undefined) {
        i = end;
        continue;
      }
    }
    if (c === '{') open.push({ at: i, closer: '}' });
    else if (c === '(' && i > 0 && '@?+*!'.includes(glob[i - 1] ?? '') && glob[i - 2] !== '\\') open.push({ at: i, closer: ')' });
    else if ((c === '}' || c === ')') && open.length > 0) {
      // A closer of the wrong kind is a plain character; the group it would close stays open.
      const top = open[open.length - 1];
      if (top?.closer === c) {
        open.pop();
        closers.set(top.at, i);
      }
    }
  }
  return closers;
}

/** The index of the `]` that closes the class opened at `at`, or undefined when there is none. */
function classEnd(glob: string, at: number): number | undefined {
  let i = at + 1;
  if (glob[i] === '!' || glob[i] === '^') i += 1;
  // A `]` first in the class is one of its characters.
  if (glob[i] === ']') i += 1;
  for (; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i += 1;
    else if (c === '[' && glob[i + 1] === ':') {
      const close = glob.indexOf(':]', i + 2);
      if (close !== -1 && /^[a-z]+$/.test(glob.slice(i + 2, close))) i = close + 1;
    } else if (c === ']') return i;
    else if (c === '/') return undefined;
  }
  return undefined;
}

class GlobReader {
  private readonly closers: Map<number, number>;

  constructor(
    private readonly glob: string,
    private readonly start: number,
  ) {
    this.closers = matchGroups(glob);
  }

  /** The whole glob: its parts between slashes, `**` parts standing for any number of parts. */
  translate(): string {
    const body = this.glob.slice(this.start);
    const parts = globParts(body);
    if (parts === undefined) return this.sequence(this.start, this.glob.length, 0);
    let out = '';
    let needSlash = false;
    let previous: string | undefined;
    let offset = this.start;
    for (const [index, part] of parts.entries()) {
      const from = offset;
      offset += part.length + 1;
      if (part === '**') {
        // Several `**` parts in a row mean what one does.
        if (parts[index + 1] === '**') continue;
        const last = index === parts.length - 1;
        // As picomatch: after a part that ends in a star, a last `**` needs a part of its own (`a*/**` is not `a`).
        const afterStar = previous !== undefined && endsInStar(previous);
        if (last && !needSlash) out += PARTS;
        else if (last) out += afterStar ? `/${PARTS}` : `(?:/${PARTS})?`;
        // As picomatch: a `**` between parts may also end the path, when what follows can match
        // nothing, unless that begins with a star (which needs a character of its own).
        else if (!needSlash) out += `(?:${PARTS}/)?`;
        else out += startsWithStar(parts[index + 1] ?? '') ? `/(?:${PARTS}/)?` : `(?:/(?:${PARTS}/)?|$)`;
        needSlash = false;
        continue;
      }
      if (needSlash) out += '/';
      previous = part;
      out += MARKED_PARTS.get(part) ?? this.sequence(from, from + part.length, 0);
      needSlash = true;
    }
    return out;
  }

  /** The glob from `from` to `to` (exclusive), with no `**` part of its own. */
  private sequence(from: number, to: number, depth: number): string {
    if (depth > MAX_NESTING) throw new Refused(`its braces and extglobs nest more than ${MAX_NESTING} deep`);
    const glob = this.glob;
    let out = '';
    for (let i = from; i < to; i++) {
      const c = glob[i] ?? '';
      const next = glob[i + 1];
      if (c === '\\') {
        out += i + 1 < to ? literal(glob[i + 1] ?? '') : literal('\\');
        i += 1;
      } else if ('@?+*!'.includes(c) && next === '(' && this.closers.has(i + 1)) {
        const end = this.closers.get(i + 1) ?? i + 1;
        out += this.extglob(c, i + 2, end, depth);
        i = end;
      } else if (c === '*') {
        while (glob[i + 1] === '*' && i + 1 < to && !(glob[i + 2] === '(' && this.closers.has(i + 2))) i += 1;
        out += `${ANY}*`;
      } else if (c === '?') out += ANY;
      else if (c === '[') {
        const end = classEnd(glob, i);
        if (end === undefined || end >= to) out += literal(c);
        else {
          out += this.characterClass(i, end);
          i = end;
        }
      } else if (c === '{' && this.closers.has(i)) {
        const end = this.closers.get(i) ?? i;
        out += this.brace(i + 1, end, depth);
        i = end;
      } else out += literal(c);
    }
    return out;
  }

  private extglob(kind: string, from: number, to: number, depth: number): string {
    if (kind === '!') {
      throw new Refused(
        `the extglob !(${this.glob.slice(from, to)}) matches what its pattern does not, which cannot be matched in linear time; name what to match instead`,
      );
    }
    const alternatives = this.split(from, to, '|').map(([a, b]) => this.sequence(a, b, depth + 1));
    const group = `(?:${alternatives.join('|')})`;
    return kind === '@' ? group : `${group}${kind}`;
  }

  private brace(from: number, to: number, depth: number): string {
    const alternatives = this.split(from, to, ',');
    if (alternatives.length > 1) return `(?:${alternatives.map(([a, b]) => this.sequence(a, b, depth + 1)).join('|')})`;
    const range = braceRange(this.glob.slice(from, to));
    // `{a}` holds no choice: it is the characters as written.
    return range ?? literal(this.glob.slice(from - 1, to + 1));
  }

  /** The spans between the separators of a group that are not inside a nested group or a class. */
  private split(from: number, to: number, separator: string): [number, number][] {
    const spans: [number, number][] = [];
    let start = from;
    for (let i = from; i < to; i++) {
      const c = this.glob[i];
      if (c === '\\') i += 1;
      else if (this.closers.has(i)) i = this.closers.get(i) ?? i;
      else if (c === '[') i = classEnd(this.glob, i) ?? i;
      else if (c === separator) {
        spans.push([start, i]);
        start = i + 1;
      }
    }
    spans.push([start, to]);
    return spans;
  }

  private characterClass(from: number, to: number): string {
    const glob = this.glob;
    let i = from + 1;
    const negated = glob[i] === '!' || glob[i] === '^';
    if (negated) i += 1;
    let members = '';
    for (; i < to; i++) {
      const c = glob[i] ?? '';
      if (c === '[' && glob[i + 1] === ':') {
        const close = glob.indexOf(':]', i + 2);
        const name = glob.slice(i + 2, close);
        const posix = close !== -1 && close < to && Object.hasOwn(POSIX_CLASSES, name) ? POSIX_CLASSES[name] : undefined;
        if (posix !== undefined) {
          members += posix;
          i = close + 1;
          continue;
        }
      }
      if (c === '\\' && i + 1 < to) {
        members += classMember(glob[i + 1] ?? '');
        i += 1;
      } else if (c === '-' && members !== '' && i + 1 < to) members += '-';
      else members += classMember(c);
    }
    // A class never matches a `/`, nor a marked `.` or `..` part.
    return negated ? `[^/${DOT_PART}${DOT_DOT_PART}${members}]` : `(?:[${members}])`;
  }
}

/** True when a part begins with a `*` that is a wildcard, not an extglob's. */
function startsWithStar(part: string): boolean {
  return part.startsWith('*') && !part.startsWith('*(');
}

/** True when a part ends in an unescaped `*` (not an extglob's). */
function endsInStar(part: string): boolean {
  let backslashes = 0;
  for (let i = part.length - 2; i >= 0 && part[i] === '\\'; i--) backslashes += 1;
  return part.endsWith('*') && backslashes % 2 === 0;
}

/** `{1..3}` and `{a..e}`: the names of a range, or undefined when the text is none. */
function braceRange(text: string): string | undefined {
  const numbers = /^(-?\d{1,9})\.\.(-?\d{1,9})$/.exec(text);
  if (numbers) {
    const a = Number(numbers[1]);
    const b = Number(numbers[2]);
    if (Math.abs(b - a) + 1 > MAX_RANGE) throw new Refused(`the range {${text}} stands for more than ${MAX_RANGE} names`);
    const names: string[] = [];
    for (let n = Math.min(a, b); n <= Math.max(a, b); n++) names.push(literal(String(n)));
    return `(?:${names.join('|')})`;
  }
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(text);
  if (letters) {
    const [low, high] = [letters[1] ?? '', letters[2] ?? ''].sort();
    return `[${low}-${high}]`;
  }
  return undefined;
}

/** A character that stands for itself, written for RE2. */
function literal(text: string): string {
  let out = '';
  for (const c of text) {
    if (/[\\^$.|?*+()[\]{}/-]/.test(c)) out += `\\${c}`;
    // The marks of `.` and `..` parts are never a glob's own characters.
    else if (c !== DOT_PART && c !== DOT_DOT_PART) out += c;
  }
  return out;
}

/** A character of a class, written for RE2. */
function classMember(c: string): string {
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}
