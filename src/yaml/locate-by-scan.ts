import { type Diagnostic, defaultPart, type Issue, type Part, type Path, toPointer } from '../core/diagnostics.js';
import { stripBom } from './decode.js';
import { indexedSourceText, type SourceText, type Span } from './source.js';
import {
  CLOSE_CURLY,
  CLOSE_SQUARE,
  COLON,
  COMMA,
  CR,
  closingQuote,
  DASH,
  DOUBLE_QUOTE,
  GREATER,
  HASH,
  LF,
  OPEN_CURLY,
  OPEN_SQUARE,
  PIPE,
  QUESTION,
  SINGLE_QUOTE,
  SPACE,
} from './text-codes.js';

/**
 * A node of a document as the scan found it, with the offsets the `yaml` parser gives the same
 * node: `start` and `end` its range, `after` where what belongs to it ends (its comment and line
 * end). `undefined` marks an offset the scan is not sure of; a lookup that needs one falls back.
 */
interface ScanNode {
  readonly kind: 'map' | 'seq' | 'scalar' | 'empty';
  readonly start: number;
  end: number | undefined;
  after: number | undefined;
  /** An offset the node surely reaches: enough to cut it at the end of its first line. */
  reach: number;
  /** A map's keys (the first of each name) with the range of the key and its value. */
  readonly keys?: Map<string, { readonly key: readonly [number, number]; readonly value: ScanNode }>;
  /** A sequence's items. */
  readonly items?: ScanNode[];
}

/** A key as written on its line: the name it stands for, its range and the offset of its `:`. */
interface Key {
  readonly name: string;
  readonly range: readonly [number, number];
  readonly colon: number;
}

/** What a lookup gives when the scan cannot be sure of it: the caller asks the full reader. */
export const UNSURE = Symbol('unsure');

/** Thrown inside the scan at anything it is not sure of; caught once at its top. */
class Unsure extends Error {}

/**
 * Positions in a YAML text found by one linear scan of its block structure instead of a parse:
 * the offsets the full reader (`SourceDocument.locate`, `sourceTextAt`) would give, or
 * {@link UNSURE}. Meant for a text the fast path already read (one clean map, in its subset);
 * anything the scan does not know for sure (anchors, merge keys, multi-line scalars and keys,
 * escapes in keys, flow pairs without a value, comments where the parser's ranges depend on
 * them) makes the whole text or the one lookup unsure. `text` is without a byte order mark.
 */
export class ScannedPositions {
  private constructor(
    private readonly text: string,
    private readonly lineStarts: readonly number[],
    private readonly root: ScanNode,
  ) {}

  /** Scans a text; undefined when its structure is not one the scan is sure of. */
  static scan(text: string, lineStarts: readonly number[]): ScannedPositions | undefined {
    try {
      const root = new Scanner(text, lineStarts).document();
      return root ? new ScannedPositions(text, lineStarts, root) : undefined;
    } catch (err) {
      if (err instanceof Unsure) return undefined;
      throw err;
    }
  }

  /** The source offsets `SourceDocument.locate` positions `path` and `part` at, or {@link UNSURE}. */
  locate(path: Path, part: Part): readonly [number, number] | typeof UNSURE {
    if (part === 'parent') return this.locate(path.slice(0, -1), 'key');
    let node = this.root;
    let key: readonly [number, number] | undefined;
    let found = 0;
    for (const segment of path) {
      if (node.keys) {
        const hit = node.keys.get(String(segment));
        if (!hit) break;
        key = hit.key;
        node = hit.value;
      } else if (node.items && typeof segment === 'number' && segment >= 0 && segment < node.items.length) {
        key = undefined;
        node = node.items[segment]!;
      } else {
        break;
      }
      found += 1;
    }
    if (found < path.length) part = 'key';
    if (part === 'key') return key ?? this.firstLine(node);
    if (node.kind === 'empty' && key) return key;
    return node.end === undefined ? UNSURE : [node.start, node.end];
  }

