import type { Catalogue } from '../catalogue/catalogue.js';
import { compareDiagnostics, type Diagnostic, hasErrors } from '../core/diagnostics.js';
import type { FileReport, InputFile } from '../core/input.js';
import { readInput } from '../documents/read-input.js';
import type { SourceDocument, SourceText } from '../yaml/source.js';
import { type BindingVersion, evaluateProfile, type ProfileEvaluation } from './evaluate-profile.js';
import { changedDefinitions, type LockFollowing, profileLockOf, unlistedProfile } from './follow-lock.js';
import type { PlatformOptions } from './platform.js';
import { applySeverities, type SeverityOf } from './severity.js';
import { applySuppressions } from './suppress.js';

/** Options of a lint run. */
export interface LintOptions {
  /** Report `unknown-capability` as an error instead of a warning. */
  strictCapabilities?: boolean;
  /** The severities each file is judged with (a configuration's `severity` and `overrides`), applied last. */
  severityOf?: SeverityOf;
  /** Platform versions around each profile's own (DESIGN §8.4): the repository default and the overrides. */
  platform?: PlatformOptions;
  /** `--require-pinned`: a binding of a versioned definition without `version` is an error. */
  requirePinned?: boolean;
  /** The lockfile the run follows (DESIGN §8.3). */
  lock?: LockFollowing | undefined;
}

/** How one profile of a lint run resolved its versions. */
export interface ProfileOutcome {
  file: string;
  /** Every binding of a versioned definition, in the profile's order. */
  bindings: BindingVersion[];
  /** True when the profile has no error. */
  clean: boolean;
}

/** The result of a lint run, shared by the CLI and the HTTP service. */
export interface LintReport {
  diagnostics: Diagnostic[];
  files: FileReport[];
  /** Source texts by file, for printing source lines under diagnostics. */
  sources: Map<string, SourceText>;
  /** The catalogue the profiles were judged against: the one given plus the inputs' definitions. */
  catalogue: Catalogue;
  /** Every profile read, in input order. */
  profiles: ProfileOutcome[];
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

  if (options.lock && !options.lock.update) for (const d of changedDefinitions(extended.catalogue, options.lock)) diagnostics.push(d);

  const policy = options.strictCapabilities ? 'error' : 'warning';
  const outcomes: ProfileOutcome[] = [];
  const evaluated: { report: FileReport; evaluation: ProfileEvaluation }[] = [];
  for (const { document, report, clean } of profiles) {
    const following = profileLockOf(options.lock, document.file);
    if (following && !following.listed && following.lock.mode === 'follow') diagnostics.push(unlistedProfile(document.file, following.lock.lockfile));
    const evaluation = evaluateProfile(document.data, extended.catalogue, policy, {
      platform: options.platform,
      requirePinned: options.requirePinned === true,
      lock: following?.lock,
      sourceOf: (path) => document.sourceTextAt(path),
    });
    for (const issue of evaluation.issues) diagnostics.push(document.toDiagnostic(issue));
    if (evaluation.resolved && clean) report.resolved = evaluation.resolved;
    outcomes.push({ file: document.file, bindings: evaluation.bindings, clean: clean && evaluation.resolved !== undefined });
    evaluated.push({ report, evaluation });
  }

  // Comments in the files first, then the configuration's severities (which may also set those of unused-suppression).
  const silenced = applySuppressions(diagnostics, sources);
  const judged = options.severityOf ? applySeverities(silenced, options.severityOf) : silenced;
  if (judged !== diagnostics) resolveAsJudged(evaluated, judged);
  judged.sort(compareDiagnostics);
  return { diagnostics: judged, files, sources, catalogue: extended.catalogue, profiles: outcomes };
}

// A profile is resolved exactly when no error remains for it once severities were applied: a
// raised warning takes `resolved` away, a lowered error gives it.
function resolveAsJudged(evaluated: readonly { report: FileReport; evaluation: ProfileEvaluation }[], diagnostics: readonly Diagnostic[]): void {
  const failing = new Set(diagnostics.filter((d) => hasErrors([d])).map((d) => d.file));
  for (const { report, evaluation } of evaluated) {
    if (failing.has(report.path)) delete report.resolved;
    else report.resolved ??= evaluation.resolution;
  }
}
