import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonEnvelope, spawnKurel } from '../helpers/cli.js';
import { testApp } from '../http/support.js';

// Issue #10, item 5 (docs/profiles.md): ~125,000 diagnostics (a 1.25 MB file of one key
// repeated) overflowed the stack (`push(...spread)`): exit 2 with an internal error and no
// JSON in the CLI, a 500 over HTTP. Any number of problems is now reported, the first 1,000
// of a run in sorted order and the rest counted in one too-many-problems warning.
const REPEATS = 125_000;
const HEADER =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    ingress:\n      rendering:\n';
// Line 9 holds the first key, lines 10 on its 124,999 repeats.
const PROFILE = `${HEADER}${'        dupkey: 1\n'.repeat(REPEATS)}`;
// The ingress binding's rendering is validated by nothing: one unvalidated-capability warning
// at line 8 (docs/codes/unvalidated-capability.md), shown among the first 1,000.
const SUMMARY = '124000 more problems not shown (124000 errors, 0 warnings): a run reports its first 1000';
const DEFINITION_SUMMARY = '123999 more problems not shown (123999 errors, 0 warnings): a run reports its first 1000';
const APP =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata:\n  name: shop\nspec:\n  components:\n  - name: web\n    type: webservice\n    traits: []\n';
const DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: cache\nspec:\n  rendering:\n    properties:\n${'      size: {type: integer}\n'.repeat(REPEATS)}`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-many-'));
  writeFileSync(join(dir, 'cluster.yaml'), PROFILE);
  writeFileSync(join(dir, 'app.yaml'), APP);
  writeFileSync(join(dir, 'cache.yaml'), DEFINITION);
  // 1,001 bindings no handler knows: 1,001 warnings, before the error of b-broken.yaml.
  writeFileSync(
    join(dir, 'a-unknown.yaml'),
    `${HEADER.replace(/ {4}ingress:\n.*$/s, '')}${Array.from({ length: 1_001 }, (_, i) => `    unknown${i}: {}\n`).join('')}`,
  );
  writeFileSync(join(dir, 'b-broken.yaml'), `${HEADER}        dupkey: 1\n        dupkey: 1\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pinned = (json: JsonEnvelope) => json.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`);

describe('125,000 problems in one file', { timeout: 60_000 }, () => {
  it('lints to JSON: the summary first, at 1:1, then the first 1,000 problems, exit 1', async () => {
    const run = await spawnKurel(['lint', 'cluster.yaml', '--format', 'json'], { cwd: dir });
    const json = JSON.parse(run.stdout) as JsonEnvelope;
    expect({ code: run.code, valid: json.valid, count: json.diagnostics.length }).toEqual({ code: 1, valid: false, count: 1_001 });
    expect(pinned(json).slice(0, 3)).toEqual([
      'cluster.yaml:1:1 warning too-many-problems',
      'cluster.yaml:8:7 warning unvalidated-capability',
      'cluster.yaml:10:9 error duplicate-key',
    ]);
    expect(pinned(json)[1_000]).toBe('cluster.yaml:1008:9 error duplicate-key');
    expect(json.diagnostics[0]?.message).toBe(SUMMARY);
  });

  it.each([
    ['text', `cluster.yaml:1:1 warning too-many-problems ${SUMMARY}`, '1 profile checked: 124999 errors, 1 warning'],
    [
      'github',
      `::warning file=cluster.yaml,line=1,col=1,endLine=1,endColumn=1,title=too-many-problems::${SUMMARY}`,
      '1 profile checked: 124999 errors, 1 warning',
    ],
    ['junit', `<system-out>cluster.yaml:1:1 warning too-many-problems ${SUMMARY}`, '</testsuites>'],
    ['sarif', `"text": "${SUMMARY}"`, '"ruleId": "too-many-problems"'],
  ])('lints to %s with the summary, exit 1', async (format, summary, last) => {
    const run = await spawnKurel(['lint', 'cluster.yaml', '--format', format], { cwd: dir });
    expect({ code: run.code, stderr: run.stderr, hasSummary: run.stdout.includes(summary), hasLast: run.stdout.includes(last) }).toEqual({
      code: 1,
      stderr: '',
      hasSummary: true,
      hasLast: true,
    });
  });

  it('builds to JSON with the summary, exit 1', async () => {
    const run = await spawnKurel(['build', 'app.yaml', '--profile', 'cluster.yaml', '--format', 'json'], { cwd: dir });
    const json = JSON.parse(run.stdout) as JsonEnvelope;
    expect({ code: run.code, valid: json.valid, count: json.diagnostics.length, first: pinned(json)[0] }).toEqual({
      code: 1,
      valid: false,
      count: 1_001,
      first: 'cluster.yaml:1:1 warning too-many-problems',
    });
  });

  it('prints a definition of 125,000 repeated keys with the summary when loading the catalogue, exit 1', async () => {
    const run = await spawnKurel(['capabilities', '--capability-def', 'cache.yaml'], { cwd: dir });
    expect({ code: run.code, summary: run.stderr.split('\n')[0] }).toEqual({
      code: 1,
      summary: `cache.yaml:1:1 warning too-many-problems ${DEFINITION_SUMMARY}`,
    });
  });

  it('answers POST /v1/validate of 1 MB of one repeated key with the summary', async () => {
    const { app } = testApp();
    const body = `${HEADER}${'        a: 1\n'.repeat(80_000)}`;
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(body);
    expect({ status: res.status, valid: res.body.valid, count: res.body.diagnostics?.length, first: res.body.diagnostics?.[0] }).toEqual({
      status: 200,
      valid: false,
      count: 1_001,
      first: {
        code: 'too-many-problems',
        severity: 'warning',
        message: '79000 more problems not shown (79000 errors, 0 warnings): a run reports its first 1000',
        file: 'request',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 1,
        path: '',
      },
    });
  });
});

describe('problems not shown', () => {
  it('still decide the exit code: an error hidden behind 1,000 warnings fails the run', async () => {
    const run = await spawnKurel(['lint', 'a-unknown.yaml', 'b-broken.yaml', '--format', 'json'], { cwd: dir });
    const json = JSON.parse(run.stdout) as JsonEnvelope;
    expect({
      code: run.code,
      valid: json.valid,
      count: json.diagnostics.length,
      first: pinned(json)[0],
      errors: json.diagnostics.filter((d) => d.severity === 'error'),
    }).toEqual({
      code: 1,
      valid: false,
      count: 1_001,
      first: 'a-unknown.yaml:1:1 warning too-many-problems',
      errors: [],
    });
    // The last two warnings: unknown1000 and b-broken.yaml's unvalidated ingress rendering.
    expect(json.diagnostics[0]?.message).toBe('3 more problems not shown (1 error, 2 warnings): a run reports its first 1000');
  });
});