  /** The text of the scalar at `path` as written, undefined when there is none, or {@link UNSURE}. */
  sourceTextAt(path: Path): string | undefined | typeof UNSURE {
    let node: ScanNode | undefined = this.root;
    for (const segment of path) {
      if (node?.keys) node = node.keys.get(String(segment))?.value;
      else if (node?.items && typeof segment === 'number') node = node.items[segment];
      else return undefined;
    }
    if (node === undefined || node.keys || node.items) return undefined;
    if (node.kind === 'empty') return '';
    return node.end === undefined ? UNSURE : this.text.slice(node.start, node.end);
  }

  // A node's range cut at the end of its first line, as `SourceText.firstLine` cuts it.
  private firstLine(node: ScanNode): readonly [number, number] | typeof UNSURE {
    const next = this.lineStarts[lineOf(this.lineStarts, node.start) + 1];
    const newline = next === undefined ? -1 : next - 1;
    if (node.end !== undefined) return [node.start, newline === -1 || newline > node.end ? node.end : newline];
    return newline !== -1 && node.reach > newline ? [node.start, newline] : UNSURE;
  }
}

// The 0-based line holding `offset`.
function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (starts[middle]! <= offset) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/**
 * Reads the block structure line by line. Each method starts at a line and leaves `line` at the
 * first line it did not take. Recursion follows the nesting of block collections, which the fast
 * path bounds (its parser refuses deeper documents).
 */
class Scanner {
  private line = 0;
  private lastContent: { from: number; found: { line: number; comments: boolean } } | undefined;

  constructor(
    private readonly text: string,
    private readonly starts: readonly number[],
  ) {}

  document(): ScanNode | undefined {
    this.line = this.nextContent(0).line;
    if (this.line < this.starts.length && this.isMarker(this.starts[this.line]!)) this.line = this.nextContent(this.line + 1).line;
    if (this.line >= this.starts.length) return undefined;
    const indent = this.indentOf(this.line);
    const at = this.starts[this.line]! + indent;
    const c = this.text.charCodeAt(at);
    if (this.keyAt(at) === undefined && c !== OPEN_CURLY) return undefined;
    const root = this.nodeAt(at, -1);
    if (!root.keys) return undefined;
    if (this.nextContent(this.line).line < this.starts.length) throw new Unsure();
    return root;
  }

  // A document start marker at the start of a line.
  private isMarker(at: number): boolean {
    if (!this.text.startsWith('---', at)) return false;
    const next = this.text.charCodeAt(at + 3);
    return next === SPACE || next === LF || next === CR || at + 3 >= this.text.length;
  }

  // A block map whose first key is `first` (on the current line), its keys at column `indent`.
  private map(indent: number, first: Key): ScanNode {
    const at = first.range[0];
    const keys = new Map<string, { key: readonly [number, number]; value: ScanNode }>();
    const node: ScanNode = { kind: 'map', start: at, end: undefined, after: undefined, reach: at, keys };
    let last: ScanNode | undefined;
    let key: Key | undefined = first;
    for (;;) {
      if (key === undefined) throw new Unsure();
      const value = this.valueAfter(key.colon + 1, indent);
      if (keys.has(key.name)) throw new Unsure();
      keys.set(key.name, { key: key.range, value });
      node.reach = Math.max(node.reach, key.range[1], value.reach);
      last = value;
      const next = this.nextContent(this.line);
      if (next.line >= this.starts.length || this.indentOf(next.line) < indent) break;
      if (this.indentOf(next.line) > indent) throw new Unsure();
      const from = this.starts[next.line]! + indent;
      if (this.isDash(from)) break;
      this.line = next.line;
      key = this.keyAt(from);
    }
    node.end = last.after;
    node.after = this.endOfCollection(node.end);
    return node;
  }

