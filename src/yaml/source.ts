import type { Alias, CST, Document, Node, Pair, Parser, ScalarTag, YAMLError } from 'yaml';
import { boundMessage, MAX_MESSAGE_LENGTH } from '../core/data.js';
import { type Diagnostic, type DiagnosticCode, defaultPart, type Issue, type Part, type Path, toPointer } from '../core/diagnostics.js';
import { LIMITS } from '../core/input-limits.js';
import { decodeText, stripBom } from './decode.js';
import { findTooDeep, NestingWatch } from './depth.js';
import { LineIndex } from './line-index.js';
import { SUPPRESSION_KEYWORD } from './suppression-keyword.js';
import { explainSyntaxErrors } from './syntax-errors.js';
import { type RangedIssue, rangeOf, toData } from './to-data.js';
import { yaml } from './yaml-lib.js';

/** Anything diagnostics can be positioned in: it maps a data path to a source range. */
export interface Locatable {
  readonly file: string;
  /** Positions an issue; never throws, falls back to the nearest existing ancestor. */
  toDiagnostic(issue: Issue): Diagnostic;
}

/** A located span: 1-based line and column of its start and end. */
export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Set when the node was reached through an alias: the line of its anchor. */
  anchorLine?: number;
}

/** The source text of one file and its line index. */
export class SourceText {
  // Not the `yaml` package's LineCounter: a text positioned without a parse does not load it.
  private index: LineIndex | undefined;
  private anchorLines: WeakMap<Node, number> | undefined;
  // A parse that stops at a syntax error may leave lines out of the index it fills: only an
  // index built from the text is built the same again.
  private isIndexedFromText = false;
  /**
   * `indexOnUse`: the line index is built from the text when first asked for, not filled by a
   * parse. A run keeps the texts of its files with diagnostics until it prints them, and prints
   * the lines of its first problems only: a kept text holds no index until then.
   */
  constructor(
    readonly file: string,
    readonly text: string,
    private readonly indexOnUse = false,
  ) {}

  /** The text's line index: filled by the parse that reads it, or built on first use (`indexOnUse`). */
  get lineCounter(): LineIndex {
    if (this.index) return this.index;
    this.index = new LineIndex();
    if (this.indexOnUse) this.indexFromText();
    return this.index;
  }

  /** Builds the line index from the text, replacing what a parse filled. */
  indexFromText(): void {
    const lc = this.lineCounter;
    lc.lineStarts.length = 0;
    lc.addNewLine(0);
    for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) lc.addNewLine(i + 1);
    this.isIndexedFromText = true;
  }

  /**
   * What a run keeps of the file until it prints it: the text without its line index (built
   * again if its lines are printed) when that index came from the text, else this source.
   */
  kept(): SourceText {
    return this.isIndexedFromText || this.indexOnUse ? new SourceText(this.file, this.text, true) : this;
  }

  /** The 1-based line/column span of offsets [start, end). */
  span(start: number, end: number): Span {
    const a = this.lineCounter.linePos(start);
    const b = this.lineCounter.linePos(Math.max(start, end));
    return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
  }

  /** Offsets [start, end) cut at the end of the start line. */
  firstLine(start: number, end: number): readonly [number, number] {
    // The line index says where the line ends; searching the text could read to the end of a
    // long line once per diagnostic.
    const next = this.lineCounter.lineStarts[this.lineCounter.linePos(start).line];
    const newline = next === undefined ? -1 : next - 1;
    return [start, newline === -1 || newline > end ? end : newline];
  }

  /**
   * The line of a node's `&anchor`. The parser keeps no offset for it, so it is found by
   * looking back from the node's start (a block map's anchor sits on the line above it), once
   * per node: every diagnostic reached through an alias names it.
   */
  anchorLine(node: Node): number {
    this.anchorLines ??= new WeakMap();
    const known = this.anchorLines.get(node);
    if (known !== undefined) return known;
    const start = rangeOf(node)[0];
    const token = `&${node.anchor ?? ''}`;
    let at = node.anchor ? this.text.lastIndexOf(token, start) : -1;
    while (at !== -1 && !/^[\s,[\]{}]?$/.test(this.text.charAt(at + token.length))) at = at === 0 ? -1 : this.text.lastIndexOf(token, at - 1);
    const line = this.lineCounter.linePos(at === -1 ? start : at).line;
    this.anchorLines.set(node, line);
    return line;
  }

  /** A diagnostic at source offsets. */
  diagnosticAt(code: DiagnosticCode, message: string, range: readonly [number, number], path: Path = [], severity: 'error' | 'warning' = 'error'): Diagnostic {
    return { code, severity, message: boundMessage(message), file: this.file, ...this.span(range[0], range[1]), path: toPointer(path) };
  }
}

