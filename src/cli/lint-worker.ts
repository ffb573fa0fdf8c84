import { resolve } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { RunInput } from '../core/input.js';
import { readSourceFile } from '../files/read-file.js';
import { lintInputs } from '../operations/lint.js';
import { configureCommand } from './apply-config.js';
import type { CommandIo } from './io.js';
import { prepareJudging } from './lint-judging.js';
import type { LintWorkerData, LintWorkerResult } from './parallel-lint.js';

// A `kurel lint --jobs` worker: judges its share of the files as the main thread judges its own.
async function lintShare(data: LintWorkerData): Promise<LintWorkerResult> {
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
  if (judging.handlers.refused) throw new Error('the handlers that the main thread loaded could not be loaded again');
  const inputs: RunInput[] = data.inputs.map((input) => ({
    ...input,
    read: () => {
      const read = readSourceFile(resolve(data.cwd, input.file), input.file);
      return read.ok ? { ok: true, content: read.bytes } : read;
    },
  }));
  const report = lintInputs(inputs, judging.handlers.catalogue, judging.lintOptions(data.keepResolved));
  const share = new Set(data.share);
  return {
    diagnostics: report.diagnostics.filter((d) => share.has(d.file)),
    files: report.files.filter((f) => share.has(f.path)),
    sources: [...report.sources].filter(([file]) => share.has(file)).map(([file, source]) => [file, source.text]),
    unreadable: report.unreadable,
    definitionsInInputs: report.definitionsInInputs,
  };
}

lintShare(workerData as LintWorkerData).then(
  (result) => parentPort?.postMessage(result),
  (err: unknown) =>
    parentPort?.postMessage({
      diagnostics: [],
      files: [],
      sources: [],
      unreadable: false,
      definitionsInInputs: false,
      failure: err instanceof Error ? err.message : String(err),
    } satisfies LintWorkerResult),
);
