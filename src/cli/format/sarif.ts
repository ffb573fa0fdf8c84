import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, DiagnosticCode } from '../../core/diagnostics.js';
import { stringifyJson } from '../../core/json-text.js';
import { VERSION } from '../../core/package-version.js';
import { readCodePage } from '../../files/package-files.js';

/** What each diagnostic code means, in one line: the rule descriptions of a SARIF run. */
export const CODE_SUMMARIES: Readonly<Record<DiagnosticCode, string>> = {
  'yaml-syntax': 'the file is not valid YAML',
  'duplicate-key': 'a key appears twice in the same map',
  'unknown-field': 'a key the document or capability does not define',
  'missing-required': 'a required key is absent or null',
  'wrong-type': 'a value of the wrong type',
  'invalid-value': 'a value of the right type that is not allowed',
  'invalid-key': 'a key that is not a valid name here',
  'multiple-documents': 'a profile file holds more than one YAML document',
  'empty-document': 'the file is empty or holds only comments',
  'field-not-allowed': 'a known key that is not allowed in this variant',
  'file-too-large': 'the file is over the size limit',
  'too-deep': 'the document nests deeper than the limit',
  'alias-limit': 'YAML aliases expand beyond the limit',
  'io-error': 'a path cannot be read',
  usage: 'the command line is wrong or a plugin was refused',
  'unknown-capability': 'no handler or definition knows this capability',
  'definition-invalid': 'a CapabilityDefinition schema is wrong in itself',
  'pattern-too-complex': 'a definition pattern compiles to a program past the size limit',
  'definition-conflict': 'two CapabilityDefinitions of one name differ',
  'definition-duplicate': 'two CapabilityDefinitions of one name differ only in descriptions',
  'definition-shadows-builtin': 'a CapabilityDefinition is named like a built-in handler',
  'required-with-default': 'a required property also has a default, which never applies',
  'unknown-trait': 'no handler implements this trait type',
  'missing-capability': 'a required capability has no binding in the profile',
  'platform-reserved': 'an application sets a key only the platform may set',
  'unvalidated-capability': 'a used capability is validated by nothing',
  'version-not-found': 'no version of the capability satisfies the pin',
  'unpinned-capability': 'a binding of a versioned capability has no version pin',
  'version-mismatch': "the version the profile resolved does not satisfy the trait's @pin",
  'definition-changed': 'a locked definition version was edited in place',
  'lock-outdated': 'the lockfile no longer matches the profile',
  'version-deprecated': 'a binding resolves to a deprecated definition version',
  'field-unavailable': "a key, value or capability the cluster's platform version does not have",
  'field-deprecated': "a key, value or capability deprecated at the cluster's platform version",
  'too-many-problems': 'a run found more problems than it reports; the rest are counted',
  'unknown-platform-component': 'a platform component one edit from one kurel knows of',
  'plugin-error': 'a plugin handler threw or returned a malformed result while validating a binding',
  'unused-suppression': 'a kurel-disable comment that silences nothing, is malformed, or names a code it cannot silence',
  'migration-lossy': 'a migration would drop a value the file sets',
  'migration-needs-value': 'the version migrated to requires a property the file does not set',
  'migration-unsupported': 'a migration would change a value reached through an alias or a merge key',
  'migration-default-changed': 'the default of a property the file does not set differs between the two versions',
  'registry-unreachable': 'an OCI registry source cannot be reached, or is not cached while offline',
  'registry-auth': 'an OCI registry refused the credentials, or asked for credentials none were found for',
  'artifact-invalid': 'an OCI artifact is not a valid kurel definitions artifact, or is unsafe to read',
  'source-moved': 'a locked tag of an OCI source now names other content',
  'version-immutable': 'a pushed version already names other content in the registry',
};

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** The SARIF driver's `informationUri`: the repository kurel is released from, package.json's `repository`. */
export const INFORMATION_URI = 'https://github.com/go-kure/kurel';

/**
 * A code as the one-word friendly name SARIF asks of a rule: `unknown-field` is `UnknownField`.
 * A name may not be its id in other letters (the SARIF multitool's SARIF1001), so a code of one
 * word says what it is about: `usage` is `BadUsage`.
 */
export function ruleNameOf(code: DiagnosticCode): string {
  const name = code
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return code.includes('-') ? name : `Bad${name}`;
}

