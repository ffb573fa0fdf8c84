import type { Catalogue, CatalogueExtension } from '../catalogue/catalogue.js';
import { compareDiagnostics, type Diagnostic, hasErrors } from '../core/diagnostics.js';
import type { FileReport, InputFile, ResolvedProfile, RunInput } from '../core/input.js';
import { mayHoldDefinition, type ReadInput, readInput } from '../documents/read-input.js';
import { keptSourceText, type SourceText, type YamlDocument } from '../yaml/source.js';
import { SUPPRESSION_KEYWORD } from '../yaml/suppression-comments.js';
import { evaluateProfile } from './evaluate-profile.js';
import { changedDefinitions, type LockFollowing, profileLockOf, unlistedProfile } from './follow-lock.js';
import { KeptProblems, type LeftOutProblems } from './kept-problems.js';
import { type CachedLintResult, judgingDigest, type LintResultCache } from './lint-cache.js';
import type { PlatformOptions } from './platform.js';
import type { ProfileOutcome } from './profile-outcome.js';
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
  /**
   * Keep only the problems a report showing its first `reportLimit` can show (and every one a
   * comment suppressed, which a report always shows); the rest are counted in the report's
   * `leftOut`. A run over many files then holds neither all their problems nor their texts.
   * Every problem is kept by default.
   */
  reportLimit?: number;
  /**
   * Results of earlier runs (`kurel lint --cache`): a file read by path that holds no definition
   * is judged only when the cache has no result for its path, its bytes and the catalogue it is
   * judged against; what it finds is recorded. The report is the same either way.
   */
  cache?: LintResultCache | undefined;
}

export type { ProfileOutcome } from './profile-outcome.js';

/** The result of a lint run, shared by the CLI and the HTTP service. */
export interface LintReport {
  /** The run's problems, sorted: all of them, or with `reportLimit` those kept. */
  diagnostics: Diagnostic[];
  /** With `reportLimit`: the problems counted but not kept (pass them to `reportProblems`). */
  leftOut?: LeftOutProblems;
  /** What became of each input read, in input order. */
  files: FileReport[];
  /** Source texts of the files that have diagnostics kept, for printing source lines under them. */
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
 * has diagnostics (with `reportLimit`, only while they may be shown), so a run never holds all
 * texts at once (an input read by path is read when its turn comes). A file's suppression
 * comments and severities are applied as it is judged; those of a file holding definitions at
 * the end, with the definitions' own problems. Inputs given as definitions are read first. A
 * file among the others that holds a definition (a cheap text test picks the files that may)
 * comes in order; once one is found, every file after it that may hold one is read before the
 * next profile is judged, and the files judged before it are judged again, read a second time.
 */
export function lintInputs(inputs: readonly RunInput[], catalogue: Catalogue, options: LintOptions = {}): LintReport {
  return new LintRun(inputs, catalogue, options).report();
}

/** What one input gave that the report lists: its report and its profile's outcome. */
interface FileResult {
  report: FileReport;
  outcome: ProfileOutcome | undefined;
}

/**
 * A file that holds definitions: the definitions' own problems may be positioned in it, so its
 * problems are judged with the run's at the end, when those are known.
 */
interface HeldFile {
  report: FileReport;
  diagnostics: Diagnostic[];
  outcome: ProfileOutcome | undefined;
  resolution: ResolvedProfile | undefined;
  /** Its text when it has problems or suppression comments (the catalogue holds it anyway). */
  source: SourceText | undefined;
  definitionSource: SourceText;
}

/** One lint run: reads the inputs in order, finds their definitions, judges each profile. */
class LintRun {
  /** Read failures of inputs read ahead: they are the run's, judged at the end. */
  private readonly aheadReading: InputReading = { diagnostics: [], unread: 0, unreadable: false };
  private unread = 0;
  private unreadable = false;
  private readonly results: (FileResult | undefined)[];
  /** The files holding definitions, by input index, in input order. */
  private readonly held = new Map<number, HeldFile>();
  private kept: KeptProblems<SourceText>;
  /** Inputs that could not be read in their turn, by index, until every definition is known. */
  private failures: Map<number, InputReading> | undefined = new Map();
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
    this.kept = new KeptProblems(options.reportLimit);
  }