/**
 * One YAML document of a file as the commands see it: its data, the problems found reading it,
 * and a way back from paths to positions. Read by the full reader ({@link SourceDocument}) or,
 * for a clean document, by the fast path, which positions through the full reader on demand.
 */
export interface YamlDocument extends Locatable {
  /** The document's data, or `undefined` when it could not be read. */
  readonly data: unknown;
  /** Problems found while reading this document (syntax, keys, limits). */
  readonly diagnostics: readonly Diagnostic[];
  /** The text of the file the document is in, with its line index. */
  readonly source: SourceText;
  /** Offset where the document starts (its `---` when it has one). */
  readonly start: number;
  /** True when the document has no content (empty or only comments). */
  readonly isEmpty: boolean;
  /** The text of the scalar at `path` as written, or undefined when the path leads to no scalar. */
  sourceTextAt(path: Path): string | undefined;
  /** The span of the key or value at `path`; a missing node falls back to its nearest existing ancestor's key. */
  locate(path: Path, part: Part): Span;
}

/** One YAML document of a file: its data and a way back from paths to positions. */
export class SourceDocument implements YamlDocument {
  /** Problems found while reading this document (syntax, keys, limits). */
  readonly diagnostics: Diagnostic[] = [];
  /** The document's data, or `undefined` when it could not be read. */
  readonly data: unknown;
  private pairIndex = new WeakMap<Node, PairIndex>();
  private anchorIndex: Map<string, Node[]> | undefined;

  constructor(
    readonly source: SourceText,
    readonly doc: Document.Parsed,
    /** Offset where the document starts (its `---` when it has one). */
    readonly start: number,
    /** Where the text of its directives may start: the end of the document before it. */
    directivesFrom = 0,
    /** Where the next document starts: a conflict marker up to there belongs to this one. */
    until = doc.range[2],
  ) {
    const fatal = doc.errors.filter((e) => e.code !== 'DUPLICATE_KEY');
    // The parser may overflow its stack more than once on one deep document; once is enough.
    const exhausted = fatal.find((e) => e.code === 'RESOURCE_EXHAUSTION');
    if (exhausted) this.diagnostics.push(yamlErrorDiagnostic(source, exhausted));
    const syntax = fatal.filter((e) => e.code !== 'RESOURCE_EXHAUSTION');
    const lineOf = (offset: number) => source.lineCounter.linePos(offset).line;
    const message = (err: YAMLError) => yamlMessage(err, source.text);
    for (const problem of explainSyntaxErrors(source.text, syntax, message, lineOf, [directivesFrom, Math.max(until, doc.range[2])])) {
      const diagnostic = source.diagnosticAt('yaml-syntax', problem.message, problem.range);
      if (problem.hint !== undefined) diagnostic.hint = problem.hint;
      this.diagnostics.push(diagnostic);
    }
    // YAML features kurel does not read are errors, never read silently (docs/profiles.md).
    const version = unsupportedVersion(source, doc, start);
    if (version) {
      fatal.push(version.error);
      // The `yaml` package reads later documents of the stream under the same directive.
      if (version.at >= directivesFrom) this.diagnostics.push(version.diagnostic);
    }
    for (const warn of doc.warnings) {
      if (warn.code === 'TAG_RESOLVE_FAILED') {
        fatal.push(warn);
        this.diagnostics.push(source.diagnosticAt('yaml-syntax', describeUnreadTag(source.text, warn), warn.pos));
      } else if (!(version && warn.code === 'BAD_DIRECTIVE')) {
        this.diagnostics.push(yamlErrorDiagnostic(source, warn, 'warning'));
      }
    }
    if (fatal.length > 0) {
      this.data = undefined;
      return;
    }
    const issues: RangedIssue[] = [];
    this.data = toData(
      doc,
      issues,
      (offset) => source.lineCounter.linePos(offset).line,
      (node) => source.anchorLine(node),
    );
    for (const issue of issues) {
      const diagnostic = source.diagnosticAt(issue.code, issue.message, issue.range, issue.path);
      if (issue.hint !== undefined) diagnostic.hint = issue.hint;
      this.diagnostics.push(diagnostic);
    }
  }

