import { parentPort, workerData } from 'node:worker_threads';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { RunInput } from '../core/input.js';
import { deferredInput } from '../files/gather-inputs.js';
import { lintInputs } from '../operations/lint.js';
import { configureCommand } from './configure-command.js';
import type { CommandIo } from './io.js';
import { type LintJudging, prepareJudging } from './lint-judging.js';
import {
  batchOf,
  batchResultOf,
  batchTaker,
  FILES_PER_BATCH,
  type LintBatchResult,
  type LintWorkerData,
  type LintWorkerShare,
  type WorkerInput,
} from './parallel-lint.js';

// A `kurel lint --jobs` worker: builds what it judges with while the main thread gathers the
// files, then takes batches of them from the counter the run's threads share and judges them as
// the main thread judges its own, until none is left.
const data = workerData as LintWorkerData;
const port = parentPort!;

// The run's files come once; they may come before the catalogue is built.
const shared = new Promise<LintWorkerShare>((resolve) => port.once('message', resolve));

async function start(): Promise<void> {
  const judging = await prepare();
  const share = await shared;
  const options = judging.lintOptions(data.keepResolved);
  let catalogue: Catalogue = judging.catalogue.ok ? judging.catalogue.catalogue : unreachable();
  let withDefinitions = false;
  const take = batchTaker(data.nextBatch, Math.ceil(share.files.length / FILES_PER_BATCH));
  for (let batch = take(); batch !== undefined; batch = take()) {
    const files = batchOf(share.files, batch).map(deferred);
    const report = lintInputs(withDefinitions ? files : [...files, ...share.definitions.map(deferred)], catalogue, options);
    if (!withDefinitions) {
      catalogue = report.catalogue;
      withDefinitions = true;
    }
    port.postMessage(batchResultOf(batch, report, files, (source) => source.text) satisfies LintBatchResult);
  }
}

async function prepare(): Promise<LintJudging> {
  const io: CommandIo = {
    stdout: () => {},
    stderr: () => {},
    stdin: async () => new Uint8Array(),
    cwd: data.cwd,
    env: data.env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  const configured = configureCommand(data.flags, io, () => {});
  if (!configured.ok) throw new Error('the configuration that the main thread read could not be read again');
  const judging = await prepareJudging(data.flags, configured, io);
  if (!judging.catalogue.ok) throw new Error('the handlers that the main thread loaded could not be loaded again');
  return judging;
}

function unreachable(): never {
  throw new Error('a lint worker judged without a catalogue');
}

function deferred(input: WorkerInput): RunInput {
  return deferredInput(input.file, input.origin, data.cwd, input.kind);
}

function failed(err: unknown): LintBatchResult {
  const failure = err instanceof Error ? err.message : String(err);
  return { batch: -1, diagnostics: [], files: [], sources: [], unreadable: false, definitionsInInputs: false, failure };
}

start()
  .catch((err: unknown) => port.postMessage(failed(err)))
  .finally(() => port.close());
