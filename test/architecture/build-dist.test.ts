import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distIsStale } from '../setup/build-dist.js';

// The global setup rebuilds dist/ exactly when it is stale, so a test never runs an old build.
describe('distIsStale (test/setup/build-dist.ts)', () => {
  let root: string;
  // A file written with the given modification time; its folders keep an old one (a folder's own
  // time counts too: a file deleted from src/ makes the build stale).
  const at = (path: string, seconds: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
    for (let dir = join(path, '..'); dir !== '.'; dir = join(dir, '..')) utimesSync(join(root, dir), 1, 1);
  };
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is stale without dist/cli.cjs', () => {
    root = mkdtempSync(join(tmpdir(), 'kurel-dist-'));
    at('src/cli/main.ts', 1_000);
    expect(distIsStale(root)).toBe(true);
  });

  it('is fresh when the build is newer than every input, and stale once any input is newer', () => {
    root = mkdtempSync(join(tmpdir(), 'kurel-dist-'));
    for (const input of ['src/cli/main.ts', 'handlers/expose.ts', 'console/main.ts', 'scripts/build.mjs', 'package.json']) at(input, 1_000);
    at('dist/cli.cjs', 2_000);
    expect(distIsStale(root)).toBe(false);
    at('console/playground/share.ts', 3_000);
    expect(distIsStale(root)).toBe(true);
    at('dist/cli.cjs', 4_000);
    expect(distIsStale(root)).toBe(false);
    at('scripts/build.mjs', 5_000);
    expect(distIsStale(root)).toBe(true);
  });

  it('is stale when a file was deleted from a folder of sources after the build', () => {
    root = mkdtempSync(join(tmpdir(), 'kurel-dist-'));
    at('src/core/old.ts', 1_000);
    at('dist/cli.cjs', 2_000);
    expect(distIsStale(root)).toBe(false);
    rmSync(join(root, 'src/core/old.ts'));
    expect(distIsStale(root)).toBe(true);
  });
});