  // A block sequence whose first `-` is at `at` (on the current line), at column `indent`.
  private seq(indent: number, at: number): ScanNode {
    const items: ScanNode[] = [];
    const node: ScanNode = { kind: 'seq', start: at, end: undefined, after: undefined, reach: at, items };
    let from = at;
    for (;;) {
      let content = from + 1;
      const end = this.contentEnd(this.line);
      if (content >= end || this.text.charCodeAt(content) !== SPACE) throw new Unsure();
      while (content < end && this.text.charCodeAt(content) === SPACE) content += 1;
      const item = this.nodeAt(content, indent);
      items.push(item);
      node.reach = Math.max(node.reach, item.reach);
      const next = this.nextContent(this.line);
      if (next.line >= this.starts.length || this.indentOf(next.line) < indent) break;
      if (this.indentOf(next.line) > indent) throw new Unsure();
      from = this.starts[next.line]! + indent;
      // A sequence at its key's indentation ends where the map's next key starts.
      if (!this.isDash(from)) break;
      this.line = next.line;
    }
    node.end = items[items.length - 1]!.after;
    node.after = this.endOfCollection(node.end);
    return node;
  }

  // What a collection's range reaches past its last value: nothing when only blank lines
  // follow; trailing comment lines join it in ways this scan does not follow.
  private endOfCollection(end: number | undefined): number | undefined {
    if (end === undefined) return undefined;
    return this.nextContent(this.line).comments ? undefined : end;
  }

  // The value of a map entry whose `:` ends just before `at`, for keys at column `indent`.
  private valueAfter(at: number, indent: number): ScanNode {
    const end = this.contentEnd(this.line);
    let pos = at;
    while (pos < end && this.text.charCodeAt(pos) === SPACE) pos += 1;
    // A collection cannot start on its key's line in block style.
    if (pos < end && this.text.charCodeAt(pos) !== HASH) return this.nodeAt(pos, indent, false);
    // Nothing after the `:` on its line: a collection on the lines below, or an empty value.
    const hasComment = pos < end;
    const next = this.nextContent(this.line + 1);
    if (next.line < this.starts.length) {
      const nextIndent = this.indentOf(next.line);
      const first = this.starts[next.line]! + nextIndent;
      if (nextIndent > indent || (nextIndent === indent && this.isDash(first))) {
        this.line = next.line;
        return this.nodeAt(first, indent);
      }
    }
    this.line += 1;
    const after = hasComment || next.comments ? undefined : pos;
    return { kind: 'empty', start: pos, end: pos, after, reach: pos };
  }

