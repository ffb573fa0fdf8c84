import { basename } from 'node:path';
import { appendAll, describeValue, isMap } from '../core/data.js';
import { type Diagnostic, error, hasErrors } from '../core/diagnostics.js';
import type { FileReport, InputFile } from '../core/input.js';
import { didYouMean } from '../core/suggest.js';
import { readYaml, type YamlRead } from '../yaml/read-yaml.js';
import { parseYamlStream, type SourceText, type YamlDocument } from '../yaml/source.js';
import { LOCK_KIND } from './capability-lock.js';
import { API_GROUP } from './common.js';
import { CONFIG_FILE_NAME } from './kurel-config.js';

/** The kinds of document kurel reads. */
export const PROFILE = 'ClusterProfile';
export const DEFINITION = 'CapabilityDefinition';

/** One input file read and sorted by kind. */
export interface ReadInput {
  /** The file's text and line index (built on first use when the fast path read the file). */
  readonly source: SourceText;
  report: FileReport;
  /** Problems of the file itself: syntax, a second document, a wrong or missing kind. */
  diagnostics: Diagnostic[];
  /** The file's single document when it is the kind the input is read for (a profile, an application). */
  document: YamlDocument | undefined;
  /** True when reading the file found no error (a profile read with errors gets no `resolved`). */
  clean: boolean;
  /** CapabilityDefinition documents found in the file (those whose data could be read). */
  definitions: YamlDocument[];
  /** True when the fast path read the file: the full reader has not run, and the text holds no suppression comment. */
  readonly isFast?: boolean;
}

/**
 * Reads an input file and sorts it by kind (docs/profiles.md): a ClusterProfile (or, for an
 * `application` input, an Application) must be the file's only document; CapabilityDefinition
 * documents are collected from every document of a definition file; anything else is an error
 * when the file was named, and skipped in a folder. Never throws.
 */
export function readInput(input: InputFile): ReadInput {
  if (input.origin === 'directory' && basename(input.file) === CONFIG_FILE_NAME) {
    // Found by a folder search, the configuration is listed, never read as an input (docs/profiles.md).
    const skipped = parseYamlStream('', input.file);
    const report: FileReport = { path: input.file, kind: 'unknown', status: 'skipped', reason: `${CONFIG_FILE_NAME} configures kurel; it is not linted` };
    return { source: skipped.source, report, diagnostics: [], document: undefined, clean: false, definitions: [] };
  }
  const stream = readYaml(input.content, input.file);
  const out = new FileReading(stream, input.file);
  if (stream.diagnostics.length > 0) return out;
  const documents = stream.documents;
  const named = input.origin === 'argument' || input.origin === 'profile' || input.origin === 'document';
  const expected = expectedKinds(input);
  if (documents.length === 0 || documents.every((d) => d.isEmpty && d.diagnostics.length === 0)) {
    if (named) {
      out.diagnostics.push(stream.source.diagnosticAt('empty-document', `the file is empty or holds only comments; expected ${article(expected)}`, [0, 0]));
    } else {
      out.report = { path: input.file, kind: 'unknown', status: 'skipped', reason: 'the file holds no documents' };
    }
    return out;
  }
  const kinds = documents.map((d) => kindOf(d.data));
  const first = documents[0]!;
  for (const d of documents) appendAll(out.diagnostics, d.diagnostics);
  if (documents.every((d) => d.data === undefined)) return out;

  if (input.origin === 'document' || (kinds[0] === PROFILE && input.origin !== 'definition')) {
    const kind = input.origin === 'document' ? expected : PROFILE;
    out.report = { path: input.file, kind, status: 'checked' };
    if (documents.length > 1) {
      const second = documents[1]!;
      const message = `the file holds exactly one document (${article(kind)}); found a second one`;
      out.diagnostics.push(stream.source.diagnosticAt('multiple-documents', message, [second.start, second.start + 3]));
    }
    out.clean = documents.length === 1 && !hasErrors(first.diagnostics);
    out.document = first.data === undefined ? undefined : first;
    return out;
  }
  const definitionIndexes = kinds.flatMap((k, i) => (k === DEFINITION ? [i] : []));
  if (definitionIndexes.length > 0 && input.origin !== 'profile') {
    out.report = { path: input.file, kind: DEFINITION, status: 'checked' };
    for (const i of definitionIndexes) if (documents[i]!.data !== undefined) out.definitions.push(documents[i]!);
    return out;
  }
  if (named) {
    out.report = { path: input.file, kind: kinds[0] ?? 'unknown', status: 'checked' };
    if (first.data !== undefined) out.diagnostics.push(first.toDiagnostic(kindIssue(first.data, expected)));
    return out;
  }
  // In a folder, a document that says it is kurel's (its apiVersion) but names no kind kurel
  // knows is a mistake, not some other tool's file (docs/configuration.md): ClusterProfle is never skipped.
  const mistaken = documents.filter((d) => isKurelDocument(d.data) && !KNOWN_KINDS.includes(kindOf(d.data) ?? ''));
  if (mistaken.length > 0) {
    out.report = { path: input.file, kind: kinds[0] ?? 'unknown', status: 'checked' };
    for (const d of mistaken) out.diagnostics.push(d.toDiagnostic(kindIssue(d.data, `${PROFILE} or ${DEFINITION}`)));
    return out;
  }
  const kind = kinds[0] ?? 'unknown';
  const reason = kinds[0] === undefined ? 'no kind: not a kurel document' : `kind ${kind} is not linted`;
  out.report = { path: input.file, kind, status: 'skipped', reason };
  return out;
}