  get file(): string {
    return this.source.file;
  }

  /** True when the document has no content (empty or only comments). */
  get isEmpty(): boolean {
    return hasNoContent(this.doc);
  }

  toDiagnostic(issue: Issue): Diagnostic {
    const target = issue.at ?? { path: issue.path, part: issue.part ?? defaultPart(issue.code) };
    const span = this.locate(target.path, target.part);
    const message = boundMessage(span.anchorLine === undefined ? issue.message : `${issue.message} (value from the anchor on line ${span.anchorLine})`);
    const diagnostic: Diagnostic = {
      code: issue.code,
      severity: issue.severity,
      message,
      file: this.file,
      line: span.line,
      column: span.column,
      endLine: span.endLine,
      endColumn: span.endColumn,
      path: toPointer(issue.path),
    };
    if (issue.hint !== undefined) diagnostic.hint = boundMessage(issue.hint);
    if (issue.quote) {
      const written = this.sourceTextAt(issue.path);
      // Only a plain scalar is a number or boolean that quotes would make a string; a huge one is cut before it is quoted.
      if (written !== undefined && !/^["']/.test(written)) {
        const shown = written.length > MAX_MESSAGE_LENGTH ? written.slice(0, MAX_MESSAGE_LENGTH) : written;
        diagnostic.hint = boundMessage(`${issue.quote.lead}: ${JSON.stringify(shown + issue.quote.suffix)}`);
      }
    }
    return diagnostic;
  }

  /**
   * The text of the scalar at `path` as written (`1.30` for what YAML reads as the number 1.3),
   * through aliases and merge keys, or undefined when the path leads to no scalar.
   */
  sourceTextAt(path: Path): string | undefined {
    let node: unknown = this.doc.contents;
    for (const segment of path) {
      if (yaml().isAlias(node)) node = this.resolve(node);
      if (yaml().isMap(node)) node = this.findPair(node, String(segment))?.pair.value;
      else if (yaml().isSeq(node) && typeof segment === 'number') node = node.items[segment];
      else return undefined;
    }
    if (yaml().isAlias(node)) node = this.resolve(node);
    if (!yaml().isScalar(node)) return undefined;
    const [start, end] = rangeOf(node);
    return this.source.text.slice(start, end);
  }

  /** The span of the key or value at `path`; a missing node falls back to its nearest existing ancestor's key. */
  locate(path: Path, part: Part): Span {
    if (part === 'parent') return this.locate(path.slice(0, -1), 'key');
    let node: unknown = this.doc.contents;
    let keyNode: Node | undefined;
    let alias: Alias | undefined;
    let found = 0;
    for (const segment of path) {
      if (yaml().isAlias(node)) {
        alias ??= node;
        node = this.resolve(node);
      }
      if (yaml().isMap(node)) {
        const hit = this.findPair(node, String(segment));
        if (!hit) break;
        if (hit.via) alias ??= hit.via;
        keyNode = hit.pair.key as Node;
        node = hit.pair.value;
      } else if (yaml().isSeq(node) && typeof segment === 'number' && segment >= 0 && segment < node.items.length) {
        keyNode = undefined;
        node = node.items[segment];
      } else {
        break;
      }
      found += 1;
    }
    if (found < path.length) part = 'key';
    // The value itself may be an alias (`name: *n`): point at it and name its anchor too.
    if (part === 'value' && yaml().isAlias(node)) alias ??= node;
    let range: readonly [number, number];
    if (alias) {
      range = rangeOf(alias);
    } else if (part === 'key') {
      range = keyNode ? rangeOf(keyNode) : this.source.firstLine(...rangeOf(node as Node));
    } else {
      const valueNode = node as Node | null;
      const empty = !valueNode || (yaml().isScalar(valueNode) && valueNode.value === null && !valueNode.source);
      range = empty && keyNode ? rangeOf(keyNode) : rangeOf(valueNode);
    }
    const span = this.source.span(range[0], range[1]);
    if (alias) {
      const target = this.resolve(alias);
      if (target) span.anchorLine = this.source.anchorLine(target);
    }
    return span;
  }

  private findPair(map: Node, key: string): { pair: Pair; via?: Alias } | undefined {
    const index = this.indexPairs(map);
    const own = index.own.get(key);
    if (own) return { pair: own };
    // Keys a merge (`<<: *x`) brought in point at the `*x`.
    for (const source of index.merged) {
      const resolved = yaml().isAlias(source) ? this.resolve(source) : (source as Node);
      if (!yaml().isMap(resolved)) continue;
      const hit = this.findPair(resolved, key);
      if (hit) return { pair: hit.pair, via: yaml().isAlias(source) ? source : hit.via };
    }
    return undefined;
  }

  // A map's own keys and merge sources, indexed once: a lookup never rescans the map.
  private indexPairs(map: Node): PairIndex {
    let index = this.pairIndex.get(map);
    if (!index) {
      index = { own: new Map(), merged: [] };
      for (const pair of (map as unknown as { items: Pair[] }).items) {
        const k = pair.key as Node | null;
        if (yaml().isScalar(k) && typeof k.value === 'string' && !index.own.has(k.value)) index.own.set(k.value, pair);
        else if (yaml().isScalar(k) && typeof k.value === 'symbol') {
          if (yaml().isSeq(pair.value)) for (const item of pair.value.items as unknown[]) index.merged.push(item);
          else index.merged.push(pair.value);
        }
      }
      this.pairIndex.set(map, index);
    }
    return index;
  }

  private resolve(alias: Alias): Node | undefined {
    if (!this.anchorIndex) {
      const index = new Map<string, Node[]>();
      yaml().visit(this.doc, {
        Node: (_key, node) => {
          if (node.anchor) {
            const list = index.get(node.anchor) ?? [];
            list.push(node);
            index.set(node.anchor, list);
          }
        },
      });
      this.anchorIndex = index;
    }
    // Nodes of one anchor name are listed in document order; the alias means the last one before it.
    const nodes = this.anchorIndex.get(alias.source) ?? [];
    const at = rangeOf(alias)[0];
    let low = 0;
    let high = nodes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (rangeOf(nodes[middle])[0] < at) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? undefined : nodes[low - 1];
  }
}

/** A map's string keys (the first of each name) and the sources of its merge keys, in order. */
interface PairIndex {
  own: Map<string, Pair>;
  merged: unknown[];
}

/** A file read as a YAML stream: its documents and the problems of the file as a whole. */
export interface YamlStream {
  source: SourceText;
  /** Documents in order; trailing empty documents are dropped. */
  documents: SourceDocument[];
  /** Problems that belong to no document (undecodable bytes). */
  diagnostics: Diagnostic[];
}

/**
 * Parses text or bytes as YAML 1.2 (core schema, merge keys on, integers beyond 2^53 kept
 * exact), keeping source ranges for every node. Never throws on bad input.
 */
export function parseYamlStream(input: string | Uint8Array, file: string): YamlStream {
  let text: string;
  const diagnostics: Diagnostic[] = [];
  if (typeof input === 'string') {
    text = stripBom(input);
  } else {
    const decoded = decodeText(input);
    if (!decoded.ok) {
      const source = new SourceText(file, stripBom(decoded.text));
      indexLines(source);
      const offset = Math.max(0, decoded.offset - (decoded.text.length - source.text.length));
      diagnostics.push(source.diagnosticAt('yaml-syntax', decoded.message, [offset, offset + 1]));
      return { source, documents: [], diagnostics };
    }
    text = stripBom(decoded.text);
  }
  const source = new SourceText(file, text);
  let docs: ParsedDocument[];
  try {
    docs = parseDocuments(source);
  } catch (err) {
    // The parser recurses per nesting level; a stack overflow means absurd depth.
    if (!(err instanceof RangeError || err instanceof SurelyTooDeep)) throw err;
    indexLines(source);
    const at = (err instanceof SurelyTooDeep ? findTooDeep(source.text, err.offset + 1) : findTooDeep(source.text)) ?? 0;
    diagnostics.push(source.diagnosticAt('too-deep', TOO_DEEP, [at, at + 1]));
    return { source, documents: [], diagnostics };
  }
  const documents = docs.map(({ doc, directivesFrom, until }) => new SourceDocument(source, doc, doc.range[0], directivesFrom, until));
  while (documents.length > 0 && documents[documents.length - 1]!.isEmpty && documents[documents.length - 1]!.diagnostics.length === 0) {
    documents.pop();
  }
  return { source, documents, diagnostics };
}

// `!!float 1` is the number 1 in YAML 1.2's core schema; the `yaml` package's float tags only
// match what an untagged float looks like. Tried after them, and never for an untagged
// scalar, which the integer tag matches first.
const FLOAT_WRITTEN_AS_INTEGER: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  test: /^[-+]?[0-9]+$/,
  resolve: (text: string) => Number(text),
};

