import { isMap } from '../core/data.js';
import type { Diagnostic, Issue, Part, Path } from '../core/diagnostics.js';
import { decodeText } from './decode.js';
import { hasLongLine, readFast } from './fast-read.js';
import { isYamlFaithfulJson } from './json-fidelity.js';
import { ScannedDocument, UNSURE } from './locate-by-scan.js';
import { parseYamlStream, type SourceDocument, type SourceText, type Span, type YamlDocument } from './source.js';
import { SUPPRESSION_KEYWORD } from './suppression-comments.js';

/** A file read as YAML: its documents and the problems of the file as a whole. */
export interface YamlRead {
  /** The file's text and line index; built on first use when the fast path read the file. */
  readonly source: SourceText;
  /** Documents in order; trailing empty documents are dropped. */
  readonly documents: readonly YamlDocument[];
  /** Problems that belong to no document (undecodable bytes, absurd nesting). */
  readonly diagnostics: readonly Diagnostic[];
  /** True when the fast path read the text (it then holds no `kurel-disable`). */
  readonly isFast?: boolean;
}

let isFastPathOn = true;

/**
 * Runs `work` (synchronous) with the fast path off, every text read by the full reader: the
 * differential test compares whole runs with and without it.
 */
export function withoutFastPath<T>(work: () => T): T {
  const outer = isFastPathOn;
  isFastPathOn = false;
  try {
    return work();
  } finally {
    isFastPathOn = outer;
  }
}

/**
 * Reads text or bytes as {@link parseYamlStream} does, through the fast path of docs/performance.md
 * when it can: a text `readFast` reads (one clean map, inside the subset proven to read alike)
 * becomes one document holding the fast parser's data and no diagnostics, positioned by a
 * scan of its text when a position is asked ({@link ScannedDocument}) and parsed by the full
 * reader only for what the scan is not sure of. Every other text goes to the full reader.
 * Never throws on bad input.
 */
export function readYaml(input: string | Uint8Array, file: string): YamlRead {
  if (!isFastPathOn) return parseYamlStream(input, file);
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    const decoded = decodeText(input);
    if (!decoded.ok) return parseYamlStream(input, file);
    text = decoded.text;
  }
  const json = readJsonObject(text);
  if (json !== undefined) return new FastRead(new FastDocument(file, text, json));
  const fast = readFast(text);
  if (!fast.ok) return parseYamlStream(text, file);
  return new FastRead(new FastDocument(file, text, fast.data));
}

// JSON is YAML 1.2, and a JSON file spans lines the YAML fast path leaves to the full reader.
// Characters whose YAML reading was not compared with JSON's: tabs, escapes, control
// characters but line ends, a carriage return alone, Unicode line separators, byte order marks.
const JSON_UNSURE = /[\t\\\ufeff\u2028\u2029]|[^\P{Cc}\n\r]|\r(?!\n)/u;
const FIRST_CONTENT = /^[ \r\n]*\{/;

/**
 * The data of a JSON object text when `JSON.parse` gives exactly what the YAML reader gives
 * for it and the YAML reader reports nothing about it ({@link isYamlFaithfulJson}: no repeated
 * member, no number read differently, nothing near the depth limit; no line long enough for
 * YAML's limit on keys); otherwise undefined, and the text is read as YAML.
 */
function readJsonObject(input: string): Record<string, unknown> | undefined {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  // Like the YAML fast path, it leaves every text mentioning a suppression to the full reader (docs/profiles.md).
  if (!FIRST_CONTENT.test(text) || JSON_UNSURE.test(text) || text.includes(SUPPRESSION_KEYWORD) || hasLongLine(text)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isMap(data) && isYamlFaithfulJson(text, data) ? data : undefined;
}

// Classes, not object literals with getters: V8 gives each such literal a shape of its own,
// and on a run over many files they outlived the young generation (about 5 MB promoted per
// 1,000 files, most of the peak memory over the parse-only floor).

/** A file the fast path read: one document, and no problem of the file itself. */
class FastRead implements YamlRead {
  readonly documents: readonly YamlDocument[];
  readonly diagnostics: readonly Diagnostic[] = [];
  readonly isFast = true;

  constructor(private readonly document: FastDocument) {
    this.documents = [document];
  }

  get source(): SourceText {
    return this.document.source;
  }
}

/**
 * A document the fast path read: its data is exactly what the full reader gives, and the full
 * reader would report nothing about it. Positions and quotes of its source come from a scan of
 * the text; the full reader runs once, lazily, only when the scan is not sure of one.
 */
class FastDocument implements YamlDocument {
  readonly diagnostics: readonly Diagnostic[] = [];
  readonly isEmpty = false;
  private full: SourceDocument | undefined;
  // Positions found by a scan of the text (docs/performance.md); null when the scan was not sure of it.
  private scan: ScannedDocument | null | undefined;

  constructor(
    readonly file: string,
    private readonly text: string,
    readonly data: Record<string, unknown>,
  ) {}

  get source(): SourceText {
    return this.full?.source ?? this.scanned()?.source ?? this.positioned().source;
  }

  get start(): number {
    return this.positioned().start;
  }

  toDiagnostic(issue: Issue): Diagnostic {
    return this.scanned()?.toDiagnostic(issue) ?? this.positioned().toDiagnostic(issue);
  }

  sourceTextAt(path: Path): string | undefined {
    const scanned = this.scanned();
    const written = scanned ? scanned.sourceTextAt(path) : UNSURE;
    return written === UNSURE ? this.positioned().sourceTextAt(path) : written;
  }

  locate(path: Path, part: Part): Span {
    const span = this.scanned()?.locate(path, part) ?? UNSURE;
    return span === UNSURE ? this.positioned().locate(path, part) : span;
  }

  // The scan runs once, and only when a position is asked; once the full reader ran, it answers.
  private scanned(): ScannedDocument | undefined {
    if (this.full) return undefined;
    if (this.scan === undefined) this.scan = ScannedDocument.of(this.file, this.text) ?? null;
    return this.scan ?? undefined;
  }

  private positioned(): SourceDocument {
    if (this.full) return this.full;
    const stream = parseYamlStream(this.text, this.file);
    const only = stream.documents[0];
    // The differential test proves the full reader finds one clean document wherever the fast path reads one.
    if (stream.documents.length !== 1 || !only || only.diagnostics.length > 0) {
      throw new Error(`the fast YAML path read ${this.file}, which the full reader does not read as one clean document`);
    }
    this.full = only;
    return only;
  }
}