/** Every kind of document kurel has: lint checks the first two and skips the others in a folder. */
export const KNOWN_KINDS: readonly string[] = [PROFILE, DEFINITION, 'Application', LOCK_KIND];

/** True for a document whose `apiVersion` is kurel's group (`launcher.gokure.dev/…`), whatever its version. */
function isKurelDocument(data: unknown): boolean {
  return isMap(data) && typeof data['apiVersion'] === 'string' && data['apiVersion'].startsWith(`${API_GROUP}/`);
}

const DEFINITION_BYTES = Buffer.from(DEFINITION);
const BACKSLASH = 0x5c;

/**
 * False only when a file surely holds no CapabilityDefinition document, so a run can find the
 * definitions among its inputs before it reads any profile as YAML: a document of that kind
 * spells the kind out, or, in a double-quoted scalar, with an escape (a backslash). Text that
 * is not UTF-8 holds no documents at all.
 */
export function mayHoldDefinition(content: string | Uint8Array): boolean {
  if (typeof content === 'string') return content.includes(DEFINITION) || content.includes('\\');
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  return bytes.includes(BACKSLASH) || bytes.includes(DEFINITION_BYTES);
}

// A class, not an object literal with a getter: V8 gives each such literal a shape of its own,
// and on a run over many files they outlived the young generation.
class FileReading implements ReadInput {
  report: FileReport;
  diagnostics: Diagnostic[];
  document: YamlDocument | undefined = undefined;
  clean = false;
  definitions: YamlDocument[] = [];

  constructor(
    private readonly stream: YamlRead,
    file: string,
  ) {
    this.report = { path: file, kind: 'unknown', status: 'checked' };
    this.diagnostics = [...stream.diagnostics];
  }

  // The fast path builds the text's line index only when something is shown from it.
  get source(): SourceText {
    return this.stream.source;
  }

  get isFast(): boolean {
    return this.stream.isFast === true;
  }
}

// What a named input must hold, for messages.
function expectedKinds(input: InputFile): string {
  if (input.origin === 'argument') return `${PROFILE} or ${DEFINITION}`;
  if (input.origin === 'document') return input.kind ?? 'document';
  return PROFILE;
}

function article(kind: string): string {
  return `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

/** The `kind` of a document's data, when it is a string. */
export function kindOf(data: unknown): string | undefined {
  return isMap(data) && typeof data['kind'] === 'string' ? data['kind'] : undefined;
}

function kindIssue(data: unknown, expected: string) {
  if (!isMap(data)) return error('wrong-type', [], `expected a ${expected} document (a map)`);
  if (data['kind'] === undefined || data['kind'] === null) {
    // `Kind:` or `kinds:` for `kind:`: a key written slightly wrong, said at the key itself.
    const slip = Object.keys(data).find((key) => key !== 'kind' && didYouMean(key, ['kind']) !== undefined);
    if (slip !== undefined) {
      return error('unknown-field', [slip], `unknown field "${slip}": kind is required, expected ${expected}`, { hint: 'did you mean kind?' });
    }
    return error('missing-required', ['kind'], `kind is required: expected ${expected}`);
  }
  const kind = data['kind'];
  // A map or list is named, not converted: its own `toString` key would make the conversion throw.
  let found = typeof kind === 'object' ? describeValue(kind) : String(kind);
  if (typeof kind === 'string') found = `"${kind}"`;
  const near = typeof data['kind'] === 'string' ? didYouMean(data['kind'], expected.split(' or ')) : undefined;
  return error('invalid-value', ['kind'], `kind must be ${expected}, found ${found}`, near ? { hint: near } : {});
}
