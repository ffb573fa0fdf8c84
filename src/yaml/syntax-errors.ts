import type { YAMLError } from 'yaml';

/** A parser error as kurel reports it: where the mistake is, what it is, and how to fix it. */
export interface SyntaxProblem {
  range: readonly [number, number];
  message: string;
  hint?: string;
}

/** Characters a plain YAML value cannot start with as text (each starts YAML syntax). */
const INDICATORS = new Set(['*', '&', '!', '@', '`', '%', '{', '[']);

/**
 * Turns the YAML parser's errors into one problem per mistake, each at the offending token
 * with a hint for the common cases: a key indented deeper than its siblings (the parser
 * reports it twice, on the line above), a bracket never closed (reported where the text
 * ends), a value starting with a YAML indicator that was meant as text, a wrong indentation.
 * `message` turns the parser's wording into kurel's (lowercase, no trailing period).
 */
export function explainSyntaxErrors(
  text: string,
  errors: readonly YAMLError[],
  message: (err: YAMLError) => string,
  lineNumber: (offset: number) => number,
  within: readonly [number, number] = [0, text.length],
): SyntaxProblem[] {
  // Git's conflict markers break the YAML around them in many places; the markers are the mistake.
  if (errors.length > 0) {
    const conflicts = conflictMarkers(text, within, lineNumber);
    if (conflicts.length > 0) return conflicts;
  }
  const out: SyntaxProblem[] = [];
  const starts = new Set<number>();
  // The parser may report one mistake several times from one place; the most telling first.
  const ordered = [...errors].sort((a, b) => rank(a) - rank(b));
  for (const err of ordered) {
    if (starts.has(err.pos[0])) continue;
    starts.add(err.pos[0]);
    out.push(explain(text, err, message(err), lineNumber));
  }
  return out.sort((a, b) => a.range[0] - b.range[0]);
}

// A line git writes around the two sides of a conflict: `<<<<<<< HEAD`, `|||||||`, `=======`, `>>>>>>> branch`.
const MARKER = /^(?:<{7}|\|{7}|={7}|>{7})(?:[ \t]|\r?\n|\r?$)/;

/**
 * One problem per block of git merge conflict markers between offsets `within`, at its
 * `<<<<<<<` line (or at the first marker line, when the block's start is in another document).
 * Lines are visited once each, from line starts found with `indexOf`.
 */
export function conflictMarkers(text: string, within: readonly [number, number], lineNumber: (offset: number) => number): SyntaxProblem[] {
  const out: SyntaxProblem[] = [];
  let open: number | undefined;
  let stray: number | undefined;
  const close = (end: number | undefined) => {
    if (open === undefined) return;
    const ends = end === undefined ? 'that never ends (no >>>>>>> line)' : `that ends on line ${lineNumber(end)}`;
    out.push({
      range: [open, lineEnd(text, open)],
      message: `merge conflict markers: this <<<<<<< line starts an unresolved git conflict ${ends}`,
      hint: 'resolve the conflict: keep the side you want (or combine both), then delete the <<<<<<<, ======= and >>>>>>> lines',
    });
    open = undefined;
  };
  for (let at = within[0]; at < within[1] && at !== -1; ) {
    const next = text.indexOf('\n', at);
    const c = text.charCodeAt(at);
    // Only lines starting with one of the four marker characters are tested.
    if ((c === 0x3c || c === 0x7c || c === 0x3d || c === 0x3e) && MARKER.test(text.slice(at, at + 9))) {
      if (c === 0x3c) {
        close(undefined);
        open = at;
      } else if (c === 0x3e && open !== undefined) {
        close(at);
      } else if (open === undefined && stray === undefined) {
        stray = at;
      }
    }
    at = next === -1 ? -1 : next + 1;
  }
  close(undefined);
  if (out.length === 0 && stray !== undefined) {
    out.push({
      range: [stray, lineEnd(text, stray)],
      message: 'merge conflict markers: this line is a marker of an unresolved git conflict',
      hint: 'resolve the conflict: keep the side you want (or combine both), then delete the <<<<<<<, ======= and >>>>>>> lines',
    });
  }
  return out;
}