/** Thrown while parsing a text that nests far beyond the depth limit, with the offset the watch gave. */
class SurelyTooDeep extends Error {
  constructor(readonly offset: number) {
    super('the text nests too deep to parse');
  }
}

// The documents of a text, as `parseAllDocuments` gives them (YAML 1.2 core schema, merge keys,
// integers beyond 2^53 kept exact). A text with enough collection openers is lexed under a
// watch that stops the parse once it surely nests too deep, before the parser holds it.
function parseDocuments(source: SourceText): ParsedDocument[] {
  const text = withoutEmptyRuns(source.text);
  const options = {
    // Merge-key support costs a fifth of the parse; text without `<<` cannot use it.
    merge: text.includes('<<'),
    intAsBigInt: true,
    uniqueKeys: false,
    prettyErrors: false,
    strict: true,
    // YAML 1.1 types (!!binary, !!timestamp, !!set, ...) are unresolved tags, reported as such.
    resolveKnownTags: false,
    customTags: [FLOAT_WRITTEN_AS_INTEGER],
  };
  // The parser counts no lines: the line index is built from the text once the documents are read.
  const parser = new (yaml().Parser)();
  let tokens: Iterable<CST.Token>;
  if (NestingWatch.isNeeded(text)) {
    tokens = watchedTokens(text, parser, new NestingWatch());
  } else {
    tokens = parser.parse(text);
  }
  const documents: ParsedDocument[] = [];
  let previousEnd = 0;
  let blankRun = 0;
  for (const doc of new (yaml().Composer)(options).compose(tokens) as Iterable<Document.Parsed>) {
    // Two blank documents in a row stand for any longer run: none after them changes a verdict,
    // and keeping each would cost memory per `---` of the input.
    blankRun = isBlank(doc) ? blankRun + 1 : 0;
    const last = documents[documents.length - 1];
    if (last && last.until === undefined) last.until = doc.range[0];
    if (blankRun <= 2) documents.push({ doc, directivesFrom: previousEnd, until: undefined });
    previousEnd = doc.range[2];
  }
  const last = documents[documents.length - 1];
  if (last && last.until === undefined) last.until = text.length;
  // The line index comes from the text, never from what a parser counts as it reads: that
  // differs past the last line for a scalar left open at the end, and past a syntax error that
  // stopped the parse, and it would depend on whether runs of marker lines were collapsed.
  indexLines(source);
  return documents;
}

