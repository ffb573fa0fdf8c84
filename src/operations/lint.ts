import type { Catalogue, CatalogueExtension } from '../catalogue/catalogue.js';
import { compareDiagnostics, type Diagnostic, hasErrors } from '../core/diagnostics.js';
import type { FileReport, InputFile, ResolvedProfile, RunInput } from '../core/input.js';
import { mayHoldDefinition, type ReadInput, readInput } from '../documents/read-input.js';
import type { SourceText, YamlDocument } from '../yaml/source.js';
import { SUPPRESSION_KEYWORD } from '../yaml/suppression-comments.js';
import { type BindingVersion, evaluateProfile } from './evaluate-profile.js';
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
  /** Platform versions around each profile's own (docs/platform.md): the repository default and the overrides. */
  platform?: PlatformOptions;
  /** `--require-pinned`: a binding of a versioned definition without `version` is an error. */
  requirePinned?: boolean;
  /** The lockfile the run follows (docs/versions.md). */
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
  /** True when an input other than those given as definitions held a CapabilityDefinition (every profile was judged with it). */
  definitionsInInputs: boolean;
}

/**
 * Lints profiles and CapabilityDefinition files (docs/profiles.md) against a catalogue, as a pure
 * function of its inputs. Definitions found anywhere in the inputs are added to the catalogue
 * for the whole run before any profile is judged; the catalogue given is never changed.
 *
 * The run streams: each file is read, checked and let go in turn, its text kept only when it
 * has diagnostics, so a run never holds all texts at once (an input read by path is read when
 * its turn comes). Inputs given as definitions are read first. A file among the others that
 * holds a definition (a cheap text test picks the files that may) comes in order; once one is
 * found, every file after it that may hold one is read before the next profile is judged, and
 * the profiles judged before it are judged again, read a second time.
 */
export function lintInputs(inputs: readonly RunInput[], catalogue: Catalogue, options: LintOptions = {}): LintReport {
  const run = new LintRun(inputs, catalogue, options);
  return run.report();
}

/** What one input gave: its report, its own diagnostics, its profile's outcome, its text when shown. */
interface FileResult {
  report: FileReport;
  diagnostics: Diagnostic[];
  outcome: ProfileOutcome | undefined;
  /** The profile's capabilities with defaults applied, kept when reports keep them: severities may give a profile `resolved`. */
  resolution: ResolvedProfile | undefined;
  /** The text of a file with diagnostics or suppression comments (read for them at the end); only its text and line index. */
  source: SourceText | undefined;
  /** A file holding definitions: its text is shown when the definitions' own problems name it (the catalogue holds it anyway). */
  definitionSource: (() => SourceText) | undefined;
}

/** One lint run: reads the inputs in order, finds their definitions, judges each profile. */
class LintRun {
  private readonly reading: InputReading = { diagnostics: [], unread: 0, unreadable: false };
  private readonly results: (FileResult | undefined)[];
  /** Files read ahead: definition inputs, and after the first definition among the others, every file that may hold one; null when it could not be read. */
  private readonly ahead: (ReadInput | null | undefined)[];
  private readonly definitions: YamlDocument[] = [];
  private extended: CatalogueExtension | undefined;
  /** True once every input that may hold a definition has been read. */
  private isScanned = false;
  private readonly policy: 'error' | 'warning';

  constructor(
    private readonly inputs: readonly RunInput[],
    private readonly catalogue: Catalogue,
    private readonly options: LintOptions,
  ) {
    this.results = new Array(inputs.length);
    this.ahead = new Array(inputs.length);
    this.policy = options.strictCapabilities ? 'error' : 'warning';
  }

  report(): LintReport {
    for (const [index, input] of this.inputs.entries()) if (input.origin === 'definition') this.readAhead(index);
    const judgedEarly: number[] = [];
    for (const [index, input] of this.inputs.entries()) {
      let read = this.ahead[index];
      this.ahead[index] = undefined;
      if (read === null) continue;
      if (read === undefined) {
        const file = contentOf(input, this.reading);
        if (!file) continue;
        read = readInput(file);
        if (read.definitions.length > 0 && !this.isScanned) {
          // The profiles judged so far were judged without this definition, nor those after it.
          for (const d of read.definitions) this.definitions.push(d);
          this.extended = undefined;
          for (let before = 0; before < index; before++) if (this.results[before]?.outcome) judgedEarly.push(before);
          for (let after = index + 1; after < this.inputs.length; after++) this.readAhead(after);
          this.isScanned = true;
        }
      }
      this.results[index] = this.judge(read);
    }
    for (const index of judgedEarly) {
      const file = contentOf(this.inputs[index]!, this.reading);
      this.results[index] = file ? this.judge(readInput(file)) : undefined;
    }
    return this.assemble();
  }