  report(): LintReport {
    for (const [index, input] of this.inputs.entries()) if (input.origin === 'definition') this.readAhead(index);
    for (const index of this.inputs.keys()) {
      let read = this.ahead[index];
      this.ahead[index] = undefined;
      if (read === null) continue;
      if (read === undefined) {
        if (this.fromCacheUnread(index)) continue;
        const file = this.readInTurn(index);
        if (!file || this.fromCache(index, file)) continue;
        read = readInput(file);
        if (read.definitions.length > 0 && !this.isScanned) {
          for (const d of read.definitions) this.definitions.push(d);
          this.extended = undefined;
          for (let after = index + 1; after < this.inputs.length; after++) this.readAhead(after);
          this.isScanned = true;
          this.judgeAgain(index);
        }
        this.judge(index, read, file);
        continue;
      }
      this.judge(index, read);
    }
    return this.assemble();
  }

  /**
   * The files before `end` were judged without the definitions found since: when a profile is
   * among them, they are judged again, read a second time, all but those that could not be
   * read and those holding definitions but no profile.
   */
  private judgeAgain(end: number): void {
    const failures = this.failures;
    this.failures = undefined;
    if (!this.results.slice(0, end).some((result) => result?.outcome)) return;
    this.kept = new KeptProblems(this.options.reportLimit);
    this.unread = 0;
    this.unreadable = false;
    for (let index = 0; index < end; index++) {
      const failure = failures?.get(index);
      if (failure) {
        this.tookFailure(failure);
        continue;
      }
      const held = this.held.get(index);
      if (!this.results[index] || (held && !held.outcome)) continue;
      this.results[index] = undefined;
      if (this.fromCacheUnread(index)) continue;
      const file = this.readInTurn(index);
      if (!file) this.held.delete(index);
      else if (!this.fromCache(index, file)) this.judge(index, readInput(file), file);
    }
  }