  // A node starting at `at` on the current line, inside a collection at column `indent`; a block
  // collection only where `collections` allows one.
  private nodeAt(at: number, indent: number, collections = true): ScanNode {
    const c = this.text.charCodeAt(at);
    if (at >= this.contentEnd(this.line) || c === HASH) throw new Unsure();
    if (c === DASH && this.isDash(at)) {
      if (!collections) throw new Unsure();
      return this.seq(at - this.starts[this.line]!, at);
    }
    const key = this.keyAt(at);
    if (key !== undefined) {
      if (!collections) throw new Unsure();
      return this.map(at - this.starts[this.line]!, key);
    }
    if (c === PIPE || c === GREATER) return this.blockScalar(at, indent);
    let node: ScanNode;
    let pos: number;
    if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      const flow = new FlowScanner(this.text, this.contentEnd(this.line));
      node = flow.node(at);
      pos = flow.pos;
    } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      pos = closingQuote(this.text, at, this.contentEnd(this.line)) + 1;
      if (pos === 0) throw new Unsure();
      node = scalar(at, pos);
    } else {
      if (!startsPlain(this.text, at)) throw new Unsure();
      const end = plainEnd(this.text, at, this.contentEnd(this.line), false);
      node = scalar(at, end);
      pos = end;
    }
    this.endOfLine(pos);
    node.reach = this.afterLine(this.line);
    this.line += 1;
    // A more indented line after a scalar would continue it: a multi-line scalar.
    const next = this.nextContent(this.line);
    if (next.line < this.starts.length && this.indentOf(next.line) > indent) throw new Unsure();
    // Comment lines after it may join what belongs to it (its range's last offset).
    node.after = next.comments ? undefined : node.reach;
    return node;
  }

  // A literal or folded block scalar whose header is at `at`, in a collection at column `indent`.
  private blockScalar(at: number, indent: number): ScanNode {
    let pos = at + 1;
    if (this.text.charCodeAt(pos) === DASH) pos += 1;
    this.endOfLine(pos);
    let line = this.line + 1;
    let contentIndent = -1;
    let lastContent = -1;
    for (; line < this.starts.length; line++) {
      const width = this.contentEnd(line) - this.starts[line]!;
      const lineIndent = this.indentOf(line);
      if (width === 0) continue;
      // A line of spaces only: the readers' rules for them are not followed here.
      if (lineIndent >= width) throw new Unsure();
      if (contentIndent === -1) {
        if (lineIndent <= indent) throw new Unsure();
        contentIndent = lineIndent;
      } else if (lineIndent < contentIndent) {
        break;
      }
      lastContent = line;
    }
    if (lastContent === -1) throw new Unsure();
    if (line < this.starts.length && this.indentOf(line) > indent) throw new Unsure();
    const end = this.afterLine(lastContent);
    this.line = lastContent + 1;
    const after = this.nextContent(this.line).comments ? undefined : end;
    return { kind: 'scalar', start: at, end, after, reach: end };
  }

  // Requires nothing but spaces and a comment from `pos` to the end of the current line.
  private endOfLine(pos: number): void {
    const end = this.contentEnd(this.line);
    let at = pos;
    while (at < end && this.text.charCodeAt(at) === SPACE) at += 1;
    if (at < end && !(this.text.charCodeAt(at) === HASH && at > pos)) throw new Unsure();
  }

  // A key written at `at` on the current line: its name, range and the offset of its `:`.
  private keyAt(at: number): Key | undefined {
    const end = this.contentEnd(this.line);
    const c = this.text.charCodeAt(at);
    let keyEnd: number;
    let name: string;
    let colon: number;
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const close = closingQuote(this.text, at, end);
      if (close === -1) return undefined;
      keyEnd = close + 1;
      colon = keyEnd;
      while (colon < end && this.text.charCodeAt(colon) === SPACE) colon += 1;
      if (this.text.charCodeAt(colon) !== COLON || !isBlankAfter(this.text, colon + 1, end)) return undefined;
      name = quotedName(this.text, at, close);
    } else {
      if (!startsPlain(this.text, at)) return undefined;
      colon = -1;
      let flow = false;
      for (let i = at; i < end; i++) {
        const ch = this.text.charCodeAt(i);
        if (ch === HASH && this.text.charCodeAt(i - 1) === SPACE) break;
        if (ch === COMMA || ch === OPEN_SQUARE || ch === CLOSE_SQUARE || ch === OPEN_CURLY || ch === CLOSE_CURLY) flow = true;
        if (ch === COLON && isBlankAfter(this.text, i + 1, end)) {
          colon = i;
          break;
        }
      }
      if (colon === -1) return undefined;
      // Flow indicators in a plain key: the readers may see a flow collection.
      if (flow) throw new Unsure();
      keyEnd = colon;
      while (keyEnd > at && this.text.charCodeAt(keyEnd - 1) === SPACE) keyEnd -= 1;
      if (keyEnd === at) throw new Unsure();
      name = this.text.slice(at, keyEnd);
    }
    return { name, range: [at, keyEnd], colon };
  }

  // True when a block sequence entry's `-` is at `at`.
  private isDash(at: number): boolean {
    if (this.text.charCodeAt(at) !== DASH) return false;
    const next = this.text.charCodeAt(at + 1);
    return next === SPACE || next === LF || next === CR || at + 1 >= this.text.length;
  }

  // The first line from `line` that is neither blank nor a comment, and whether a comment came
  // first. Every collection that ends at the same line asks from the same line: the last answer
  // is kept, so a run of comment lines is not read again once per nesting level.
  private nextContent(from: number): { line: number; comments: boolean } {
    if (this.lastContent?.from === from) return this.lastContent.found;
    let comments = false;
    let line = from;
    for (; line < this.starts.length; line++) {
      const start = this.starts[line]! + this.indentOf(line);
      if (start >= this.contentEnd(line)) continue;
      if (this.text.charCodeAt(start) !== HASH) break;
      comments = true;
    }
    const found = { line, comments };
    this.lastContent = { from, found };
    return found;
  }

  private indentOf(line: number): number {
    const start = this.starts[line]!;
    const end = this.contentEnd(line);
    let at = start;
    while (at < end && this.text.charCodeAt(at) === SPACE) at += 1;
    return at - start;
  }

  // Where a line's text ends, before its line end.
  private contentEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    return this.text.charCodeAt(next - 2) === CR ? next - 2 : next - 1;
  }

  // Where a line ends, after its line end.
  private afterLine(line: number): number {
    return this.starts[line + 1] ?? this.text.length;
  }
}