  // Reads an input ahead of its turn when it may hold definitions (inputs given as definitions always).
  private readAhead(index: number): void {
    const input = this.inputs[index]!;
    if (this.ahead[index] !== undefined || input.origin === 'profile' || input.origin === 'document') return;
    const file = contentOf(input, this.reading);
    if (!file) {
      this.ahead[index] = null;
      return;
    }
    if (input.origin !== 'definition' && !mayHoldDefinition(file.content)) return;
    const read = readInput(file);
    this.ahead[index] = read;
    if (read.definitions.length > 0) this.extended = undefined;
    for (const d of read.definitions) this.definitions.push(d);
  }

  // The catalogue with the definitions found so far, built when a profile first needs it.
  private judged(): CatalogueExtension {
    this.extended ??= this.catalogue.withDefinitions(this.definitions);
    return this.extended;
  }

  private judge(read: ReadInput): FileResult {
    const diagnostics = [...read.diagnostics];
    let outcome: ProfileOutcome | undefined;
    let resolution: ResolvedProfile | undefined;
    const document = read.document;
    if (document) {
      const { options } = this;
      const following = profileLockOf(options.lock, document.file);
      if (following && !following.listed && following.lock.mode === 'follow') diagnostics.push(unlistedProfile(document.file, following.lock.lockfile));
      const evaluation = evaluateProfile(document.data, this.judged().catalogue, this.policy, {
        platform: options.platform,
        requirePinned: options.requirePinned === true,
        lock: following?.lock,
        sourceOf: (path) => document.sourceTextAt(path),
      });
      for (const issue of evaluation.issues) diagnostics.push(document.toDiagnostic(issue));
      if (evaluation.resolved && read.clean && options.keepResolved !== false) read.report.resolved = evaluation.resolved;
      outcome = { file: document.file, bindings: evaluation.bindings, clean: read.clean && evaluation.resolved !== undefined };
      if (options.keepResolved !== false) resolution = evaluation.resolution;
    }
    // A file with diagnostics keeps its text only, not what was read from it, nor its line index
    // where that is built again the same if its lines are printed (most of a large run's are
    // not: the report shows its first problems). The fast path never reads a text holding a
    // suppression comment.
    const source = diagnostics.length > 0 || (!read.isFast && read.source.text.includes(SUPPRESSION_KEYWORD)) ? read.source.kept() : undefined;
    const definitionSource = read.definitions.length > 0 ? () => read.source : undefined;
    return { report: read.report, diagnostics, outcome, resolution, source, definitionSource };
  }

  private assemble(): LintReport {
    const extended = this.judged();
    const diagnostics: Diagnostic[] = [...this.reading.diagnostics];
    for (const d of extended.diagnostics) diagnostics.push(d);
    if (this.options.lock && !this.options.lock.update) for (const d of changedDefinitions(extended.catalogue, this.options.lock)) diagnostics.push(d);
    // Files the definitions' own problems are positioned in: their sources are shown too.
    const named = new Set(diagnostics.map((d) => d.file));
    const files: FileReport[] = [];
    const sources = new Map<string, SourceText>();
    const profiles: ProfileOutcome[] = [];
    for (const result of this.results) {
      if (!result) continue;
      files.push(result.report);
      for (const d of result.diagnostics) diagnostics.push(d);
      if (result.outcome) profiles.push(result.outcome);
      if (result.source) sources.set(result.report.path, result.source);
      else if (result.definitionSource && named.has(result.report.path)) sources.set(result.report.path, result.definitionSource());
    }
    // Comments in the files first, then the configuration's severities (which may also set those of unused-suppression).
    const silenced = applySuppressions(diagnostics, sources);
    const judged = this.options.severityOf ? applySeverities(silenced, this.options.severityOf) : silenced;
    if (judged !== diagnostics) this.resolveAsJudged(judged);
    judged.sort(compareDiagnostics);
    return {
      diagnostics: judged,
      files,
      sources,
      catalogue: extended.catalogue,
      profiles,
      unread: this.reading.unread,
      unreadable: this.reading.unreadable,
      definitionsInInputs: this.isScanned,
    };
  }

  // A profile is resolved exactly when no error remains for it once severities were applied: a
  // raised warning takes `resolved` away, a lowered error gives it.
  private resolveAsJudged(diagnostics: readonly Diagnostic[]): void {
    const failing = new Set(diagnostics.filter((d) => hasErrors([d])).map((d) => d.file));
    for (const result of this.results) {
      if (!result?.outcome) continue;
      if (failing.has(result.report.path)) delete result.report.resolved;
      else if (result.resolution) result.report.resolved ??= result.resolution;
    }
  }
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
