import type { SourceText } from './source.js';
import { SUPPRESSION_KEYWORD } from './suppression-keyword.js';
import { yaml } from './yaml-lib.js';

export { SUPPRESSION_KEYWORD };

/** The two suppression comments (docs/configuration.md): the next line that holds content, or the whole document. */
export const SUPPRESSION_FORMS = ['kurel-disable-next-line', 'kurel-disable'] as const;

/** One comment that starts with `kurel-disable`, as written, and what it would cover. */
export interface SuppressionComment {
  /** Offsets of the comment, from its `#` to the end of its line's text. */
  range: readonly [number, number];
  /** The word after `#` as written: `kurel-disable-next-line`, `kurel-disable`, or a misspelling of either. */
  keyword: string;
  /** What follows the keyword: `CODE[, CODE...] [-- reason]`. */
  body: string;
  /**
   * The lines (1-based, inclusive) it covers: for `kurel-disable-next-line`, the next line that
   * holds content (comment lines between are passed over); for `kurel-disable` written before
   * a document's first content, that document's lines. Undefined when it covers nothing (a
   * misspelt keyword, a `kurel-disable` after content, no content after it).
   */
  covers: { from: number; to: number } | undefined;
}

interface CstNode {
  type?: string;
  offset?: number;
  source?: string;
  [key: string]: unknown;
}

/**
 * Finds the suppression comments of a YAML text exactly: the comments the YAML parser's
 * concrete syntax tree holds, so a `#` inside a quoted or block scalar is never one. Returns
 * none, without parsing, for a text that does not mention `kurel-disable`.
 */
export function readSuppressionComments(source: SourceText): SuppressionComment[] {
  const text = source.text;
  if (!text.includes(SUPPRESSION_KEYWORD)) return [];
  const comments: CstNode[] = [];
  const documents: { offset: number; contentOffset: number | undefined }[] = [];
  // Comments met since the last content, waiting to learn whether a document's content follows them.
  let pending: CstNode[] = [];
  const before = new Map<CstNode, number>();
  for (const token of new (yaml().Parser)().parse(text) as Iterable<CstNode>) {
    if (token.type === 'comment') {
      comments.push(token);
      pending.push(token);
      continue;
    }
    if (token.type !== 'document') continue;
    const start = Array.isArray(token['start']) ? (token['start'] as CstNode[]) : [];
    const value = token['value'] as CstNode | undefined;
    const contentOffset = value ? firstOffset(value) : undefined;
    for (const item of start) if (item.type === 'comment') pending.push(item);
    const index = documents.length;
    documents.push({ offset: token.offset ?? 0, contentOffset });
    if (contentOffset !== undefined) {
      for (const comment of pending) before.set(comment, index);
      pending = [];
    }
    collectComments(token, comments);
  }
  const commentStarts = new Set(comments.map((c) => c.offset ?? 0));
  const lineOf = (offset: number) => source.lineCounter.linePos(offset).line;
  const lastLine = lineOf(text.length);
  const out: SuppressionComment[] = [];
  for (const comment of comments.sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0))) {
    const written = comment.source ?? '';
    const match = /^#\s*(kurel-disable\S*)(.*)$/s.exec(written);
    if (!match) continue;
    const offset = comment.offset ?? 0;
    const keyword = match[1]!;
    let covers: SuppressionComment['covers'];
    if (keyword === 'kurel-disable-next-line') {
      const target = nextContentLine(text, source, offset, commentStarts);
      covers = target === undefined ? undefined : { from: target, to: target };
    } else if (keyword === 'kurel-disable') {
      const index = before.get(comment);
      if (index !== undefined) {
        const next = documents[index + 1];
        const from = index === 0 ? 1 : lineOf(documents[index]!.offset);
        covers = { from, to: next ? lineOf(next.offset) - 1 : lastLine };
      }
    }
    out.push({ range: [offset, offset + written.length], keyword, body: match[2]!.trim(), covers });
  }
  return out;
}

// Every comment inside a document token, at any depth; an explicit stack, so no nesting can
// overflow the call stack.
function collectComments(root: CstNode, out: CstNode[]): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const token = node as CstNode;
    // The document's own start was seen by the caller; its value and end are walked here.
    if (token.type === 'comment' && token !== root) {
      out.push(token);
      continue;
    }
    for (const [key, value] of Object.entries(token)) if (key !== 'source' && typeof value === 'object') stack.push(value);
  }
}

// Where a document's content starts: its value token's first offset.
function firstOffset(value: CstNode): number | undefined {
  return typeof value.offset === 'number' ? value.offset : undefined;
}

// The first line after the comment's own whose first non-blank character is not a comment's `#`.
function nextContentLine(text: string, source: SourceText, offset: number, commentStarts: ReadonlySet<number>): number | undefined {
  const starts = source.lineCounter.lineStarts;
  for (let line = source.lineCounter.linePos(offset).line + 1; line <= starts.length; line++) {
    const from = starts[line - 1]!;
    const to = line < starts.length ? starts[line]! : text.length;
    let at = from;
    while (at < to && (text[at] === ' ' || text[at] === '\t' || text[at] === '\r' || text[at] === '\n')) at += 1;
    if (at >= to) continue;
    if (commentStarts.has(at)) continue;
    return line;
  }
  return undefined;
}
