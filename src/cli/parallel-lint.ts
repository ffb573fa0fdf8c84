import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Catalogue } from '../catalogue/catalogue.js';
import { compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { DeferredInputFile, FileReport, InputOrigin, RunInput } from '../core/input.js';
import { packageRoot } from '../files/package-files.js';
import { type LintOptions, type LintReport, lintInputs } from '../operations/lint.js';
import { indexedSourceText, type SourceText } from '../yaml/source.js';
import type { LintCommandOptions } from './commands/lint.js';
import type { CommandIo } from './io.js';

/**
 * Files a thread must have before `--jobs` gives it a share: below this a thread's start (about
 * 0.1 s to load and build the catalogue) costs more than it saves.
 */
export const FILES_PER_JOB = 400;

/** How many threads lint `inputs`: `--jobs` (the cores by default), one per {@link FILES_PER_JOB} files, one when standard input is among them. */
export function jobsFor(inputs: readonly RunInput[], jobs: number | undefined): number {
  const wanted = jobs ?? availableParallelism();
  let shared = 0;
  for (const input of inputs) {
    if (input.origin === 'definition') continue;
    if (!('read' in input)) return 1;
    shared += 1;
  }
  return Math.max(1, Math.min(wanted, Math.floor(shared / FILES_PER_JOB)));
}

/** One input as a worker re-creates it: by path, read when its turn comes. */
export interface WorkerInput {
  file: string;
  origin: InputOrigin;
  kind?: string;
}

/** What the main thread hands a lint worker. */
export interface LintWorkerData {
  flags: LintCommandOptions;
  cwd: string;
  env: NodeJS.ProcessEnv;
  inputs: WorkerInput[];
  /** The files of the worker's share: only their diagnostics and reports come back. */
  share: string[];
  keepResolved: boolean;
}

/** What a lint worker answers: its share's part of a {@link LintReport}, texts as strings. */
export interface LintWorkerResult {
  diagnostics: Diagnostic[];
  files: FileReport[];
  sources: [string, string][];
  unreadable: boolean;
  /** True when a file of the share held a CapabilityDefinition: the run must then judge every profile with it. */
  definitionsInInputs: boolean;
  /** A failure of the worker itself. */
  failure?: string;
}

/** The part of a lint report the command prints. */
export type ParallelLintReport = Pick<LintReport, 'diagnostics' | 'files' | 'sources' | 'unread' | 'unreadable'>;

/**
 * Lints as `lintInputs` does, with the files spread over `jobs` threads in contiguous shares:
 * the first on this thread, each other on a worker thread that loads the same handlers,
 * configuration and lockfile. Definitions named as such are read by every thread; their
 * problems are reported once. The report is the one a single thread gives: the same
 * diagnostics in the same order, the files in input order. When a file of a share holds a
 * CapabilityDefinition, every profile must be judged with it, so the run is redone on this
 * thread alone.
 */
export async function lintInParallel(
  inputs: readonly RunInput[],
  catalogue: Catalogue,
  options: LintOptions,
  run: { jobs: number; flags: LintCommandOptions; io: CommandIo; keepResolved: boolean },
): Promise<ParallelLintReport> {
  const definitions = inputs.filter((input) => input.origin === 'definition');
  const shared = inputs.filter((input): input is DeferredInputFile => input.origin !== 'definition' && 'read' in input);
  const size = Math.ceil(shared.length / run.jobs);
  const shares: DeferredInputFile[][] = [];
  for (let start = 0; start < shared.length; start += size) shares.push(shared.slice(start, start + size));
  const asWorkerInput = (input: RunInput): WorkerInput => ({ file: input.file, origin: input.origin, ...(input.kind ? { kind: input.kind } : {}) });
  const workers = shares.slice(1).map((share) =>
    runWorker({
      flags: run.flags,
      cwd: run.io.cwd,
      env: run.io.env,
      inputs: [...share, ...definitions].map(asWorkerInput),
      share: share.map((input) => input.file),
      keepResolved: run.keepResolved,
    }),
  );
  const first = lintInputs([...(shares[0] ?? []), ...definitions], catalogue, options);
  const results = await Promise.all(workers);
  const failed = results.find((result) => result.failure !== undefined);
  if (failed) throw new Error(`a lint worker failed: ${failed.failure}`);
  if (first.definitionsInInputs || results.some((result) => result.definitionsInInputs)) return lintInputs(inputs, catalogue, options);

  // A single thread reports the files of shared inputs in order, then the definitions'.
  const definitionFiles = new Set(definitions.map((input) => input.file));
  const files: FileReport[] = first.files.filter((f) => !definitionFiles.has(f.path));
  const diagnostics: Diagnostic[] = [...first.diagnostics];
  const sources = new Map<string, SourceText>(first.sources);
  let unreadable = first.unreadable;
  for (const result of results) {
    for (const f of result.files) files.push(f);
    for (const d of result.diagnostics) diagnostics.push(d);
    for (const [file, text] of result.sources) sources.set(file, indexedSourceText(file, text));
    unreadable ||= result.unreadable;
  }
  for (const f of first.files) if (definitionFiles.has(f.path)) files.push(f);
  // Each share's diagnostics are sorted; sorting the whole keeps a file's own order (the sort is stable).
  diagnostics.sort(compareDiagnostics);
  return { diagnostics, files, sources, unread: 0, unreadable };
}

function runWorker(data: LintWorkerData): Promise<LintWorkerResult> {
  return new Promise((resolve) => {
    const worker = new Worker(join(packageRoot(), 'dist', 'lint-worker.js'), { workerData: data });
    let answered = false;
    worker.once('message', (result: LintWorkerResult) => {
      answered = true;
      resolve(result);
    });
    worker.once('error', (err) => resolve(failure(err instanceof Error ? err.message : String(err))));
    worker.once('exit', (code) => {
      if (!answered) resolve(failure(`it exited with code ${code}`));
    });
  });
}

function failure(message: string): LintWorkerResult {
  return { diagnostics: [], files: [], sources: [], unreadable: false, definitionsInInputs: false, failure: message };
}
