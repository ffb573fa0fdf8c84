import { isAbsolute } from 'node:path';
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

/** The package's page: the SARIF driver's `informationUri`. */
export const INFORMATION_URI = 'https://www.npmjs.com/package/kurel';

/**
 * Where a code's explanation is read on the web: `docs/codes/<code>.md` as this version of the
 * package ships it (the same page `kurel explain CODE` prints and the service's `/codes/{code}` serves).
 */
export function helpUriOf(code: DiagnosticCode): string {
  return `https://unpkg.com/kurel@${VERSION}/docs/codes/${code}.md`;
}

/** A code as the one-word friendly name SARIF asks of a rule: `unknown-field` is `UnknownField`. */
export function ruleNameOf(code: DiagnosticCode): string {
  return code
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/**
 * Formats diagnostics as a SARIF 2.1.0 log with one run: rule ids are diagnostic codes,
 * every result has a physical location with a region (columns 1-based, end exclusive, as
 * SARIF counts them). A clean run is a run with no results.
 */
export function formatSarif(diagnostics: readonly Diagnostic[], positioned: (d: Diagnostic) => boolean = () => true): string {
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort();
  const rules = codes.map((code) => ruleOf(code));
  const results = diagnostics.map((d) => ({
    ruleId: d.code,
    ruleIndex: codes.indexOf(d.code),
    level: d.severity,
    message: { text: d.hint ? `${d.message}; ${d.hint}` : d.message },
    // A problem with no place in a file has no region; one with no file (`<command line>`) no location.
    locations: d.file.startsWith('<')
      ? []
      : [
          {
            physicalLocation: {
              artifactLocation: artifactOf(d.file),
              ...(positioned(d) ? { region: { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn } } : {}),
            },
          },
        ],
    ...(d.suppressed ? { suppressions: [{ kind: 'inSource', ...(d.suppressed.reason !== undefined ? { justification: d.suppressed.reason } : {}) }] } : {}),
    ...(d.path !== '' ? { properties: { path: d.path } } : {}),
  }));
  return stringifyJson({
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    // Columns count UTF-16 code units, as kurel's do (docs/ci.md).
    runs: [{ tool: { driver: { name: 'kurel', version: VERSION, informationUri: INFORMATION_URI, rules } }, columnKind: 'utf16CodeUnits', results }],
  });
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
    helpUri: helpUriOf(code),
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
