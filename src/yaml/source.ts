import { type Alias, type Document, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, type Pair, parseAllDocuments, visit, type YAMLError } from 'yaml';
import { type Diagnostic, type DiagnosticCode, defaultPart, type Issue, type Part, type Path, toPointer } from '../core/diagnostics.js';
import { LIMITS } from '../core/limits.js';
import { decodeText, stripBom } from './decode.js';
import { findTooDeep } from './depth.js';
import { explainSyntaxErrors } from './syntax-errors.js';
import { type RangedIssue, rangeOf, toData } from './to-data.js';

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
  readonly lineCounter = new LineCounter();
  constructor(
    readonly file: string,
    readonly text: string,
  ) {}

  /** The 1-based line/column span of offsets [start, end). */
  span(start: number, end: number): Span {
    const a = this.lineCounter.linePos(start);
    const b = this.lineCounter.linePos(Math.max(start, end));
    return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
  }

  /** Offsets [start, end) cut at the end of the start line. */
  firstLine(start: number, end: number): readonly [number, number] {
    const newline = this.text.indexOf('\n', start);
    return [start, newline === -1 || newline > end ? end : newline];
  }

  /**
   * The line of a node's `&anchor`. The parser keeps no offset for it, so it is found by
   * looking back from the node's start (a block map's anchor sits on the line above it).
   */
  anchorLine(node: Node): number {
    const start = rangeOf(node)[0];
    const token = `&${node.anchor ?? ''}`;
    let at = node.anchor ? this.text.lastIndexOf(token, start) : -1;
    while (at !== -1 && !/^[\s,[\]{}]?$/.test(this.text.charAt(at + token.length))) at = at === 0 ? -1 : this.text.lastIndexOf(token, at - 1);
    return this.lineCounter.linePos(at === -1 ? start : at).line;
  }

  /** A diagnostic at source offsets. */
  diagnosticAt(code: DiagnosticCode, message: string, range: readonly [number, number], path: Path = [], severity: 'error' | 'warning' = 'error'): Diagnostic {
    return { code, severity, message, file: this.file, ...this.span(range[0], range[1]), path: toPointer(path) };
  }
}

/** One YAML document of a file: its data and a way back from paths to positions. */
export class SourceDocument implements Locatable {
  /** Problems found while reading this document (syntax, keys, limits). */
  readonly diagnostics: Diagnostic[] = [];
  /** The document's data, or `undefined` when it could not be read. */
  readonly data: unknown;
  private pairIndex = new WeakMap<Node, Map<string, Pair>>();
  private anchorIndex: Map<string, Node[]> | undefined;

  constructor(
    readonly source: SourceText,
    readonly doc: Document.Parsed,
    /** Offset where the document starts (its `---` when it has one). */
    readonly start: number,
  ) {
    const fatal = doc.errors.filter((e) => e.code !== 'DUPLICATE_KEY');
    // The parser may overflow its stack more than once on one deep document; once is enough.
    const exhausted = fatal.find((e) => e.code === 'RESOURCE_EXHAUSTION');
    if (exhausted) this.diagnostics.push(yamlErrorDiagnostic(source, exhausted));
    const syntax = fatal.filter((e) => e.code !== 'RESOURCE_EXHAUSTION');
    for (const problem of explainSyntaxErrors(source.text, syntax, yamlMessage, (offset) => source.lineCounter.linePos(offset).line)) {
      const diagnostic = source.diagnosticAt('yaml-syntax', problem.message, problem.range);
      if (problem.hint !== undefined) diagnostic.hint = problem.hint;
      this.diagnostics.push(diagnostic);
    }
    for (const warn of doc.warnings) this.diagnostics.push(yamlErrorDiagnostic(source, warn, 'warning'));
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
    return this.doc.contents === null || (isScalar(this.doc.contents) && this.doc.contents.value === null && this.doc.contents.source === '');
  }

