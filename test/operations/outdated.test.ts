import { describe, expect, it } from 'vitest';
import { isOutdated, type OutdatedRow } from '../../src/operations/outdated.js';

const row = (resolved: string | null, wanted: string | null, latest: string | null): OutdatedRow => ({
  path: 'clusters/prod.yaml',
  key: 'redis-sidecar',
  type: 'redis-sidecar',
  pin: null,
  resolved,
  locked: null,
  wanted,
  latest,
});

describe('isOutdated (kurel outdated --check)', () => {
  it.each([
    ['below the latest release', row('1.0.0', '1.0.0', '1.1.0'), true],
    ['locked below what its pin allows', row('1.1.0', '1.2.0', '1.2.0'), true],
    ['at both', row('1.1.0', '1.1.0', '1.1.0'), false],
    ['a prerelease above the latest release', row('2.0.0-rc.1', '2.0.0-rc.1', '1.1.0'), false],
    ['resolving to nothing (an error of its own)', row(null, null, '1.1.0'), false],
    ['with nothing to compare', row('1.0.0', null, null), false],
  ])('%s', (_name, given, expected) => {
    expect(isOutdated(given)).toBe(expected);
  });
});
