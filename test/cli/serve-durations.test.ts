import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/cli/commands/serve.js';

// `--request-timeout` and `--send-timeout` take durations written as `4s` or `500ms` (docs/service.md).
describe('durations of kurel serve flags', () => {
  it('reads every whole number of seconds or milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (n) => {
        expect(parseDuration(`${n}s`)).toBe(n * 1000);
        expect(parseDuration(`${n}ms`)).toBe(n);
      }),
    );
  });

  it('refuses anything else: no unit, another unit, zero, a sign, a fraction, spaces', () => {
    for (const text of ['5', '0s', '0ms', '-1s', '+1s', '1.5s', ' 5s', '5s ', '5 s', '5m', '5h', '5S', '5Ms', 's', 'ms', '', '1e3ms', '0x10s']) {
      expect(parseDuration(text), text).toBeUndefined();
    }
  });
});
