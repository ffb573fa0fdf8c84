import type { Catalogue } from '../catalogue/catalogue.js';
import { compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { FileReport, InputFile, RunInput } from '../core/input.js';
import { mayHoldDefinition, type ReadInput, readInput } from '../documents/read-input.js';
import type { SourceText, YamlDocument } from '../yaml/source.js';
import { type BindingVersion, evaluateProfile } from './evaluate-profile.js';
import { changedDefinitions, type LockFollowing, profileLockOf, unlistedProfile } from './follow-lock.js';
import type { PlatformOptions } from './platform.js';

/** Options of a lint run. */
export interface LintOptions {
  /** Report `unknown-capability` as an error instead of a warning. */
  strictCapabilities?: boolean;
  /** Platform versions around each profile's own (DESIGN §8.4): the repository default and the overrides. */
  platform?: PlatformOptions;
  /** `--require-pinned`: a binding of a versioned definition without `version` is an error. */
  requirePinned?: boolean;
  /** The lockfile the run follows (DESIGN §8.3). */
  lock?: LockFollowing | undefined;
  /**
   * Keep each clean profile's resolved capabilities in its file report (the default); a caller
   * that never shows them passes false, so a run over many files does not hold them all.
   */
  keepResolved?: boolean;
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
  /** What became of each input read, in input order. */
  files: FileReport[];
  /** Source texts of the files that have diagnostics, for printing source lines under them. */
  sources: Map<string, SourceText>;
  /** The catalogue the profiles were judged against: the one given plus the inputs' definitions. */
  catalogue: Catalogue;
  /** Every profile read, in input order. */
  profiles: ProfileOutcome[];
  /** Inputs read by path that could not be read; each has its diagnostic among `diagnostics`. */
  unread: number;
  /** True when an input could not be read at all (not merely too large): the run cannot be trusted (exit 2). */
  unreadable: boolean;
}

/**
 * Lints profiles and CapabilityDefinition files (DESIGN §4.4) against a catalogue, as a pure
 * function of its inputs. Definitions found anywhere in the inputs are added to the catalogue
 * for the whole run before any profile is evaluated; the catalogue given is never changed.
 *
 * The run streams: the files that may hold a definition are read first (a cheap text test
 * picks them), then every other file is read, checked and let go in turn, its text kept only
 * when it has diagnostics. An input read by path is read when its turn comes (and before, for
 * the test, when it may hold definitions), so a run never holds all texts at once: keeping the
 * bytes between the two reads cost more memory than the second read costs time.
 */
export function lintInputs(inputs: readonly RunInput[], catalogue: Catalogue, options: LintOptions = {}): LintReport {
  const diagnostics: Diagnostic[] = [];
  const reports: (FileReport | undefined)[] = [];
  const sources = new Map<string, SourceText>();
  const reading: InputReading = { diagnostics, unread: 0, unreadable: false };

  // Read ahead: the files that may hold definitions; null for a file that could not be read.
  const ahead: (ReadInput | null | undefined)[] = new Array(inputs.length);
  const definitions: YamlDocument[] = [];
  for (const [index, input] of inputs.entries()) {
    if (input.origin === 'profile' || input.origin === 'document') continue;
    const file = contentOf(input, reading);
    if (!file) {
      ahead[index] = null;
      continue;
    }
    if (input.origin !== 'definition' && !mayHoldDefinition(file.content)) continue;
    const read = readInput(file);
    ahead[index] = read;
    for (const d of read.definitions) definitions.push(d);
  }

  const extended = catalogue.withDefinitions(definitions);
  for (const d of extended.diagnostics) diagnostics.push(d);
  if (options.lock && !options.lock.update) for (const d of changedDefinitions(extended.catalogue, options.lock)) diagnostics.push(d);
  // Files the definitions' own problems are positioned in: their sources are shown too.
  const named = new Set(diagnostics.map((d) => d.file));

  const policy = options.strictCapabilities ? 'error' : 'warning';
  const outcomes: ProfileOutcome[] = [];
  for (const [index, input] of inputs.entries()) {
    let read = ahead[index];
    ahead[index] = undefined;
    if (read === null) continue;
    if (read === undefined) {
      const file = contentOf(input, reading);
      if (!file) continue;
      read = readInput(file);
    }
    reports[index] = read.report;
    const before = diagnostics.length;
    for (const d of read.diagnostics) diagnostics.push(d);
    const document = read.document;
    if (document) {
      const following = profileLockOf(options.lock, document.file);
      if (following && !following.listed && following.lock.mode === 'follow') diagnostics.push(unlistedProfile(document.file, following.lock.lockfile));
      const evaluation = evaluateProfile(document.data, extended.catalogue, policy, {
        platform: options.platform,
        requirePinned: options.requirePinned === true,
        lock: following?.lock,
        sourceOf: (path) => document.sourceTextAt(path),
      });
      for (const issue of evaluation.issues) diagnostics.push(document.toDiagnostic(issue));
      if (evaluation.resolved && read.clean && options.keepResolved !== false) read.report.resolved = evaluation.resolved;
      outcomes.push({ file: document.file, bindings: evaluation.bindings, clean: read.clean && evaluation.resolved !== undefined });
    }
    if (diagnostics.length > before || named.has(input.file)) sources.set(input.file, read.source);
  }

  diagnostics.sort(compareDiagnostics);
  const files = reports.filter((report) => report !== undefined);
  return { diagnostics, files, sources, catalogue: extended.catalogue, profiles: outcomes, unread: reading.unread, unreadable: reading.unreadable };
}

/** Where read failures of deferred inputs go. */
interface InputReading {
  diagnostics: Diagnostic[];
  unread: number;
  unreadable: boolean;
}

// An input with its content, reading a deferred one now; undefined (the failure recorded) when it cannot be read.
function contentOf(input: RunInput, reading: InputReading): InputFile | undefined {
  if (!('read' in input)) return input;
  const read = input.read();
  if (read.ok) return { file: input.file, content: read.content, origin: input.origin, kind: input.kind };
  reading.diagnostics.push(read.diagnostic);
  reading.unread += 1;
  if (read.unreadable) reading.unreadable = true;
  return undefined;
}
