// Small timing helpers shared by the bench scripts: medians, timed calls and processes, formatted
// figures (budget lines are lib/budget.mjs).
import { spawnSync } from 'node:child_process';

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds since an arbitrary origin, with sub-millisecond precision. */
export function now() {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Wall time in milliseconds of one child process run to completion; throws when it exits badly. */
export function timeProcess(command, args, { okCodes = [0], cwd, env } = {}) {
  const start = now();
  const run = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  const elapsed = now() - start;
  if (run.error) throw run.error;
  if (!okCodes.includes(run.status)) {
    throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${String(run.stderr || run.stdout).slice(0, 500)}`);
  }
  return elapsed;
}

/**
 * Median times in milliseconds of one call of each function, measured in rounds that take
 * turns between the functions, so that load on the machine falls on all of them alike. Each
 * function is warmed up first (at least `warmUpCalls` calls: figures are of optimised code); fast calls are timed in batches
 * of about a millisecond so the timer's own cost does not swell them. A round takes up to three
 * samples of each function (within `roundMs`): the first one may pay for garbage the previous
 * function left, and the median leaves it out.
 */
export function timeCalls(fns, { rounds = 5, roundMs = 300, warmUpMs = 100, warmUpCalls = 2 } = {}) {
  const batches = fns.map((fn) => {
    const start = now();
    let calls = 0;
    while (calls < warmUpCalls || now() - start < warmUpMs) {
      fn();
      calls += 1;
    }
    const perCall = (now() - start) / calls;
    return perCall < 1 ? Math.ceil(1 / Math.max(perCall, 1e-4)) : 1;
  });
  const samples = fns.map(() => []);
  for (let round = 0; round < rounds; round++) {
    fns.forEach((fn, k) => {
      const roundStart = now();
      for (let taken = 0; taken < 3 && (taken === 0 || now() - roundStart < roundMs); taken++) {
        const start = now();
        for (let i = 0; i < batches[k]; i++) fn();
        samples[k].push((now() - start) / batches[k]);
      }
    });
  }
  return samples.map(median);
}

/** A figure with its unit, rounded for printing. */
export function ms(value) {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
}

/** A ratio for printing, `1.42x`. */
export function ratio(value) {
  return `${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}x`;
}

/** Megabytes of a byte count, for printing. */
export function mb(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
