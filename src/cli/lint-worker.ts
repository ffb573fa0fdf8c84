import { parentPort, workerData } from 'node:worker_threads';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { RunInput } from '../core/input.js';
import { deferredInput } from '../files/gather-inputs.js';
import { lintInputs } from '../operations/lint.js';
import { configureCommand } from './apply-config.js';
import type { CommandIo } from './io.js';
import { prepareJudging } from './lint-judging.js';
import { batchResultOf, type LintBatchResult, type LintWorkerBatch, type LintWorkerData, type WorkerInput } from './parallel-lint.js';

// A `kurel lint --jobs` worker: judges the batches of files it is handed as the main thread
// judges its own, then stops when it is handed none.
const data = workerData as LintWorkerData;
const port = parentPort!;

async function start(): Promise<void> {
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
  const options = judging.lintOptions(data.keepResolved);
  let catalogue: Catalogue = judging.catalogue.catalogue;
  let withDefinitions = false;
  port.on('message', (message: LintWorkerBatch) => {
    if (message === null) {
      port.close();
      return;
    }
    try {
      const files = message.inputs.map(deferred);
      const report = lintInputs(withDefinitions ? files : [...files, ...data.definitions.map(deferred)], catalogue, options);
      if (!withDefinitions) {
        catalogue = report.catalogue;
        withDefinitions = true;
      }
      port.postMessage(batchResultOf(message.batch, report, files, (source) => source.text) satisfies LintBatchResult);
    } catch (err) {
      port.postMessage(failed(message.batch, err));
    }
  });
  port.postMessage('ready');
}

function deferred(input: WorkerInput): RunInput {
  return deferredInput(input.file, input.origin, data.cwd, input.kind);
}

function failed(batch: number, err: unknown): LintBatchResult {
  const failure = err instanceof Error ? err.message : String(err);
  return { batch, diagnostics: [], files: [], sources: [], unreadable: false, definitionsInInputs: false, failure };
}

start().catch((err: unknown) => {
  port.postMessage(failed(-1, err));
  port.close();
});
