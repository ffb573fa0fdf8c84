import { loadDefinitionDocuments } from '../catalogue/load-definitions.js';
import type { Registry } from '../catalogue/registry.js';
import { parseYamlStream, type SourceDocument, type SourceText } from '../yaml/source.js';
import { isMap } from '../schema/check.js';
import { compareDiagnostics, error, hasErrors, type Diagnostic } from '../core/diagnostics.js';
import { evaluateProfile, type ResolvedProfile } from './evaluate-profile.js';

/**
 * Where a lint input came from; it decides what happens to documents of other kinds. A
 * `profile` must be a ClusterProfile (the body of an HTTP validation); an `argument` may also
 * be a CapabilityDefinition.
 */
export type InputOrigin = 'argument' | 'profile' | 'directory' | 'definition';

/** One file to lint. */
export interface LintInput {
  /** The path as the user gave it (or `request`, `definitions[0]` over HTTP). */
  file: string;
  content: Uint8Array | string;
  origin: InputOrigin;
}

/** What became of one file. */
export interface FileReport {
  path: string;
  kind: string;
  status: 'checked' | 'skipped';
  reason?: string;
  /** For a checked profile without errors: its capabilities with defaults applied. */
  resolved?: ResolvedProfile;
}

/** Options of a lint run. */
export interface LintOptions {
  /** Report `unknown-capability` as an error instead of a warning. */
  strictCapabilities?: boolean;
}

/** The result of a lint run, shared by the CLI and the HTTP service. */
export interface LintReport {
  diagnostics: Diagnostic[];
  files: FileReport[];
  /** Source texts by file, for printing source lines under diagnostics. */
  sources: Map<string, SourceText>;
}

const PROFILE = 'ClusterProfile';
const DEFINITION = 'CapabilityDefinition';

/**
 * Lints profiles and CapabilityDefinition files (DESIGN §4.4). Definitions found anywhere in
 * the inputs are loaded for the whole run before any profile is evaluated.
 */
export function lintInputs(inputs: readonly LintInput[], registry: Registry, options: LintOptions = {}): LintReport {
  const diagnostics: Diagnostic[] = [];
  const files: FileReport[] = [];
  const sources = new Map<string, SourceText>();
  const definitionDocs: SourceDocument[] = [];
  // `clean` is false when reading the file already found an error: such a profile gets no `resolved`.
  const profiles: { document: SourceDocument; report: FileReport; clean: boolean }[] = [];

  for (const input of inputs) {
    const stream = parseYamlStream(input.content, input.file);
    sources.set(input.file, stream.source);
    diagnostics.push(...stream.diagnostics);
    const documents = stream.documents;
    if (stream.diagnostics.length > 0) {
      files.push({ path: input.file, kind: 'unknown', status: 'checked' });
      continue;
    }
    const named = input.origin === 'argument' || input.origin === 'profile';
    const expected = input.origin === 'profile' ? PROFILE : `${PROFILE} or ${DEFINITION}`;
    if (documents.length === 0 || documents.every((d) => d.isEmpty && d.diagnostics.length === 0)) {
      if (named) {
        diagnostics.push(stream.source.diagnosticAt('empty-document', `the file is empty or holds only comments; expected a ${expected}`, [0, 0]));
        files.push({ path: input.file, kind: 'unknown', status: 'checked' });
      } else {
        files.push({ path: input.file, kind: 'unknown', status: 'skipped', reason: 'the file holds no documents' });
      }
      continue;
    }
    const kinds = documents.map((d) => kindOf(d.data));
    const first = documents[0]!;
    const readable = documents.filter((d) => d.data !== undefined);
    for (const d of documents) diagnostics.push(...d.diagnostics);
    if (readable.length === 0) {
      files.push({ path: input.file, kind: 'unknown', status: 'checked' });
      continue;
    }

    if (kinds[0] === PROFILE && input.origin !== 'definition') {
      const report: FileReport = { path: input.file, kind: PROFILE, status: 'checked' };
      files.push(report);
      if (documents.length > 1) {
        const second = documents[1]!;
        diagnostics.push(
          stream.source.diagnosticAt('multiple-documents', 'a profile file holds exactly one document; found a second one', [second.start, second.start + 3]),
        );
      }
      const clean = documents.length === 1 && !hasErrors(first.diagnostics);
      if (first.data !== undefined) profiles.push({ document: first, report, clean });
      continue;
    }
    const definitionIndexes = kinds.flatMap((k, i) => (k === DEFINITION ? [i] : []));
    if (definitionIndexes.length > 0 && input.origin !== 'profile') {
      files.push({ path: input.file, kind: DEFINITION, status: 'checked' });
      for (const i of definitionIndexes) if (documents[i]!.data !== undefined) definitionDocs.push(documents[i]!);
      continue;
    }
    if (named) {
      files.push({ path: input.file, kind: kinds[0] ?? 'unknown', status: 'checked' });
      if (first.data !== undefined) diagnostics.push(first.toDiagnostic(kindIssue(first.data, expected)));
    } else {
      const kind = kinds[0] ?? 'unknown';
      const reason = kinds[0] === undefined ? 'no kind: not a kurel document' : `kind ${kind} is not linted`;
      files.push({ path: input.file, kind, status: 'skipped', reason });
    }
  }

  diagnostics.push(...loadDefinitionDocuments(definitionDocs, registry));

  const policy = options.strictCapabilities ? 'error' : 'warning';
  for (const { document, report, clean } of profiles) {
    const evaluation = evaluateProfile(document.data, registry, policy);
    for (const issue of evaluation.issues) diagnostics.push(document.toDiagnostic(issue));
    if (evaluation.resolved && clean) report.resolved = evaluation.resolved;
  }

  diagnostics.sort(compareDiagnostics);
  return { diagnostics, files, sources };
}

function kindOf(data: unknown): string | undefined {
  return isMap(data) && typeof data['kind'] === 'string' ? data['kind'] : undefined;
}

function kindIssue(data: unknown, expected: string) {
  if (!isMap(data)) return error('wrong-type', [], `expected a ${expected} document (a map)`);
  if (data['kind'] === undefined || data['kind'] === null) {
    return error('missing-required', ['kind'], `kind is required: expected ${expected}`);
  }
  const found = typeof data['kind'] === 'string' ? `"${data['kind']}"` : String(data['kind']);
  return error('invalid-value', ['kind'], `kind must be ${expected}, found ${found}`);
}