/** A document as the parser gave it, with where the text of its own directives may start. */
interface ParsedDocument {
  doc: Document.Parsed;
  directivesFrom: number;
  /** Where the next document starts (the end of the text for the last). */
  until: number | undefined;
}

// No content, no directive, nothing the parser said about it: what `---` alone gives.
function isBlank(doc: Document.Parsed): boolean {
  return hasNoContent(doc) && doc.errors.length === 0 && doc.warnings.length === 0 && !doc.directives?.yaml.explicit;
}

// Empty or only comments: no node, or the empty scalar the parser gives a document with none.
function hasNoContent(doc: Document.Parsed): boolean {
  const contents = doc.contents;
  return contents === null || (yaml().isScalar(contents) && contents.value === null && contents.source === '');
}

/**
 * The text the parser reads: in each run of three or more `---` lines, the lines between the
 * first and the last become one line of spaces of the same length; in each run of four or more
 * `...` lines, those between the second and the last. The parser then builds two or three
 * empty documents for the run instead of one per line (each cost it more than a thousand bytes
 * and a line to lex, and a `...` line about 10 µs), while every offset and verdict stays what it
 * was: the empty documents it still builds are the run's first two and its last, an empty
 * document in the middle of a stream changes no verdict beyond the first one (the second
 * document of a profile), and those at the end are dropped. A run that mixes the two markers,
 * or holds comments (`--- # c`, `# c`) or blank lines between them, is collapsed the same way
 * whatever its order: its lines up to its third marker line are kept, and those between that
 * and its last marker line blanked, so an alternation (`---`, `...`, `---`, …) costs what one
 * marker does. A comment holding `kurel-disable` ends a run, so every suppression comment is
 * read. The line index is then built from the real text.
 */