function rank(err: YAMLError): number {
  return err.code === 'MULTILINE_IMPLICIT_KEY' ? 0 : 1;
}

function explain(text: string, err: YAMLError, message: string, lineNumber: (offset: number) => number): SyntaxProblem {
  const [start, end] = err.pos;
  if (err.code === 'MULTILINE_IMPLICIT_KEY') {
    // `key: value` followed by a line indented deeper: the parser reads that line as part of
    // the value above and complains there; the mistake is the deeper line.
    const next = text.indexOf('\n', start);
    if (next !== -1 && next < end) {
      const at = firstContent(text, next + 1);
      const line = lineNumber(at);
      return {
        range: [at, lineEnd(text, at)],
        message: `this line is indented deeper than the key above it, so YAML reads it as part of the value on line ${line - 1}`,
        hint: `check the indentation of line ${line}: keys of one map start at the same column`,
      };
    }
  }
  if (/^Flow (map|sequence) in block collection must be sufficiently indented and end with a [}\]]/.test(err.message)) {
    const close = err.message.includes('map') ? '}' : ']';
    const open = unclosedBracket(text, start, close === '}' ? '{' : '[');
    if (open !== undefined) {
      const written = valueText(text, open);
      return {
        range: [open, open + 1],
        message: `this ${close === '}' ? '{' : '['} is never closed with ${close}`,
        hint: `close it with ${close}, or, if the value is text, quote it: ${JSON.stringify(written)}`,
      };
    }
  }
  const first = text.charAt(start);
  if (INDICATORS.has(first) && isValueStart(text, start)) {
    return {
      range: [start, end],
      message,
      hint: `a value starting with ${first} is read as YAML syntax; if it is text, quote it: ${JSON.stringify(valueText(text, start))}`,
    };
  }
  if (err.code === 'BAD_INDENT') {
    // The parser points at the indentation; the mistake is the key it puts in the wrong place.
    const at = firstContent(text, start);
    const range: readonly [number, number] = at > start && at < lineEnd(text, start) ? [at, lineEnd(text, at)] : [start, end];
    return { range, message, hint: `check the indentation of line ${lineNumber(start)}` };
  }
  if (err.code === 'TAB_AS_INDENT') {
    return { range: [start, end], message, hint: `check the indentation of line ${lineNumber(start)}` };
  }
  return { range: [start, end], message };
}

/** The last `open` bracket before `offset` that its own line does not close. */
function unclosedBracket(text: string, offset: number, open: '{' | '['): number | undefined {
  const close = open === '{' ? '}' : ']';
  let lineStart = text.lastIndexOf('\n', Math.max(0, offset - 1));
  while (lineStart > 0) {
    const previous = text.lastIndexOf('\n', lineStart - 1);
    const line = text.slice(previous + 1, lineStart);
    let depth = 0;
    for (let i = line.length - 1; i >= 0; i--) {
      if (line[i] === close) depth += 1;
      else if (line[i] === open) {
        if (depth === 0) return previous + 1 + i;
        depth -= 1;
      }
    }
    lineStart = previous;
  }
  return undefined;
}

/** True when `offset` starts a value: after `key: `, `- `, or at the start of a line. */
function isValueStart(text: string, offset: number): boolean {
  const before = text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
  return /(^|:\s|-\s|^\s*)$/.test(before);
}

/** The value written from `offset` to the end of its line, without a trailing comment. */
function valueText(text: string, offset: number): string {
  return text
    .slice(offset, lineEnd(text, offset))
    .replace(/\s+#.*$/, '')
    .trimEnd();
}

function firstContent(text: string, offset: number): number {
  let at = offset;
  while (text.charAt(at) === ' ' || text.charAt(at) === '\t') at += 1;
  return at;
}

function lineEnd(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return (end === -1 ? text.length : end) - (text.charAt(end - 1) === '\r' ? 1 : 0);
}
