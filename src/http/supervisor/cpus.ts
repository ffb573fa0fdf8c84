import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Reads a file's text, or undefined when it cannot be read. */
export type ReadText = (path: string) => string | undefined;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * The CPUs a CFS quota grants, rounded up: cgroup v2's `cpu.max` (`<quota> <period>`, or `max`
 * without a limit), else cgroup v1's `cpu.cfs_quota_us` over `cpu.cfs_period_us` (-1 without a
 * limit). Undefined when no quota is set or none can be read.
 */
export function cgroupCpuQuota(read: ReadText = readText): number | undefined {
  const v2 = read('/sys/fs/cgroup/cpu.max')?.trim().split(/\s+/);
  if (v2 && v2.length === 2) return quotaCpus(v2[0], v2[1]);
  for (const dir of ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct']) {
    const quota = read(`${dir}/cpu.cfs_quota_us`)?.trim();
    if (quota !== undefined) return quotaCpus(quota, read(`${dir}/cpu.cfs_period_us`)?.trim());
  }
  return undefined;
}

function quotaCpus(quota: string | undefined, period: string | undefined): number | undefined {
  if (!quota || !period || !/^\d+$/.test(quota) || !/^\d+$/.test(period)) return undefined;
  const q = Number(quota);
  const p = Number(period);
  return q > 0 && p > 0 ? Math.max(1, Math.ceil(q / p)) : undefined;
}

/**
 * The CPUs this process may use: the container's CPU quota when one is set (Node 20 ignores
 * it), never more than the CPUs Node sees (`os.availableParallelism()`, which counts the
 * affinity mask). The default of `kurel serve --processes`.
 */
export function availableCpus(read: ReadText = readText, parallelism: number = availableParallelism()): number {
  const quota = cgroupCpuQuota(read);
  return Math.max(1, quota === undefined ? parallelism : Math.min(quota, parallelism));
}

/** Worker threads per process by default: the CPUs shared out among the processes, at least one each. */
export function defaultWorkers(cpus: number, processes: number): number {
  return Math.max(1, Math.round(cpus / processes));
}