export function withoutEmptyRuns(text: string): string {
  if (!isCollapsingRuns || (!text.includes('---') && !text.includes('...'))) return text;
  // Scanned line by line: a regular expression over a run of millions of lines overflows its stack.
  const parts: string[] = [];
  let copied = 0;
  // The run being read: its first marker, the start of its first and of its last marker line,
  // its marker lines, whether it is one marker alone (no comment, no other line), and where
  // its third marker line ends.
  let marker = '';
  let runStart = -1;
  let runLast = -1;
  let markers = 0;
  let isPure = true;
  let thirdEnd = -1;
  // A blank or comment line read since the run's last marker line: part of the run only if another marker follows.
  let quietSince = false;
  const flush = () => {
    if (isPure) {
      // `---` keeps its first line, `...` its first two: the document the second line ends is the run's first empty one.
      const kept = marker === '---' ? 1 : 2;
      if (markers >= kept + 2) {
        let from = runStart;
        for (let line = 0; line < kept; line++) from = text.indexOf('\n', from) + 1;
        blank(from);
      }
    } else if (markers >= 4 && runLast > thirdEnd) {
      blank(thirdEnd);
    }
    markers = 0;
    isPure = true;
    quietSince = false;
  };
  // The lines from `from` to the run's last marker line become one line of spaces.
  const blank = (from: number) => {
    parts.push(text.slice(copied, from), ' '.repeat(runLast - from - 1), '\n');
    copied = runLast;
  };
  for (let at = 0; at < text.length; ) {
    const line = quietLineOf(text, at);
    if (line?.marker) {
      if (markers === 0) {
        runStart = at;
        marker = line.marker;
      } else if (line.marker !== marker || quietSince) {
        isPure = false;
      }
      if (line.hasComment) isPure = false;
      markers++;
      if (markers === 3) thirdEnd = line.end;
      runLast = at;
      quietSince = false;
      at = line.end;
      continue;
    }
    if (line && markers > 0) {
      quietSince = true;
      at = line.end;
      continue;
    }
    if (markers > 0) flush();
    const newline = text.indexOf('\n', at);
    at = newline === -1 ? text.length : newline + 1;
  }
  if (markers > 0) flush();
  if (parts.length === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

let isCollapsingRuns = true;

/**
 * Runs `work` (synchronous) with every run of marker lines parsed as written: the differential
 * test compares the verdicts both ways.
 */
export function withRunsAsWritten<T>(work: () => T): T {
  const outer = isCollapsingRuns;
  isCollapsingRuns = false;
  try {
    return work();
  } finally {
    isCollapsingRuns = outer;
  }
}

const MARKERS = ['---', '...'] as const;

/**
 * A line starting at `at` that holds no content, with the offset after it: a `---` or `...`
 * line (trailing blanks and a comment allowed), a blank line, or a comment line; undefined for
 * any other line, for a comment holding `kurel-disable` and for a last line without a newline.
 */
function quietLineOf(text: string, at: number): { marker: '---' | '...' | undefined; hasComment: boolean; end: number } | undefined {
  const marker = MARKERS.find((m) => text.startsWith(m, at));
  let i = marker ? at + 3 : at;
  const afterMarker = i;
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i++;
  let hasComment = false;
  // A comment follows a blank, or starts the line.
  if (text.charCodeAt(i) === 0x23 && (i > afterMarker || !marker)) {
    const newline = text.indexOf('\n', i);
    if (newline === -1) return undefined;
    const comment = text.slice(i, newline);
    if (comment.includes(SUPPRESSION_KEYWORD)) return undefined;
    hasComment = true;
    i = newline;
    return { marker, hasComment, end: i + 1 };
  }
  if (text.charCodeAt(i) === 0x0d) i++;
  return text.charCodeAt(i) === 0x0a ? { marker, hasComment, end: i + 1 } : undefined;
}

function* watchedTokens(text: string, parser: Parser, watch: NestingWatch): Generator<CST.Token> {
  // What `Parser.parse` does, with each lexeme shown to the watch first.
  for (const lexeme of new (yaml().Lexer)().lex(text)) {
    const offset = watch.see(lexeme);
    if (offset !== undefined) throw new SurelyTooDeep(offset);
    yield* parser.next(lexeme);
  }
  yield* parser.end();
}

/**
 * The text a parse of `input` reads (decoded, without a byte order mark) as a run keeps it to
 * print lines, without parsing it: for a file whose problems were found by an earlier run.
 */
export function keptSourceText(file: string, input: string | Uint8Array): SourceText {
  return new SourceText(file, stripBom(typeof input === 'string' ? input : decodeText(input).text), true);
}

/** A text with its line index filled, as a parse leaves it (for a text that crossed a thread without its parse). */
export function indexedSourceText(file: string, text: string): SourceText {
  const source = new SourceText(file, text);
  indexLines(source);
  return source;
}

// Fills the line index when the parser did not get to (it fills it as it reads).
function indexLines(source: SourceText): void {
  source.indexFromText();
}

const TOO_DEEP = `nesting deeper than ${LIMITS.maxDepth} levels is not accepted`;

/** The `too-deep` diagnostic of a text whose first collection beyond the depth limit starts at `offset`. */
export function tooDeepDiagnostic(file: string, text: string, offset: number): Diagnostic {
  const source = new SourceText(file, text);
  indexLines(source);
  return source.diagnosticAt('too-deep', TOO_DEEP, [offset, offset + 1]);
}

/** The core tags of YAML 1.2 (docs/profiles.md), and the non-specific `!`, are the only tags read. */
const CORE_TAGS = '!!str, !!int, !!float, !!bool, !!null, !!map, !!seq';
const YAML_ORG = 'tag:yaml.org,2002:';
// YAML 1.1 types the `yaml` package would read, were its known tags not turned off.
const YAML_1_1_TYPES = new Set(['binary', 'omap', 'pairs', 'set', 'timestamp']);
const CORE_VALUES: Readonly<Record<string, string>> = {
  int: 'an integer',
  float: 'a number',
  bool: 'true or false',
  null: 'null (empty, ~ or null)',
};

// Why a tag the parser could not resolve is not read: a YAML 1.1 type, a value its core tag
// cannot hold, or a tag kurel does not know.
function describeUnreadTag(text: string, warning: YAMLError): string {
  const written = text.slice(warning.pos[0], warning.pos[1]);
  const name = /Unresolved tag: (\S+)/.exec(warning.message)?.[1] ?? written;
  const short = name.startsWith(YAML_ORG) ? `!!${name.slice(YAML_ORG.length)}` : name;
  const type = name.startsWith(YAML_ORG) ? name.slice(YAML_ORG.length) : '';
  if (YAML_1_1_TYPES.has(type))
    return `the tag ${short} is a YAML 1.1 type kurel does not read: kurel reads YAML 1.2 data, with no tag or a core one (${CORE_TAGS})`;
  const expected = CORE_VALUES[type];
  if (expected) return `the value tagged ${short} is not ${expected}`;
  return `unknown tag ${short}: kurel reads YAML 1.2 data, with no tag or a core one (${CORE_TAGS})`;
}

// A `%YAML` directive for another version than 1.2, as an error at the directive.
function unsupportedVersion(source: SourceText, doc: Document.Parsed, start: number): { at: number; error: YAMLError; diagnostic: Diagnostic } | undefined {
  if (!doc.directives?.yaml.explicit) return undefined;
  // The directive is on a line of its own before the document's `---`.
  let at = source.text.lastIndexOf('%YAML', start);
  while (at > 0 && source.text.charCodeAt(at - 1) !== 0x0a) at = source.text.lastIndexOf('%YAML', at - 1);
  if (at === -1) return undefined;
  const written = /^%YAML[ \t]+([^\s#]+)/.exec(source.text.slice(at, at + 64))?.[1];
  if (written === undefined || written === '1.2') return undefined;
  const range: [number, number] = [at, at + 6 + written.length];
  const message = `%YAML ${written} is not supported: kurel reads YAML 1.2 only, where on, 0777 and 1:20 are read as written; remove the directive`;
  return { at, error: new (yaml().YAMLParseError)(range, 'BAD_DIRECTIVE', message), diagnostic: source.diagnosticAt('yaml-syntax', message, range) };
}

function yamlErrorDiagnostic(source: SourceText, err: YAMLError, severity: 'error' | 'warning' = 'error'): Diagnostic {
  if (err.code === 'RESOURCE_EXHAUSTION') {
    // The parser gave up where its call stack ran out; point where the documented limit is passed.
    const at = findTooDeep(source.text, err.pos[1]);
    return source.diagnosticAt('too-deep', TOO_DEEP, at === undefined ? err.pos : [at, at + 1], [], severity);
  }
  return source.diagnosticAt('yaml-syntax', yamlMessage(err, source.text), err.pos, [], severity);
}

// The parser's message for a token it did not expect, which quotes the token as the parser read it.
const UNEXPECTED_TOKEN = /^(Unexpected [\w-]+ token in YAML stream): "/;

/**
 * The parser's message in kurel's style: lowercase, no position, no trailing period. A token it
 * quotes is quoted from `text`: the parser read runs of marker lines blanked (`withoutEmptyRuns`).
 */
function yamlMessage(err: YAMLError, text: string): string {
  let written = err.message;
  const unexpected = err.code === 'UNEXPECTED_TOKEN' ? UNEXPECTED_TOKEN.exec(written) : null;
  if (unexpected) written = `${unexpected[1]}: ${JSON.stringify(text.slice(err.pos[0], err.pos[1]))}`;
  const cut = written.indexOf(' at line ');
  const message = (cut === -1 ? written : written.slice(0, cut)).trim();
  return message.charAt(0).toLowerCase() + message.slice(1).replace(/\.$/, '');
}
