import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCaptured } from '../helpers/cli.js';

// The writes of kurel migrate and kurel lock, run in-process so that an edit between the read
// and the write, or a failing rename, is injected through node:fs rather than timed.
const seam = vi.hoisted(() => ({
  /** Called when a temporary file is opened, before any target is replaced. */
  onTemporary: undefined as ((path: string) => void) | undefined,
  /** Throws for a rename that must fail. */
  onRename: undefined as ((from: string, to: string) => void) | undefined,
}));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    openSync: (path: string, ...rest: unknown[]) => {
      if (typeof path === 'string' && path.includes('.kurel-tmp-')) seam.onTemporary?.(path);
      return (fs.openSync as (...args: unknown[]) => number)(path, ...rest);
    },
    renameSync: (from: string, to: string) => {
      seam.onRename?.(from, to);
      fs.renameSync(from, to);
    },
  };
});

const MIGRATE = fileURLToPath(new URL('../fixtures/migrate/', import.meta.url));
const VERSIONED = fileURLToPath(new URL('../fixtures/versioned/', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-writes-'));
  seam.onTemporary = undefined;
  seam.onRename = undefined;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function kurel(...argv: string[]) {
  return runCaptured(argv, { cwd: dir, env: {} });
}
const read = (file: string) => readFileSync(join(dir, file), 'utf8');
const temporaries = () => readdirSync(dir, { recursive: true }).filter((name) => String(name).includes('.kurel-tmp-'));
const TO_2 = ['--definitions', 'definitions', '--to', 'redis-sidecar@2.0.0'];

describe('kurel migrate --write (issue 25 rows 4 and 5)', () => {
  beforeEach(() => cpSync(MIGRATE, dir, { recursive: true }));

  it('refuses, exit 2, when a file was edited after it was read, keeping the edit and writing nothing', async () => {
    const prod = read('clusters/prod.yaml');
    const staging = read('clusters/staging.yaml');
    let edited = false;
    seam.onTemporary = () => {
      if (edited) return;
      edited = true;
      appendFileSync(join(dir, 'clusters/staging.yaml'), '# a line a colleague added\n');
    };
    const run = await kurel('migrate', 'clusters', ...TO_2, '--write');
    expect(run.stderr).toBe(
      'clusters/staging.yaml: error io-error clusters/staging.yaml changed after kurel read it, so it was not replaced; nothing was written: run kurel migrate again\n',
    );
    expect(run.code).toBe(2);
    expect(read('clusters/prod.yaml')).toBe(prod);
    expect(read('clusters/staging.yaml')).toBe(`${staging}# a line a colleague added\n`);
    expect(temporaries()).toEqual([]);
  });

  it('puts back the first file when the second rename fails, names the file, exit 2', async () => {
    const prod = read('clusters/prod.yaml');
    const staging = read('clusters/staging.yaml');
    seam.onRename = (_from, to) => {
      if (to.endsWith('staging.yaml')) throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
    };
    const run = await kurel('migrate', 'clusters', ...TO_2, '--write', '--format', 'json');
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      valid: false,
      written: false,
      diagnostics: [
        {
          code: 'io-error',
          file: 'clusters/staging.yaml',
          message: 'cannot replace clusters/staging.yaml: operation not permitted (EPERM); nothing was written',
        },
      ],
    });
    expect([read('clusters/prod.yaml'), read('clusters/staging.yaml')]).toEqual([prod, staging]);
    expect(temporaries()).toEqual([]);
  });
});

describe('kurel lock writes (issue 25 row 11)', () => {
  beforeEach(() => cpSync(VERSIONED, dir, { recursive: true }));

  it('refuses, exit 2, when kurel.lock.yaml was written by someone else meanwhile', async () => {
    seam.onTemporary = () => writeFileSync(join(dir, 'kurel.lock.yaml'), '# mine\n');
    const run = await kurel('lock', 'clusters/partial.yaml', '--definitions', 'definitions');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(
      [
        'kurel.lock.yaml: error io-error kurel.lock.yaml changed after kurel read it, so it was not replaced; nothing was written: run kurel lock again',
        '1 profile and 3 definition files checked: 1 error, 0 warnings',
        'kurel.lock.yaml not written: fix the errors above first',
        '',
      ].join('\n'),
    );
    expect(read('kurel.lock.yaml')).toBe('# mine\n');
    expect(temporaries()).toEqual([]);
  });
});
