/**
 * Finds where TypeScript code names a JSON Schema keyword as a string in a keyword position:
 * an element of a list or an index (`['minLength']`, `node['enum']`), one side of a comparison
 * (`key === 'pattern'`), a `case`, or the left of `in`. A small lexer, not a parser: it knows
 * comments, strings, template literals and regular expressions, and which bracket a literal
 * sits in, which is all the rule needs.
 */

/** One keyword named in code: the keyword and its 1-based line. */
export interface KeywordLiteral {
  keyword: string;
  line: number;
}

const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'in', 'of', 'void', 'delete', 'throw', 'new', 'else', 'do', 'instanceof']);

/** The keywords of `names` that `text` names in a keyword position, in order. */
export function keywordLiterals(text: string, names: ReadonlySet<string>): KeywordLiteral[] {
  const found: KeywordLiteral[] = [];
  // The open brackets around the current position; a template's `${` is pushed as '$'.
  const brackets: string[] = [];
  let line = 1;
  let i = 0;
  // The last significant character and word before the current position, to tell a regular expression from a division.
  let last = '';
  let lastWord = '';
  const lineAt = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (text[k] === '\n') line += 1;
  };
  const before = (at: number): string => {
    let k = at - 1;
    while (k >= 0 && /\s/.test(text[k]!)) k--;
    return text.slice(Math.max(0, k - 3), k + 1);
  };
  const after = (at: number): string => {
    let k = at;
    while (k < text.length && /\s/.test(text[k]!)) k++;
    return text.slice(k, k + 4);
  };
  const consider = (value: string, start: number, end: number) => {
    if (!names.has(value)) return;
    const prev = before(start);
    const next = after(end);
    const inList = brackets[brackets.length - 1] === '[' && /[[,]$/.test(prev) && /^[\],]/.test(next);
    const compared = /[!=]==?$/.test(prev) || /^[!=]==?/.test(next);
    const isCase = /(^|\W)case$/.test(prev);
    const isIn = /^in\W/.test(next);
    if (inList || compared || isCase || isIn) found.push({ keyword: value, line });
  };
  const readQuoted = (quote: string): void => {
    const start = i;
    i += 1;
    // A quoted string ends at its quote or, when the scan went wrong, at the line's end.
    while (i < text.length && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    i += 1;
    consider(text.slice(start + 1, i - 1), start, i);
    lineAt(start, i);
  };
  // Reads template text up to its end or to a `${`; returns true at a `${`.
  const readTemplateText = (start: number): boolean => {
    while (i < text.length && text[i] !== '`') {
      if (text[i] === '\\') {
        i += 2;
        continue;
      }
      if (text[i] === '$' && text[i + 1] === '{') {
        i += 2;
        lineAt(start, i);
        return true;
      }
      i += 1;
    }
    i += 1;
    lineAt(start, i);
    return false;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line += 1;
      i += 1;
      continue;
    }
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      lineAt(i, stop);
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      readQuoted(c);
      last = 'a';
      lastWord = '';
      continue;
    }
    if (c === '`') {
      const start = i;
      i += 1;
      if (readTemplateText(start)) brackets.push('$');
      else consider(text.slice(start + 1, i - 1), start, i);
      last = 'a';
      lastWord = '';
      continue;
    }
    if (c === '/' && (last === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(last) || REGEX_AFTER_WORD.has(lastWord))) {
      let inClass = false;
      i += 1;
      while (i < text.length && (inClass || text[i] !== '/') && text[i] !== '\n') {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += 1;
      }
      i += 1;
      while (/[a-z]/.test(text[i] ?? '')) i += 1;
      last = 'a';
      lastWord = '';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') brackets.push(c);
    else if (c === ')' || c === ']') brackets.pop();
    else if (c === '}') {
      if (brackets.pop() === '$') {
        const start = i;
        i += 1;
        if (readTemplateText(start)) brackets.push('$');
        last = 'a';
        lastWord = '';
        continue;
      }
    }
    if (/[\w$]/.test(c)) {
      const start = i;
      while (i < text.length && /[\w$]/.test(text[i]!)) i += 1;
      lastWord = text.slice(start, i);
      last = 'a';
      continue;
    }
    last = c;
    lastWord = '';
    i += 1;
  }
  return found;
}
