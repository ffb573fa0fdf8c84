import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// kurel is developed and tested on Node 20: every package the lockfile installs, test-only ones
// included, accepts Node 20, so `npm ci` prints no EBADENGINE warning there. (The test runner
// itself needs Node 20.19 or later.)
const lock = JSON.parse(readFileSync(fileURLToPath(new URL('../package-lock.json', import.meta.url)), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } }>;
};

describe('the lockfile', () => {
  it('holds no package that refuses Node 20', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => typeof entry.engines?.node === 'string' && !semver.satisfies('20.19.0', entry.engines.node))
      .map(([name, entry]) => `${name} ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
