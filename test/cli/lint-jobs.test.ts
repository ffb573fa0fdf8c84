import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES_PER_BATCH } from '../../src/cli/parallel-lint.js';
import { runCaptured } from '../helpers/cli.js';
import { REDIS_SIDECAR_DEFINITION } from '../helpers/profile.js';

// `kurel lint --jobs N` spreads the files over worker threads (issue 28); whatever N, a run
// prints what one thread prints and exits alike. The workers run the built dist/lint-worker.js.

// Enough batches for three threads, and a last batch that is not full.
const FILES = FILES_PER_BATCH * 4 + 37;
let dir: string;

function profile(i: number): string {
  const mistakes = [
    '',
    '        ingressClasName: nginx\n',
    '        ingressClassName: ""\n',
    '        # kurel-disable-next-line unknown-field -- kept for the migration\n        legacy: true\n',
    '        tls: yes\n',
  ];
  const extra = i % 7 === 0 ? mistakes[(i / 7) % mistakes.length]! : '';
  return [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: ClusterProfile',
    'metadata:',
    `  name: c${i}`,
    'spec:',
    '  capabilities:',
    '    expose:',
    '      rendering:',
    '        controllerType: ingress',
    ...(extra.includes('ingressClass') ? [] : ['        ingressClassName: nginx']),
    `${extra}    redis-sidecar:`,
    '      rendering:',
    `        image: ${i % 11 === 0 ? 7 : 'redis:7'}`,
    i % 13 === 0 ? '    mystery: {}' : '',
    '',
  ].join('\n');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-jobs-'));
  mkdirSync(join(dir, 'clusters'));
  mkdirSync(join(dir, 'defs'));
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, 'clusters', `c${String(i).padStart(4, '0')}.yaml`), profile(i));
  writeFileSync(join(dir, 'defs', 'redis.yaml'), REDIS_SIDECAR_DEFINITION);
  writeFileSync(join(dir, '.kurel.yaml'), 'severity: {unknown-capability: error}\n');
  writeFileSync(join(dir, 'clusters', 'zz-broken.yaml'), 'apiVersion: [\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(args: readonly string[]) {
  return runCaptured(['lint', ...args], { cwd: dir, env: { NO_COLOR: '1' } });
}

describe('kurel lint --jobs (issue 28)', () => {
  it.each([
    ['text', ['--format', 'text']],
    ['json', ['--format', 'json']],
  ])('prints the same %s report and exit code with 2 and 3 threads as with one', async (_format, format) => {
    const args = ['clusters', '--definitions', 'defs', ...format];
    const one = await lint([...args, '--jobs', '1']);
    expect(one.code).toBe(1);
    expect(one.stdout.length).toBeGreaterThan(1000);
    for (const jobs of ['2', '3']) {
      const many = await lint([...args, '--jobs', jobs]);
      expect(many).toEqual(one);
    }
  });

  it('judges every profile with a definition found among the files, as one thread does', async () => {
    writeFileSync(join(dir, 'clusters', 'c0500-def.yaml'), REDIS_SIDECAR_DEFINITION);
    try {
      const one = await lint(['clusters', '--jobs', '1', '--format', 'json']);
      const two = await lint(['clusters', '--jobs', '2', '--format', 'json']);
      expect(two).toEqual(one);
      const json = JSON.parse(one.stdout) as { diagnostics: { code: string; file: string; line: number; column: number }[] };
      // The definition in the folder judges the first file too: image 7 is a wrong type there.
      expect(json.diagnostics.find((d) => d.file === 'clusters/c0000.yaml' && d.code === 'wrong-type')).toMatchObject({ line: 13, column: 16 });
    } finally {
      rmSync(join(dir, 'clusters', 'c0500-def.yaml'));
    }
  });

  it.each([
    ['one file', ['clusters/c0001.yaml']],
    ['standard input', ['-']],
    ['a plugin that cannot be loaded', ['clusters/c0001.yaml', '--plugin', './missing-plugin.mjs']],
  ])('prints with --jobs 3 what one thread prints when the run has no use for the threads started early: %s', async (_case, args) => {
    const one = await runCaptured(['lint', ...args, '--jobs', '1'], { cwd: dir, env: { NO_COLOR: '1' }, input: profile(1) });
    const three = await runCaptured(['lint', ...args, '--jobs', '3'], { cwd: dir, env: { NO_COLOR: '1' }, input: profile(1) });
    expect(one.stdout.length).toBeGreaterThan(0);
    expect(three).toEqual(one);
  });

  it('prints with --jobs 1000 on one file what one thread prints: no thread is started for it', async () => {
    const one = await lint(['clusters/c0001.yaml', '--jobs', '1']);
    const many = await lint(['clusters/c0001.yaml', '--jobs', '1000']);
    expect(one.stdout.length).toBeGreaterThan(0);
    expect(many).toEqual(one);
  });

  it.each(['0', '-1', 'two', '1.5'])('refuses --jobs %s as a usage error', async (jobs) => {
    const run = await lint(['clusters', '--jobs', jobs]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("option '--jobs <n>' argument");
  });
});
