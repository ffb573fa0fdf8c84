import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { logClock } from '../../src/http/log-lines.js';
import { createLogger } from '../../src/http/logger.js';
import { pendingLogger } from '../../src/http/pending-logger.js';

// A serving process logs before pino has loaded (src/http/pending-logger.ts): its lines are
// written through pino once it has, in order and with the time each was logged.

function sink() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('the pending logger', () => {
  it('writes the lines kept before pino through it, in order, with their own time, as pino would have written them', async () => {
    // A clock the test moves: the lines are logged 30 ms apart, however loaded the machine.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-02T03:04:05.000Z') });
    try {
      const pending = pendingLogger('info');
      const child = pending.child({ pid: 42 });
      const before = Date.now();
      child.info({ url: 'http://x' }, 'listening');
      pending.debug('left out at info');
      vi.setSystemTime(before + 30);
      child.warn({ errors: ['a'] }, 'definitions loaded with warnings');
      pending.error(new Error('boom'), 'failed');
      expect(pending.isLevelEnabled('info')).toBe(true);
      expect(pending.isLevelEnabled('debug')).toBe(false);
      vi.setSystemTime(before + 50);
      const out = sink();
      const clock = logClock();
      pending.settle(createLogger('info', out.stream, clock), clock);
      child.info('after');
      await flushed();
      // The same lines a pino logger from the start writes, time apart.
      const reference = sink();
      const direct = createLogger('info', reference.stream);
      direct.child({ pid: 42 }).info({ url: 'http://x' }, 'listening');
      direct.child({ pid: 42 }).warn({ errors: ['a'] }, 'definitions loaded with warnings');
      direct.error(new Error('boom'), 'failed');
      direct.child({ pid: 42 }).info('after');
      await flushed();
      const timeless = (lines: Record<string, unknown>[]) =>
        lines.map(({ time: _t, err, ...rest }) => ({ ...rest, err: (err as { message?: string } | undefined)?.message }));
      expect(timeless(out.lines)).toEqual(timeless(reference.lines));
      const times = out.lines.map((line) => Number(line['time']));
      // Each kept line carries the time it was logged, not the time it was written.
      expect(times).toEqual([before, before + 30, before + 30, before + 50]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps at most the lines it is allowed, dropping the oldest, and nothing for a silent level', () => {
    const pending = pendingLogger('info', 2);
    for (const n of [1, 2, 3]) pending.info({ n }, 'line');
    const out = sink();
    const clock = logClock();
    pending.settle(createLogger('info', out.stream, clock), clock);
    return flushed().then(() => {
      expect(out.lines.map((line) => line['n'])).toEqual([2, 3]);
      const silent = pendingLogger('silent');
      silent.fatal('nothing');
      expect(silent.isLevelEnabled('fatal')).toBe(false);
    });
  });
});
