import type { Catalogue } from '../catalogue/catalogue.js';
import { compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { FileReport, InputFile } from '../core/input.js';
import { readInput } from '../documents/read-input.js';
import type { SourceDocument, SourceText } from '../yaml/source.js';
import { evaluateProfile } from './evaluate-profile.js';
import type { PlatformOptions } from './platform.js';

/** Options of a lint run. */
export interface LintOptions {
  /** Report `unknown-capability` as an error instead of a warning. */
  strictCapabilities?: boolean;
  /** Platform versions around each profile's own (DESIGN §8.4): the repository default and the overrides. */
  platform?: PlatformOptions;
}

/** The result of a lint run, shared by the CLI and the HTTP service. */
export interface LintReport {
  diagnostics: Diagnostic[];
  files: FileReport[];
  /** Source texts by file, for printing source lines under diagnostics. */
  sources: Map<string, SourceText>;
  /** The catalogue the profiles were judged against: the one given plus the inputs' definitions. */
  catalogue: Catalogue;
}

/**
 * Lints profiles and CapabilityDefinition files (DESIGN §4.4) against a catalogue, as a pure
 * function of its inputs. Definitions found anywhere in the inputs are added to the catalogue
 * for the whole run before any profile is evaluated; the catalogue given is never changed.
 */
export function lintInputs(inputs: readonly InputFile[], catalogue: Catalogue, options: LintOptions = {}): LintReport {
  const diagnostics: Diagnostic[] = [];
  const files: FileReport[] = [];
  const sources = new Map<string, SourceText>();
  const definitions: SourceDocument[] = [];
  const profiles: { document: SourceDocument; report: FileReport; clean: boolean }[] = [];

  for (const input of inputs) {
    const read = readInput(input);
    sources.set(input.file, read.source);
    files.push(read.report);
    for (const d of read.diagnostics) diagnostics.push(d);
    for (const d of read.definitions) definitions.push(d);
    if (read.document) profiles.push({ document: read.document, report: read.report, clean: read.clean });
  }

  const extended = catalogue.withDefinitions(definitions);
  for (const d of extended.diagnostics) diagnostics.push(d);

  const policy = options.strictCapabilities ? 'error' : 'warning';
  for (const { document, report, clean } of profiles) {
    const evaluation = evaluateProfile(document.data, extended.catalogue, policy, {
      platform: options.platform,
      sourceOf: (path) => document.sourceTextAt(path),
    });
    for (const issue of evaluation.issues) diagnostics.push(document.toDiagnostic(issue));
    if (evaluation.resolved && clean) report.resolved = evaluation.resolved;
  }

  diagnostics.sort(compareDiagnostics);
  return { diagnostics, files, sources, catalogue: extended.catalogue };
}
