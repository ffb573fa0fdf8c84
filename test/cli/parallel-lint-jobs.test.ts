import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { FILES_PER_BATCH, FILES_PER_JOB, jobsFor } from '../../src/cli/parallel-lint.js';
import type { InputOrigin, RunInput } from '../../src/core/input.js';

// How many threads `kurel lint` uses (docs/cli.md, `--jobs`): the default counts one thread per
// FILES_PER_JOB files read by path, up to the cores; `--jobs N` is bounded by the batches.
function files(count: number, origin: InputOrigin = 'directory'): RunInput[] {
  return Array.from({ length: count }, (_, i) => ({ file: `p${i}.yaml`, origin, read: () => ({ ok: true, content: new Uint8Array() }) }));
}

describe('jobsFor', () => {
  it('keeps a run of 10,000 files on one thread by default: a second one does not pay for its memory there', () => {
    expect(FILES_PER_JOB).toBe(20_000);
    expect(jobsFor(files(10_000), undefined)).toBe(1);
    expect(jobsFor(files(2 * FILES_PER_JOB - 1), undefined)).toBe(1);
  });

  it('uses one thread per FILES_PER_JOB files by default, no more than the cores', () => {
    expect(jobsFor(files(2 * FILES_PER_JOB), undefined)).toBe(Math.min(availableParallelism(), 2));
  });

  it('counts neither definitions nor inputs given as text', () => {
    const definitions = files(2 * FILES_PER_JOB, 'definition');
    expect(jobsFor([...files(10), ...definitions], undefined)).toBe(1);
    expect(jobsFor([...files(10), ...definitions], 4)).toBe(1);
  });

  it('takes --jobs as asked, but no more threads than batches', () => {
    expect(jobsFor(files(10_000), 2)).toBe(2);
    expect(jobsFor(files(2 * FILES_PER_BATCH + 1), 5)).toBe(3);
    expect(jobsFor(files(1), 1)).toBe(1);
  });

  it('stays on one thread when standard input is among the inputs', () => {
    const stdin: RunInput = { file: '-', content: 'kind: ClusterProfile\n', origin: 'argument' };
    expect(jobsFor([...files(2 * FILES_PER_JOB), stdin], undefined)).toBe(1);
    expect(jobsFor([...files(10_000), stdin], 2)).toBe(1);
  });

  it("stays on one thread when a definition was read before the run (a registry source's files), which a worker could not read by its name", () => {
    const fetched: RunInput = {
      file: `oci://ghcr.io/acme/defs@sha256:${'d'.repeat(64)}#queue.yaml`,
      content: 'kind: CapabilityDefinition\n',
      origin: 'definition',
    };
    expect(jobsFor([...files(2 * FILES_PER_JOB), fetched], undefined)).toBe(1);
    expect(jobsFor([...files(10_000), fetched], 4)).toBe(1);
  });
});