/**
 * Formats diagnostics as a SARIF 2.1.0 log with one run: rule ids are diagnostic codes,
 * every result has a physical location with a region (columns 1-based, end exclusive, as
 * SARIF counts them). A clean run is a run with no results. A problem of no file (the command
 * line, standard input without `--stdin-filepath`) is no result, since code scanning places
 * every result in a file: it is a notification of the run's invocation (docs/ci.md). Relative
 * file names are relative to `%SRCROOT%`, which the run defines when `root` (an absolute folder)
 * is given. A rule links no page (docs/ci.md): it carries its explanation page itself.
 */
export function formatSarif(diagnostics: readonly Diagnostic[], positioned: (d: Diagnostic) => boolean = () => true, root?: string): string {
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort();
  const rules = codes.map((code) => ruleOf(code));
  const inFiles = diagnostics.filter((d) => !d.file.startsWith('<'));
  const elsewhere = diagnostics.filter((d) => d.file.startsWith('<'));
  const results = inFiles.map((d) => ({
    ruleId: d.code,
    ruleIndex: codes.indexOf(d.code),
    level: d.severity,
    message: { text: messageOf(d) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactOf(d.file),
          // A file that was never read (unreadable, too large) has no positions: its first line.
          region: positioned(d) ? { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn } : { startLine: 1, endLine: 1 },
        },
      },
    ],
    ...(d.suppressed ? { suppressions: [{ kind: 'inSource', ...(d.suppressed.reason !== undefined ? { justification: d.suppressed.reason } : {}) }] } : {}),
    ...(d.path !== '' ? { properties: { path: d.path } } : {}),
  }));
  const invocations =
    elsewhere.length === 0
      ? {}
      : {
          invocations: [
            {
              // A mistake on the command line stops the run before it judges anything.
              executionSuccessful: !elsewhere.some((d) => d.file === COMMAND_LINE && d.severity === 'error'),
              toolExecutionNotifications: elsewhere.map((d) => ({
                descriptor: { id: d.code },
                associatedRule: { id: d.code, index: codes.indexOf(d.code) },
                level: d.severity,
                message: { text: messageOf(d) },
                ...(d.file === COMMAND_LINE ? {} : { locations: [{ message: { text: d.file } }] }),
              })),
            },
          ],
        };
  return stringifyJson({
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    // Columns count UTF-16 code units, as kurel's do (docs/ci.md).
    runs: [
      {
        tool: { driver: { name: 'kurel', version: VERSION, informationUri: INFORMATION_URI, rules } },
        ...invocations,
        ...(root !== undefined ? { originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(root.endsWith(sep) ? root : `${root}${sep}`).href } } } : {}),
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  });
}

const COMMAND_LINE = '<command line>';

function messageOf(d: Diagnostic): string {
  return d.hint ? `${d.message}; ${d.hint}` : d.message;
}

// A rule carries the code's explanation page (docs/configuration.md): the page as `help`, the first
// paragraph of what it means as `fullDescription`.
function ruleOf(code: DiagnosticCode) {
  const page = readCodePage(code);
  const meaning = page === undefined ? undefined : firstParagraph(page, '## What it means');
  return {
    id: code,
    name: ruleNameOf(code),
    shortDescription: { text: CODE_SUMMARIES[code] },
    ...(meaning !== undefined ? { fullDescription: { text: meaning } } : {}),
    ...(page !== undefined ? { help: { text: page, markdown: page } } : {}),
  };
}

/** The first paragraph after a heading of a Markdown page, its lines joined, or undefined. */
export function firstParagraph(page: string, heading: string): string | undefined {
  const lines = page.split('\n');
  const at = lines.indexOf(heading);
  if (at === -1) return undefined;
  const paragraph: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '') {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  return paragraph.length > 0 ? paragraph.join(' ') : undefined;
}

// SARIF locations are URI references: absolute paths become file: URLs, relative ones stay
// relative to the checkout (%SRCROOT%), each segment percent-encoded.
function artifactOf(file: string): { uri: string; uriBaseId?: string } {
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  const uri = file.split(/[\\/]/).map(encodeURIComponent).join('/');
  return { uri, uriBaseId: '%SRCROOT%' };
}
