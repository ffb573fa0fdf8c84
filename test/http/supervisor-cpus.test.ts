import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableCpus, cgroupCpuQuota, defaultWorkers } from '../../src/http/supervisor/cpus.js';
import { restartDelay } from '../../src/http/supervisor/restart-delay.js';

const files = (entries: Record<string, string>) => (path: string) => entries[path];

describe('the CPUs a container is given', () => {
  it.each([
    ['cgroup v2 with a quota of 1.5 CPUs', { '/sys/fs/cgroup/cpu.max': '150000 100000\n' }, 2],
    ['cgroup v2 with a quota of 4 CPUs', { '/sys/fs/cgroup/cpu.max': '400000 100000\n' }, 4],
    ['cgroup v2 with a quota under one CPU', { '/sys/fs/cgroup/cpu.max': '20000 100000\n' }, 1],
    ['cgroup v2 without a quota', { '/sys/fs/cgroup/cpu.max': 'max 100000\n' }, undefined],
    ['cgroup v1 with a quota of 3 CPUs', { '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '300000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' }, 3],
    ['cgroup v1 without a quota', { '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' }, undefined],
    ['cgroup v1 under cpu,cpuacct', { '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '200000', '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000' }, 2],
    ['no cgroup files', {}, undefined],
    ['a malformed cpu.max', { '/sys/fs/cgroup/cpu.max': 'lots 100000' }, undefined],
  ])('reads %s', (_name, entries, cpus) => {
    expect(cgroupCpuQuota(files(entries))).toBe(cpus);
  });

  it('is the quota, never more than the CPUs Node sees, and the CPUs Node sees without one', () => {
    expect(availableCpus(files({ '/sys/fs/cgroup/cpu.max': '200000 100000' }), 8)).toBe(2);
    expect(availableCpus(files({ '/sys/fs/cgroup/cpu.max': '1600000 100000' }), 8)).toBe(8);
    expect(availableCpus(files({ '/sys/fs/cgroup/cpu.max': 'max 100000' }), 8)).toBe(8);
    expect(availableCpus(files({}), 3)).toBe(3);
  });

  it('shares the CPUs out among the processes as worker threads, at least one each', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 256 }), fc.integer({ min: 1, max: 256 }), (cpus, processes) => {
        const workers = defaultWorkers(cpus, processes);
        expect(workers).toBeGreaterThanOrEqual(1);
        if (processes <= cpus) expect(Math.abs(workers * processes - cpus)).toBeLessThanOrEqual(processes / 2);
        else expect(workers).toBe(1);
      }),
    );
    expect(defaultWorkers(2, 2)).toBe(1);
    expect(defaultWorkers(8, 2)).toBe(4);
  });
});

describe('the delay before a process is replaced', () => {
  it('is none for the first death in a minute, then doubles from 100 ms up to 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 8, 9, 50].map(restartDelay)).toEqual([0, 0, 100, 200, 400, 800, 6400, 10_000, 10_000]);
  });
});