  toDiagnostic(issue: Issue): Diagnostic {
    const target = issue.at ?? { path: issue.path, part: issue.part ?? defaultPart(issue.code) };
    const span = this.locate(target.path, target.part);
    const message = span.anchorLine === undefined ? issue.message : `${issue.message} (value from the anchor on line ${span.anchorLine})`;
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
    if (issue.hint !== undefined) diagnostic.hint = issue.hint;
    if (issue.quote) {
      const written = this.sourceTextAt(issue.path);
      // Only a plain scalar is a number or boolean that quotes would make a string.
      if (written !== undefined && !/^["']/.test(written)) diagnostic.hint = `${issue.quote.lead}: ${JSON.stringify(written + issue.quote.suffix)}`;
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
      if (isAlias(node)) node = this.resolve(node);
      if (isMap(node)) node = this.findPair(node, String(segment))?.pair.value;
      else if (isSeq(node) && typeof segment === 'number') node = node.items[segment];
      else return undefined;
    }
    if (isAlias(node)) node = this.resolve(node);
    if (!isScalar(node)) return undefined;
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
      if (isAlias(node)) {
        alias ??= node;
        node = this.resolve(node);
      }
      if (isMap(node)) {
        const hit = this.findPair(node, String(segment));
        if (!hit) break;
        if (hit.via) alias ??= hit.via;
        keyNode = hit.pair.key as Node;
        node = hit.pair.value;
      } else if (isSeq(node) && typeof segment === 'number' && segment >= 0 && segment < node.items.length) {
        keyNode = undefined;
        node = node.items[segment];
      } else {
        break;
      }
      found += 1;
    }
    if (found < path.length) part = 'key';
    // The value itself may be an alias (`name: *n`): point at it and name its anchor too.
    if (part === 'value' && isAlias(node)) alias ??= node;
    let range: readonly [number, number];
    if (alias) {
      range = rangeOf(alias);
    } else if (part === 'key') {
      range = keyNode ? rangeOf(keyNode) : this.source.firstLine(...rangeOf(node as Node));
    } else {
      const valueNode = node as Node | null;
      const empty = !valueNode || (isScalar(valueNode) && valueNode.value === null && !valueNode.source);
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
    const own = this.indexPairs(map).get(key);
    if (own) return { pair: own };
    // Keys a merge (`<<: *x`) brought in point at the `*x`.
    for (const pair of (map as unknown as { items: Pair[] }).items) {
      const k = pair.key as Node | null;
      if (!(isScalar(k) && typeof k.value === 'symbol')) continue;
      const sources = isSeq(pair.value) ? (pair.value.items as unknown[]) : [pair.value];
      for (const source of sources) {
        const resolved = isAlias(source) ? this.resolve(source) : (source as Node);
        if (!isMap(resolved)) continue;
        const hit = this.findPair(resolved, key);
        if (hit) return { pair: hit.pair, via: isAlias(source) ? source : hit.via };
      }
    }
    return undefined;
  }

  private indexPairs(map: Node): Map<string, Pair> {
    let index = this.pairIndex.get(map);
    if (!index) {
      index = new Map();
      for (const pair of (map as unknown as { items: Pair[] }).items) {
        const k = pair.key as Node | null;
        if (isScalar(k) && typeof k.value === 'string' && !index.has(k.value)) index.set(k.value, pair);
      }
      this.pairIndex.set(map, index);
    }
    return index;
  }

  private resolve(alias: Alias): Node | undefined {
    if (!this.anchorIndex) {
      const index = new Map<string, Node[]>();
      visit(this.doc, {
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
    const at = rangeOf(alias)[0];
    let match: Node | undefined;
    for (const node of this.anchorIndex.get(alias.source) ?? []) {
      if (rangeOf(node)[0] < at) match = node;
    }
    return match;
  }
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
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, {
      lineCounter: source.lineCounter,
      // Merge-key support costs a fifth of the parse; text without `<<` cannot use it.
      merge: text.includes('<<'),
      intAsBigInt: true,
      uniqueKeys: false,
      prettyErrors: false,
      strict: true,
    }) as unknown as Document.Parsed[];
  } catch (err) {
    // The parser recurses per nesting level; a stack overflow means absurd depth.
    if (!(err instanceof RangeError)) throw err;
    indexLines(source);
    const at = findTooDeep(source.text) ?? 0;
    diagnostics.push(source.diagnosticAt('too-deep', TOO_DEEP, [at, at + 1]));
    return { source, documents: [], diagnostics };
  }
  if (source.lineCounter.lineStarts.length === 0) indexLines(source);
  const documents = docs.map((doc) => new SourceDocument(source, doc, doc.range[0]));
  while (documents.length > 0 && documents[documents.length - 1]!.isEmpty && documents[documents.length - 1]!.diagnostics.length === 0) {
    documents.pop();
  }
  return { source, documents, diagnostics };
}

// Fills the line index when the parser did not get to (it fills it as it reads).
function indexLines(source: SourceText): void {
  const lc = source.lineCounter;
  lc.lineStarts.length = 0;
  lc.addNewLine(0);
  for (let i = source.text.indexOf('\n'); i !== -1; i = source.text.indexOf('\n', i + 1)) lc.addNewLine(i + 1);
}

const TOO_DEEP = `nesting deeper than ${LIMITS.maxDepth} levels is not accepted`;

function yamlErrorDiagnostic(source: SourceText, err: YAMLError, severity: 'error' | 'warning' = 'error'): Diagnostic {
  if (err.code === 'RESOURCE_EXHAUSTION') {
    // The parser gave up where its call stack ran out; point where the documented limit is passed.
    const at = findTooDeep(source.text, err.pos[1]);
    return source.diagnosticAt('too-deep', TOO_DEEP, at === undefined ? err.pos : [at, at + 1], [], severity);
  }
  return source.diagnosticAt('yaml-syntax', yamlMessage(err), err.pos, [], severity);
}

/** The parser's message in kurel's style: lowercase, no position, no trailing period. */
function yamlMessage(err: YAMLError): string {
  const cut = err.message.indexOf(' at line ');
  const message = (cut === -1 ? err.message : err.message.slice(0, cut)).trim();
  return message.charAt(0).toLowerCase() + message.slice(1).replace(/\.$/, '');
}