/** Reads one flow collection written on one line. */
class FlowScanner {
  pos = 0;

  constructor(
    private readonly text: string,
    private readonly end: number,
  ) {}

  node(at: number): ScanNode {
    this.pos = at;
    const c = this.text.charCodeAt(at);
    if (c === OPEN_SQUARE) return this.collection(CLOSE_SQUARE);
    if (c === OPEN_CURLY) return this.collection(CLOSE_CURLY);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const close = closingQuote(this.text, at, this.end);
      if (close === -1) throw new Unsure();
      this.pos = close + 1;
      return scalar(at, this.pos);
    }
    if (!startsPlain(this.text, at) || c === COMMA) throw new Unsure();
    this.pos = plainEnd(this.text, at, this.end, true);
    if (this.pos === at) throw new Unsure();
    return scalar(at, this.pos);
  }

  private collection(close: number): ScanNode {
    const start = this.pos;
    const isMap = close === CLOSE_CURLY;
    const keys = isMap ? new Map<string, { key: readonly [number, number]; value: ScanNode }>() : undefined;
    const items = isMap ? undefined : ([] as ScanNode[]);
    this.pos += 1;
    for (;;) {
      this.spaces();
      if (this.text.charCodeAt(this.pos) === close) break;
      const entry = this.pos;
      const first = this.node(entry);
      this.spaces();
      if (keys) {
        if (first.keys || first.items || this.text.charCodeAt(this.pos) !== COLON) throw new Unsure();
        const quoted = this.text.charCodeAt(entry);
        const name = quoted === DOUBLE_QUOTE || quoted === SINGLE_QUOTE ? quotedName(this.text, entry, first.end! - 1) : this.text.slice(entry, first.end);
        this.pos += 1;
        this.spaces();
        const next = this.text.charCodeAt(this.pos);
        if (next === COMMA || next === close) throw new Unsure();
        const value = this.node(this.pos);
        if (keys.has(name)) throw new Unsure();
        keys.set(name, { key: [entry, first.end!], value });
        this.spaces();
      } else {
        // `[a: 1]` is a map inside the sequence.
        if (this.text.charCodeAt(this.pos) === COLON) throw new Unsure();
        items!.push(first);
      }
      const c = this.text.charCodeAt(this.pos);
      if (c === COMMA) this.pos += 1;
      else if (c !== close) throw new Unsure();
    }
    this.pos += 1;
    const node: ScanNode = { kind: isMap ? 'map' : 'seq', start, end: this.pos, after: undefined, reach: this.pos };
    return keys ? { ...node, keys } : { ...node, items: items! };
  }

  private spaces(): void {
    while (this.pos < this.end && this.text.charCodeAt(this.pos) === SPACE) this.pos += 1;
    if (this.pos >= this.end) throw new Unsure();
  }
}

function scalar(start: number, end: number): ScanNode {
  return { kind: 'scalar', start, end, after: undefined, reach: end };
}

// True when a plain scalar may start at `at`: not an indicator the readers treat otherwise.
function startsPlain(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c === DASH || c === QUESTION || c === COLON) {
    const next = text.charCodeAt(at + 1);
    return !(next === SPACE || next === LF || next === CR || Number.isNaN(next));
  }
  return !PLAIN_NEVER_STARTS.has(c);
}

