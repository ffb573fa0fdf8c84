// The service's one door for the CLI (ARCHITECTURE.md). It loads nothing heavy: `kurel serve`'s
// supervisor opens its front through it before the CLI loads, a serving process runs the service
// through it without loading the CLI at all (the supervisor sends it the options), and the
// service itself (service.ts) and the supervisor (supervisor/primary.ts) load only in the process
// that runs them.
import cluster from 'node:cluster';
import type { ServiceOptions } from './service.js';
import { type HeldSignals, holdSignals, startEarly } from './supervisor/early-start.js';
import type { SupervisorOptions } from './supervisor/primary.js';
import type { ServiceIo } from './supervisor/service-io.js';

export type { ServiceOptions } from './service.js';
export { isServingProcess, runServingProcess } from './serving-process.js';
export { availableCpus, defaultWorkers } from './supervisor/cpus.js';
export type { HeldSignals } from './supervisor/early-start.js';
export type { SupervisorOptions } from './supervisor/primary.js';
export type { ServiceIo } from './supervisor/service-io.js';
export type { DefinitionFolder } from './work/pool-loader.js';

/**
 * In the supervisor of `kurel serve <args>` (node:cluster's primary), opens the listening socket
 * at once, from the host, port and TLS flags of `args`, so `/healthz` answers while the rest
 * loads, and starts the first serving process as soon as it listens. `signals` are those kept
 * since the program's first line, which the supervisor handles once it runs.
 */
export function openFrontEarly(args: readonly string[], signals?: HeldSignals): void {
  if (!cluster.isPrimary) return;
  if (signals) holdSignals(signals);
  startEarly(args);
}

/**
 * Runs the supervisor of `kurel serve` (node:cluster's primary), which forks and keeps the
 * serving processes and sends each `options.service`; loaded only in the supervisor. Resolves to
 * the exit code.
 */
export async function runSupervisor(options: SupervisorOptions & { service: ServiceOptions }, io: ServiceIo): Promise<number> {
  const { runSupervisor: supervise } = await import('./supervisor/primary.js');
  return supervise(options, io);
}

/** Runs the validation service (service.ts) until it stops; resolves to the exit code. */
export async function runService(options: ServiceOptions, io: ServiceIo): Promise<number> {
  const { runService: run } = await import('./service.js');
  return run(options, io);
}