  // Reads an input ahead of its turn when it may hold definitions (inputs given as definitions always).
  private readAhead(index: number): void {
    const input = this.inputs[index]!;
    if (this.ahead[index] !== undefined || input.origin === 'profile' || input.origin === 'document') return;
    const file = contentOf(input, this.aheadReading);
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

  // An input read in its turn; a read failure is that input's own problem.
  private readInTurn(index: number): InputFile | undefined {
    const reading: InputReading = { diagnostics: [], unread: 0, unreadable: false };
    const file = contentOf(this.inputs[index]!, reading);
    if (file) return file;
    // Until every definition is known a profile may be judged again, and this failure with it.
    this.failures?.set(index, reading);
    this.tookFailure(reading);
    return undefined;
  }

  private tookFailure(reading: InputReading): void {
    this.unread += reading.unread;
    this.unreadable ||= reading.unreadable;
    this.kept.add(this.options.severityOf ? applySeverities(reading.diagnostics, this.options.severityOf) : reading.diagnostics);
  }

  // The catalogue with the definitions found so far, built when a profile first needs it.
  private judged(): CatalogueExtension {
    this.extended ??= this.catalogue.withDefinitions(this.definitions);
    return this.extended;
  }

  // A file's result from an earlier run, when the cache has one for this run's catalogue and the file looks unchanged; it is read only if its lines are shown.
  private fromCacheUnread(index: number): boolean {
    const input = this.inputs[index]!;
    const cached = this.cacheFor(index)?.lookupUnread(input.file, judgingDigest(this.judged().catalogue));
    if (!cached) return false;
    this.taken(index, cached, () => {
      const read = 'read' in input ? input.read() : { ok: true as const, content: input.content };
      return read.ok ? keptSourceText(input.file, read.content) : undefined;
    });
    return true;
  }

  // A file's result from an earlier run, when the cache has one for its bytes and this run's catalogue.
  private fromCache(index: number, file: InputFile): boolean {
    const cached = this.cacheFor(index)?.lookup(file.file, file.content, judgingDigest(this.judged().catalogue));
    if (!cached) return false;
    this.taken(index, cached, () => keptSourceText(file.file, file.content));
    return true;
  }

  private taken(index: number, cached: CachedLintResult, textOf: () => SourceText | undefined): void {
    this.kept.add(cached.diagnostics, textOf);
    this.results[index] = { report: cached.report, outcome: cached.outcome };
  }

  // Only files read by path, other than those given as definitions, are looked up and recorded.
  private cacheFor(index: number): LintResultCache | undefined {
    const input = this.inputs[index]!;
    return 'read' in input && input.origin !== 'definition' ? this.options.cache : undefined;
  }

  /** Judges a file read; `file` (its bytes as read) when its result may be recorded in the cache. */
  private judge(index: number, read: ReadInput, file?: InputFile): void {
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
    // The fast path never reads a text holding a suppression comment.
    const hasComments = !read.isFast && read.source.text.includes(SUPPRESSION_KEYWORD);
    if (read.definitions.length > 0) {
      // A file with diagnostics keeps its text only, not what was read from it, nor its line
      // index where that is built again the same if its lines are printed.
      const source = diagnostics.length > 0 || hasComments ? read.source.kept() : undefined;
      this.held.set(index, { report: read.report, diagnostics, outcome, resolution, source, definitionSource: read.source });
      this.results[index] = { report: read.report, outcome };
      return;
    }
    // Comments in the file first, then the configuration's severities (which may also set those of unused-suppression).
    const silenced = hasComments ? applySuppressions(diagnostics, new Map([[read.report.path, read.source]])) : diagnostics;
    const judged = this.options.severityOf ? applySeverities(silenced, this.options.severityOf) : silenced;
    if (outcome) resolveAsJudged(read.report, hasErrors(judged), resolution);
    // Most files of a large run keep nothing: the report shows its first problems only.
    this.kept.add(judged, () => read.source.kept());
    this.results[index] = { report: read.report, outcome };
    if (file) {
      this.cacheFor(index)?.record(file.file, file.content, judgingDigest(this.judged().catalogue), { report: read.report, diagnostics: judged, outcome });
    }
  }

  private assemble(): LintReport {
    const extended = this.judged();
    // The run's own problems first, then those of the files holding definitions, in input order.
    const diagnostics: Diagnostic[] = [...this.aheadReading.diagnostics];
    for (const d of extended.diagnostics) diagnostics.push(d);
    if (this.options.lock && !this.options.lock.update) for (const d of changedDefinitions(extended.catalogue, this.options.lock)) diagnostics.push(d);
    // Files the definitions' own problems are positioned in: their sources are shown too.
    const named = new Set(diagnostics.map((d) => d.file));
    const heldSources = new Map<string, SourceText>();
    for (const held of this.held.values()) {
      for (const d of held.diagnostics) diagnostics.push(d);
      if (held.source) heldSources.set(held.report.path, held.source);
      else if (named.has(held.report.path)) heldSources.set(held.report.path, held.definitionSource);
    }
    const silenced = applySuppressions(diagnostics, heldSources);
    const judged = this.options.severityOf ? applySeverities(silenced, this.options.severityOf) : silenced;
    const failing = new Set(judged.filter((d) => hasErrors([d])).map((d) => d.file));
    for (const held of this.held.values()) if (held.outcome) resolveAsJudged(held.report, failing.has(held.report.path), held.resolution);
    const files: FileReport[] = [];
    const profiles: ProfileOutcome[] = [];
    for (const result of this.results) {
      if (!result) continue;
      files.push(result.report);
      if (result.outcome) profiles.push(result.outcome);
    }
    const kept = this.kept.result();
    const all = [...judged, ...kept.diagnostics].sort(compareDiagnostics);
    const sources = new Map<string, SourceText>(kept.texts);
    for (const [file, source] of heldSources) sources.set(file, source);
    return {
      diagnostics: all,
      ...(kept.leftOut ? { leftOut: kept.leftOut } : {}),
      files,
      sources,
      catalogue: extended.catalogue,
      profiles,
      unread: this.aheadReading.unread + this.unread,
      unreadable: this.aheadReading.unreadable || this.unreadable,
      definitionsInInputs: this.isScanned,
    };
  }
}

/**
 * A profile is resolved exactly when no error remains for it once severities were applied: a
 * raised warning takes `resolved` away, a lowered error gives it.
 */
function resolveAsJudged(report: FileReport, failing: boolean, resolution: ResolvedProfile | undefined): void {
  if (failing) delete report.resolved;
  else if (resolution) report.resolved ??= resolution;
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
