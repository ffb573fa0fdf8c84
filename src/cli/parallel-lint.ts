import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Catalogue } from '../catalogue/catalogue.js';
import { compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { DeferredInputFile, FileReport, InputOrigin, RunInput } from '../core/input.js';
import { packageRoot } from '../files/package-files.js';
import { KeptProblems, type LeftOutProblems } from '../operations/kept-problems.js';
import { type LintOptions, type LintReport, lintInputs } from '../operations/lint.js';
import { indexedSourceText, type SourceText } from '../yaml/source.js';
import type { LintCommandOptions } from './lint-options.js';

/**
 * Files each thread must have before a run uses more than one by default. Each thread is a V8
 * isolate that loads, warms and compiles the same code again: at 10,000 files a second thread
 * made the run about 1.04x faster on 2 idle cores for 1.3–1.5x the CPU and about 46 MiB more
 * memory, and slower on shared cores (docs/performance.md), so only runs of 40,000 files and
 * more use two by default.
 */
export const FILES_PER_JOB = 20_000;

/** Files handed out at a time: small enough that threads finish together, large enough that handing out costs nothing. */
export const FILES_PER_BATCH = 200;

/**
 * How many threads to start for `--jobs N` before the files are known, besides this one: none
 * when the paths are regular files too few to fill two batches (they are all the files there
 * will be), else N − 1 but no more than the cores allow; {@link jobsFor} then ends those the
 * files turn out not to need. Never more because N is large: each thread is an isolate of tens
 * of MiB.
 */
export function earlyThreads(paths: readonly string[], jobs: number, cwd: string): number {
  const most = Math.min(jobs, availableParallelism()) - 1;
  if (most <= 0 || paths.includes('-')) return 0;
  if (paths.length > FILES_PER_BATCH) return most;
  // A folder or a glob can hold any number of files; a regular file is one.
  return paths.every((path) => isRegularFile(resolve(cwd, path))) ? 0 : most;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * How many threads lint `inputs`: with `--jobs N`, N, but no more than there are batches of
 * files nor than the cores available; without it, the cores available, one per
 * {@link FILES_PER_JOB} files. One when an input was read before the run (standard input, the
 * definitions of a registry source).
 */
export function jobsFor(inputs: readonly RunInput[], jobs: number | undefined): number {
  let shared = 0;
  for (const input of inputs) {
    // A worker reads its inputs by path: one already read here (standard input, a registry source's definitions) keeps the run on this thread.
    if (!('read' in input)) return 1;
    if (input.origin === 'definition') continue;
    shared += 1;
  }
  if (jobs !== undefined) return Math.max(1, Math.min(jobs, availableParallelism(), Math.ceil(shared / FILES_PER_BATCH)));
  return Math.max(1, Math.min(availableParallelism(), Math.floor(shared / FILES_PER_JOB)));
}

/** One input as a worker re-creates it: by path, read when its turn comes. */
export interface WorkerInput {
  file: string;
  origin: InputOrigin;
  kind?: string;
}

/** What the main thread hands a lint worker when it starts it, before the files are known. */
export interface LintWorkerData {
  flags: LintCommandOptions;
  cwd: string;
  env: NodeJS.ProcessEnv;
  keepResolved: boolean;
  /**
   * The next batch to take, shared by every thread of the run: a thread takes one with
   * `Atomics.add`, so none waits for another to hand it work.
   */
  nextBatch: SharedArrayBuffer;
}

/** The run's files, handed to a worker once they are gathered. */
export type LintWorkerShare = {
  /** The files shared out, in input order; batch `b` is files `b * FILES_PER_BATCH` up to the next batch's first. */
  files: WorkerInput[];
  /** The inputs given as definitions: a worker reads them with its first batch. */
  definitions: WorkerInput[];
};

/** What a thread found in one batch: the part of a {@link LintReport} about the batch's files, texts as strings. */
export interface LintBatchResult {
  batch: number;
  diagnostics: Diagnostic[];
  /** The problems of the batch's files that it counted but did not keep. */
  leftOut?: LeftOutProblems | undefined;
  files: FileReport[];
  sources: [string, string][];
  unreadable: boolean;
  /** True when a file of the batch held a CapabilityDefinition: the run must then judge every profile with it. */
  definitionsInInputs: boolean;
  /** A failure of the worker itself. */
  failure?: string;
}

// A batch's result on this thread: texts of its own batches stay parsed.
type BatchOutcome = Omit<LintBatchResult, 'sources'> & { sources: [string, string | SourceText][] };

/** The part of a lint report the command prints. */
export type ParallelLintReport = Pick<LintReport, 'diagnostics' | 'leftOut' | 'files' | 'sources' | 'unread' | 'unreadable'>;

/**
 * Lints as `lintInputs` does, with the files spread over `jobs` threads: this one and worker
 * threads that load the same handlers, configuration and lockfile. Files are taken in batches
 * of consecutive files from a counter every thread shares, so a thread that started late takes
 * fewer and none waits for another. Definitions named as such are read once by each thread and
 * their problems reported once. The report is the one a single thread gives: the same
 * diagnostics in the same order, the files in input order. When a file among the batches holds
 * a CapabilityDefinition, every profile must be judged with it, so the run is redone on this
 * thread alone.
 */
export async function lintInParallel(
  inputs: readonly RunInput[],
  catalogue: Catalogue,
  options: LintOptions,
  run: { jobs: number; workers: LintWorkers; workersOnly?: boolean },
): Promise<ParallelLintReport> {
  const definitions = inputs.filter((input) => input.origin === 'definition');
  const shared = inputs.filter((input): input is DeferredInputFile => input.origin !== 'definition' && 'read' in input);
  const batchCount = Math.ceil(shared.length / FILES_PER_BATCH);
  const results: BatchOutcome[] = new Array(batchCount);
  const take = batchTaker(run.workers.nextBatch, batchCount);
  const workers = run.workers.share({ files: shared.map(asWorkerInput), definitions: definitions.map(asWorkerInput) }, run.jobs - 1, (result) => {
    results[result.batch] = result;
  });

  // This thread reads the definitions with its first batch and reports their problems; later
  // batches reuse the catalogue that batch built.
  let judging = catalogue;
  let first: { batch: number | undefined; report: LintReport } | undefined;
  // With `workersOnly` this thread reads only the definitions, for their own report.
  if (run.workersOnly) first = { batch: undefined, report: lintInputs(definitions, catalogue, options) };
  for (let batch = run.workersOnly ? undefined : take(); batch !== undefined; batch = take()) {
    const files = batchOf(shared, batch);
    const report = lintInputs(first ? files : [...files, ...definitions], judging, options);
    if (!first) {
      first = { batch, report };
      judging = report.catalogue;
    }
    results[batch] = batchResultOf(batch, report, files, (source) => source);
    // Lets the workers' results in as they come rather than all at the end.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const failure = (await workers).find((f) => f !== undefined);
  if (failure !== undefined) throw new Error(`a lint worker failed: ${failure}`);
  if (results.some((result) => result.definitionsInInputs)) return lintInputs(inputs, catalogue, options);

  const files: FileReport[] = [];
  // Each batch kept what its report could show; of all of them the run keeps what its own can.
  const kept = new KeptProblems<string | SourceText>(options.reportLimit);
  let unreadable = false;
  for (const result of results) {
    for (const f of result.files) files.push(f);
    const texts = new Map(result.sources);
    const textOf = (file: string) => texts.get(file);
    kept.add(result.diagnostics, textOf);
    kept.addLeftOut(result.leftOut, textOf);
    unreadable ||= result.unreadable;
  }
  // The definitions' own reports, problems and texts, as this thread's first batch found them.
  if (first) {
    const batchFiles = new Set(first.batch === undefined ? [] : batchOf(shared, first.batch).map((input) => input.file));
    for (const f of first.report.files) if (!batchFiles.has(f.path)) files.push(f);
    kept.add(
      first.report.diagnostics.filter((d) => !batchFiles.has(d.file)),
      (file) => first.report.sources.get(file),
    );
    unreadable ||= first.report.unreadable;
  }
  const { diagnostics, texts, leftOut } = kept.result();
  // Each batch's diagnostics are sorted; sorting the whole keeps a file's own order (the sort is stable).
  diagnostics.sort(compareDiagnostics);
  const sources = new Map<string, SourceText>();
  for (const [file, text] of texts) sources.set(file, typeof text === 'string' ? indexedSourceText(file, text) : text);
  return { diagnostics, ...(leftOut ? { leftOut } : {}), files, sources, unread: 0, unreadable };
}

/** The files of batch `batch`: consecutive files, {@link FILES_PER_BATCH} of them but in the last. */
export function batchOf<Input>(files: readonly Input[], batch: number): Input[] {
  return files.slice(batch * FILES_PER_BATCH, (batch + 1) * FILES_PER_BATCH);
}

/** Takes the next batch from a counter shared by the threads of a run; undefined once all `count` are taken. */
export function batchTaker(counter: SharedArrayBuffer, count: number): () => number | undefined {
  const next = new Int32Array(counter);
  return () => {
    // Past the end the counter keeps growing by one per thread, far from overflowing.
    const batch = Atomics.add(next, 0, 1);
    return batch < count ? batch : undefined;
  };
}

function asWorkerInput(input: RunInput): WorkerInput {
  return { file: input.file, origin: input.origin, ...(input.kind ? { kind: input.kind } : {}) };
}

/**
 * The part of a batch's report about its own files: the definitions' problems, and those a
 * lockfile reports, belong to the run and are taken once.
 */
export function batchResultOf<Text>(
  batch: number,
  report: LintReport,
  inputs: readonly { file: string }[],
  textOf: (source: SourceText) => Text,
): Omit<LintBatchResult, 'sources'> & { sources: [string, Text][] } {
  const own = new Set(inputs.map((input) => input.file));
  return {
    batch,
    diagnostics: report.diagnostics.filter((d) => own.has(d.file)),
    // Only the batch's own files' problems are ever left out: the run's own are all kept.
    ...(report.leftOut ? { leftOut: report.leftOut } : {}),
    files: report.files.filter((f) => own.has(f.path)),
    sources: [...report.sources].filter(([file]) => own.has(file)).map(([file, source]) => [file, textOf(source)]),
    unreadable: report.unreadable,
    definitionsInInputs: report.definitionsInInputs,
  };
}

/**
 * Lint worker threads, started before the run's files are gathered so that they load and
 * build their catalogue meanwhile; each judges nothing until it is handed the files.
 */
export class LintWorkers {
  /** The counter of {@link LintWorkerData.nextBatch}, shared with every worker. */
  readonly nextBatch = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private readonly workers: Worker[];
  private readonly failures: (string | undefined)[];
  private readonly exits: Promise<void>[];
  private isHandedOut = false;
  private onResult: (result: LintBatchResult) => void = () => {};

  /** Starts `count` workers for a run with these flags. */
  constructor(count: number, setup: Omit<LintWorkerData, 'nextBatch'>) {
    const data: LintWorkerData = { ...setup, nextBatch: this.nextBatch };
    this.failures = new Array(count).fill(undefined);
    this.workers = Array.from({ length: count }, () => new Worker(join(packageRoot(), 'dist', 'lint-worker.cjs'), { workerData: data }));
    this.exits = this.workers.map(
      (worker, index) =>
        new Promise((resolve) => {
          worker.on('message', (message: LintBatchResult) => {
            if (message.failure !== undefined) this.failures[index] ??= message.failure;
            else this.onResult(message);
          });
          worker.once('error', (err) => {
            this.failures[index] ??= err instanceof Error ? err.message : String(err);
          });
          worker.once('exit', (code) => {
            if (code !== 0) this.failures[index] ??= `it exited with code ${code}`;
            resolve();
          });
        }),
    );
  }

  /** How many workers there are. */
  get count(): number {
    return this.workers.length;
  }

  /**
   * Hands the run's files to the first `use` workers and ends the others; resolves with each
   * used worker's failure, if any, once all have stopped.
   */
  async share(files: NonNullable<LintWorkerShare>, use: number, onResult: (result: LintBatchResult) => void): Promise<(string | undefined)[]> {
    this.onResult = onResult;
    this.isHandedOut = true;
    for (const [index, worker] of this.workers.entries()) {
      if (index < use) worker.postMessage(files satisfies LintWorkerShare);
      else void worker.terminate();
    }
    await Promise.all(this.exits);
    return this.failures.slice(0, use);
  }

  /**
   * Ends every worker that was never handed the files (a run that judged nothing, or on one
   * thread) at once, wherever its start has got to.
   */
  stop(): void {
    if (this.isHandedOut) return;
    this.isHandedOut = true;
    for (const worker of this.workers) void worker.terminate();
  }
}
