// The entry of a worker thread of `kurel serve` (bundled as dist/serve-worker.js, run by piscina).
// The first worker of a pool loads alone; the others wait until it has (see WorkerSetup.startGate)
// before they import anything, so the first one's modules and catalogue, which the service waits
// for to listen, do not share the CPU with theirs. A wait with a time-out, so a worker terminated
// while it waits ends at once.
import { workerData } from 'node:worker_threads';
import type { WorkerSetup } from './worker-setup.js';

const gate = (workerData as WorkerSetup).startGate;
if (gate && Atomics.add(gate, 0, 1) > 0) while (Atomics.load(gate, 1) === 0) Atomics.wait(gate, 1, 0, 50);

const { run } = await import('./worker-load.js');

export default run;