const PLAIN_NEVER_STARTS = new Set([...',[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));

/**
 * Where a plain scalar starting at `at` ends (trailing spaces not included): before ` #`, and
 * in a flow collection before a flow indicator; a `: ` inside it is a pair the scan does not read.
 */
function plainEnd(text: string, at: number, end: number, inFlow: boolean): number {
  let last = at;
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE) continue;
    if (c === HASH && text.charCodeAt(i - 1) === SPACE) break;
    if (inFlow && (c === COMMA || c === OPEN_SQUARE || c === CLOSE_SQUARE || c === OPEN_CURLY || c === CLOSE_CURLY)) break;
    if (c === COLON) {
      const next = i + 1 < end ? text.charCodeAt(i + 1) : SPACE;
      if (next === SPACE || (inFlow && (next === COMMA || next === OPEN_SQUARE || next === CLOSE_SQUARE || next === OPEN_CURLY || next === CLOSE_CURLY))) {
        if (inFlow) break;
        throw new Unsure();
      }
    }
    last = i + 1;
  }
  return last;
}

// The name a quoted key between `open` and `close` stands for; an escape is not read here.
function quotedName(text: string, open: number, close: number): string {
  const inner = text.slice(open + 1, close);
  if (text.charCodeAt(open) === SINGLE_QUOTE) return inner.replaceAll("''", "'");
  if (inner.includes('\\')) throw new Unsure();
  return inner;
}

// True when `at` is the end of the line or a space.
function isBlankAfter(text: string, at: number, end: number): boolean {
  return at >= end || text.charCodeAt(at) === SPACE;
}

/**
 * The positions of a document the fast path read, found by {@link ScannedPositions} on its
 * text, with the text's line index: what `SourceDocument` gives, without the second parse, or
 * undefined (or {@link UNSURE}) where the full reader must answer.
 */
export class ScannedDocument {
  private constructor(
    readonly source: SourceText,
    private readonly positions: ScannedPositions,
  ) {}

  /** Scans `text` (a byte order mark is dropped, as the full reader drops it); undefined when the scan is not sure of it. */
  static of(file: string, text: string): ScannedDocument | undefined {
    const source = indexedSourceText(file, stripBom(text));
    const positions = ScannedPositions.scan(source.text, source.lineCounter.lineStarts);
    return positions ? new ScannedDocument(source, positions) : undefined;
  }

  /** The diagnostic `SourceDocument.toDiagnostic` makes of `issue`, or undefined when the scan is not sure of it. */
  toDiagnostic(issue: Issue): Diagnostic | undefined {
    const target = issue.at ?? { path: issue.path, part: issue.part ?? defaultPart(issue.code) };
    const range = this.positions.locate(target.path, target.part);
    if (range === UNSURE) return undefined;
    const span = this.source.span(range[0], range[1]);
    const diagnostic: Diagnostic = {
      code: issue.code,
      severity: issue.severity,
      message: issue.message,
      file: this.source.file,
      line: span.line,
      column: span.column,
      endLine: span.endLine,
      endColumn: span.endColumn,
      path: toPointer(issue.path),
    };
    if (issue.hint !== undefined) diagnostic.hint = issue.hint;
    if (issue.quote) {
      const written = this.positions.sourceTextAt(issue.path);
      if (written === UNSURE) return undefined;
      // Only a plain scalar is a number or boolean that quotes would make a string.
      if (written !== undefined && !/^["']/.test(written)) diagnostic.hint = `${issue.quote.lead}: ${JSON.stringify(written + issue.quote.suffix)}`;
    }
    return diagnostic;
  }

  /** As `SourceDocument.sourceTextAt`, or {@link UNSURE}. */
  sourceTextAt(path: Path): string | undefined | typeof UNSURE {
    return this.positions.sourceTextAt(path);
  }

  /** As `SourceDocument.locate`, or {@link UNSURE}. */
  locate(path: Path, part: Part): Span | typeof UNSURE {
    const range = this.positions.locate(path, part);
    return range === UNSURE ? UNSURE : this.source.span(range[0], range[1]);
  }
}
