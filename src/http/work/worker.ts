// The entry of a worker thread of `kurel serve` (bundled as dist/serve-worker.cjs, run by piscina):
// a launcher that runs the worker from its CommonJS bundle (dist/bundles/serve-worker.cjs) with
// V8's code cache (docs/performance.md, "Warm start").
// The first worker of a pool loads alone; the others wait until it has (see WorkerSetup.startGate)
// before they load anything, so the first one's code and catalogue, which the service waits
// for to listen, do not share the CPU with theirs. A wait with a time-out, so a worker terminated
// while it waits ends at once.
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { loadBundle } from '../../core/code-cache.js';
import type { loadWorker } from './worker-load.js';
import type { WorkerSetup } from './worker-setup.js';

// Written by the build: the bundle's digest, which names its code cache.
declare const KUREL_BUNDLE_DIGEST: string;

const gate = (workerData as WorkerSetup).startGate;
if (gate && Atomics.add(gate, 0, 1) > 0) while (Atomics.load(gate, 1) === 0) Atomics.wait(gate, 1, 0, 50);

const bundle = loadBundle({
  file: join(__dirname, 'bundles', 'serve-worker.cjs'),
  digest: KUREL_BUNDLE_DIGEST,
  name: 'serve-worker',
  importModule: (specifier) => import(specifier),
});
// piscina awaits a default export that is a promise: the task runner, once the catalogue has loaded.
module.exports = { __esModule: true, default: (bundle['loadWorker'] as typeof loadWorker)() };
