import { compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';

/**
 * Problems a run counted but did not keep, because no report could show them: each report shows
 * only its first problems in sorted order (docs/profiles.md), and these sort after them.
 */
export interface LeftOutProblems {
  errors: number;
  warnings: number;
  /** The first of them in sorted order: the report's `too-many-problems` summary may be placed in its file. */
  first: Diagnostic;
}

/**
 * Keeps the problems of many files as a report can show them, so that a run over any number of
 * files holds at most about `2 * limit` problems and the texts of their files: every problem a
 * comment suppressed (a report always shows those), the first `limit` of the others in sorted
 * order, and the rest only counted in {@link LeftOutProblems}. A report cut at `limit` or
 * fewer of what it keeps, with the left-out ones counted in, shows exactly what it would show
 * of them all (`reportProblems`). With no limit it keeps everything.
 */
export class KeptProblems<Text> {
  /** Every problem kept, in the order it came. */
  private kept: Diagnostic[] = [];
  /** How many of {@link kept} count against the limit (no comment suppressed them). */
  private counted = 0;
  /** Once a cut was made, the last counted problem kept: one that sorts after it is never shown. */
  private last: Diagnostic | undefined;
  /** The texts of files with problems kept, and of the first left out, to print their lines. */
  private readonly texts = new Map<string, Text>();
  /** How many problems are kept of each file that has any. */
  private readonly keptOf = new Map<string, number>();
  private leftOutErrors = 0;
  private leftOutWarnings = 0;
  private firstLeftOut: Diagnostic | undefined;

  constructor(private readonly limit: number = Number.POSITIVE_INFINITY) {}

  /**
   * Takes problems of the run; `textOf` gives the text of a file whose problems are kept (it is
   * asked only for those, once each).
   */
  add(diagnostics: readonly Diagnostic[], textOf?: (file: string) => Text | undefined): void {
    for (const d of diagnostics) {
      // Past the last one kept, a problem is only counted: a run over sorted files keeps nothing more.
      if (d.suppressed === undefined && this.last && compareDiagnostics(d, this.last) >= 0) {
        this.leaveOut(d);
        if (this.firstLeftOut === d) this.keepText(d.file, textOf);
        continue;
      }
      this.kept.push(d);
      this.keptOf.set(d.file, (this.keptOf.get(d.file) ?? 0) + 1);
      if (d.suppressed === undefined) this.counted += 1;
      this.keepText(d.file, textOf);
    }
    // The first cut comes as soon as there are too many, so that the run learns early which
    // problems it will never show; after it, cutting at twice the limit sorts each problem a
    // bounded number of times.
    if (this.last ? this.counted >= 2 * this.limit : this.counted > this.limit) this.cut();
  }

  /** Counts problems another keeper left out; `textOf` gives the text of the file of the first of them. */
  addLeftOut(leftOut: LeftOutProblems | undefined, textOf?: (file: string) => Text | undefined): void {
    if (!leftOut) return;
    this.leftOutErrors += leftOut.errors;
    this.leftOutWarnings += leftOut.warnings;
    if (this.noteFirst(leftOut.first)) this.keepText(leftOut.first.file, textOf);
  }

  /** The problems kept, in the order they came, the texts of their files, and what was left out. */
  result(): { diagnostics: Diagnostic[]; texts: Map<string, Text>; leftOut: LeftOutProblems | undefined } {
    if (this.counted > this.limit) this.cut();
    const leftOut = this.firstLeftOut ? { errors: this.leftOutErrors, warnings: this.leftOutWarnings, first: this.firstLeftOut } : undefined;
    return { diagnostics: this.kept, texts: this.texts, leftOut };
  }

  // Keeps the first `limit` counted problems, counts the rest, and lets go of texts no kept problem needs.
  private cut(): void {
    // Stable: of problems that sort alike, the one that came first is kept first.
    const sorted = this.kept.filter((d) => d.suppressed === undefined).sort(compareDiagnostics);
    const leftOut = new Set(sorted.slice(this.limit));
    if (leftOut.size === 0) return;
    for (const d of leftOut) this.leaveOut(d);
    this.last = sorted[this.limit - 1];
    this.kept = this.kept.filter((d) => !leftOut.has(d));
    this.counted = this.limit;
    this.keptOf.clear();
    for (const d of this.kept) this.keptOf.set(d.file, (this.keptOf.get(d.file) ?? 0) + 1);
    for (const file of this.texts.keys()) this.dropTextUnlessNeeded(file);
  }

  // The report's summary of what it does not show is placed in the file of the first of those.
  private dropTextUnlessNeeded(file: string): void {
    if (!this.keptOf.has(file) && this.firstLeftOut?.file !== file) this.texts.delete(file);
  }

  private leaveOut(d: Diagnostic): void {
    if (d.severity === 'error') this.leftOutErrors += 1;
    else this.leftOutWarnings += 1;
    this.noteFirst(d);
  }

  // True when `candidate` is now the first problem left out.
  private noteFirst(candidate: Diagnostic): boolean {
    const before = this.firstLeftOut;
    if (before && compareDiagnostics(candidate, before) >= 0) return false;
    this.firstLeftOut = candidate;
    if (before) this.dropTextUnlessNeeded(before.file);
    return true;
  }

  private keepText(file: string, textOf: ((file: string) => Text | undefined) | undefined): void {
    if (!textOf || this.texts.has(file)) return;
    const text = textOf(file);
    if (text !== undefined) this.texts.set(file, text);
  }
}
