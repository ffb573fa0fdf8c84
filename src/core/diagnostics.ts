import { boundMessage, compareText } from './data.js';

/** Every stable diagnostic code kurel emits; documented one by one in docs/diagnostics.md and docs/codes/. */
export const DIAGNOSTIC_CODES = [
  'yaml-syntax',
  'duplicate-key',
  'unknown-field',
  'missing-required',
  'wrong-type',
  'invalid-value',
  'invalid-key',
  'multiple-documents',
  'empty-document',
  'field-not-allowed',
  'file-too-large',
  'too-deep',
  'alias-limit',
  'io-error',
  'usage',
  'unknown-capability',
  'definition-invalid',
  'pattern-too-complex',
  'definition-conflict',
  'definition-duplicate',
  'definition-shadows-builtin',
  'required-with-default',
  'unknown-trait',
  'missing-capability',
  'platform-reserved',
  'unvalidated-capability',
  'version-not-found',
  'unpinned-capability',
  'version-mismatch',
  'definition-changed',
  'lock-outdated',
  'field-unavailable',
  'field-deprecated',
  'version-deprecated',
  'too-many-problems',
  'plugin-error',
  'unused-suppression',
  'migration-lossy',
  'migration-needs-value',
  'migration-unsupported',
  'migration-default-changed',
  'unknown-platform-component',
  'registry-unreachable',
  'registry-auth',
  'artifact-invalid',
  'source-moved',
  'version-immutable',
] as const;

/** A stable kebab-case diagnostic code. */
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

/**
 * The codes that decide whether a run can be trusted (docs/profiles.md): a config may raise them,
 * never lower or turn them off, and no comment in a file can suppress them. Named as strings
 * so that codes other parts of kurel add (lock-outdated, …) are covered once they exist.
 */
export const RAISE_ONLY_CODES: ReadonlySet<string> = new Set([
  'yaml-syntax',
  'io-error',
  'usage',
  'file-too-large',
  'too-deep',
  'alias-limit',
  'definition-invalid',
  'pattern-too-complex',
  'definition-conflict',
  'definition-changed',
  'lock-outdated',
  'plugin-error',
  'migration-unsupported',
  'registry-unreachable',
  'registry-auth',
  'artifact-invalid',
  'source-moved',
  'version-immutable',
]);

/** True for a stable diagnostic code kurel has. */
export function isDiagnosticCode(text: string): text is DiagnosticCode {
  return (DIAGNOSTIC_CODES as readonly string[]).includes(text);
}

/** How bad a diagnostic is; only errors fail a run unless `--strict` is given. */
export type Severity = 'error' | 'warning';

/** A path into a document: map keys and list indexes from the root. */
export type Path = readonly (string | number)[];

/** Which part of the node at a path a problem points at. */
export type Part = 'key' | 'value' | 'parent';

/**
 * A problem found before positions are known: a path into the data, what is wrong, and
 * which part of the source to point at. Validators produce these; the YAML layer turns
 * them into positioned diagnostics.
 */
export interface Issue {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** Where the problem is, as data (becomes the JSON Pointer). */
  path: Path;
  /** Where to point in the source when that differs from `path` (a key required by another). */
  at?: { path: Path; part: Part };
  /** Which part of `path` to point at; defaults by code. */
  part?: Part;
  hint?: string;
  /**
   * The hint is `<lead>: "<the value as written in the source><suffix>"` (`quote it: "1.10"`,
   * not the parsed `1.1`); `hint` says the same from the parsed value, for a caller without the text.
   */
  quote?: { lead: string; suffix: string };
}

/** One problem the user can fix, positioned in the file they gave. */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** JSON Pointer of the offending node (`""` for the whole document). */
  path: string;
  hint?: string;
  /**
   * Set when a `# kurel-disable` comment in the file silences it: it stays in JSON and SARIF
   * reports, but is hidden in text, GitHub and JUnit output and never fails a run.
   */
  suppressed?: { reason?: string };
}

const KEY_CODES: ReadonlySet<DiagnosticCode> = new Set<DiagnosticCode>([
  'unknown-field',
  'duplicate-key',
  'invalid-key',
  'field-not-allowed',
  'platform-reserved',
  'unknown-capability',
  'unvalidated-capability',
  'missing-capability',
  'unpinned-capability',
  'field-unavailable',
  'field-deprecated',
  'migration-lossy',
  'migration-default-changed',
  'unknown-platform-component',
]);

/** The part of the source a code points at when the issue does not say. */
export function defaultPart(code: DiagnosticCode): Part {
  if (code === 'missing-required') return 'parent';
  return KEY_CODES.has(code) ? 'key' : 'value';
}

/** Builds an error issue. */
export function error(code: DiagnosticCode, path: Path, message: string, extra?: Partial<Issue>): Issue {
  return { code, severity: 'error', message, path, ...extra };
}

/** Builds a warning issue. */
export function warning(code: DiagnosticCode, path: Path, message: string, extra?: Partial<Issue>): Issue {
  return { code, severity: 'warning', message, path, ...extra };
}

/** Prefixes every issue's paths with `base`; returns new issues. */
export function rebase(issues: readonly Issue[], base: Path): Issue[] {
  if (base.length === 0) return [...issues];
  return issues.map((issue) => ({
    ...issue,
    path: [...base, ...issue.path],
    ...(issue.at ? { at: { path: [...base, ...issue.at.path], part: issue.at.part } } : {}),
  }));
}

/** Encodes a path as a JSON Pointer (RFC 6901). */
export function toPointer(path: Path): string {
  let out = '';
  for (const segment of path) out += `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return out;
}

/** Orders diagnostics by file, line, column (then code, so output is stable). */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || compareText(a.code, b.code) || compareText(a.message, b.message);
}

/** True when any diagnostic is an error that no comment suppressed. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error' && d.suppressed === undefined);
}

/** The diagnostics a report shows and a run is judged by: those no comment suppressed. */
export function unsuppressed(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.suppressed === undefined);
}

/** Renders a relative path for messages: `issuerRef.name`, `trafficSources[0].namespace`. */
export function describePath(path: Path): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** A diagnostic about a whole file (no position inside it). */
export function fileDiagnostic(file: string, code: DiagnosticCode, message: string, extra: { hint?: string } = {}): Diagnostic {
  const bounded = extra.hint === undefined ? {} : { hint: boundMessage(extra.hint) };
  return { code, severity: 'error', message: boundMessage(message), file, line: 1, column: 1, endLine: 1, endColumn: 1, path: '', ...bounded };
}
