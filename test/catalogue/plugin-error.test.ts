import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { CommandIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { lintInputs } from '../../src/operations/lint.js';
import { lintText, withBindings } from '../helpers/profile.js';
import { testApp } from '../http/support.js';

// Issue 16, defects 3 and 4: a plugin that throws, or returns something other than its
// documented result, is a `plugin-error` at the binding's key naming the plugin; the other
// bindings are still checked, the CLI exits 1 (docs/profiles.md) and HTTP answers 200.

const handler = (validate: (rendering: Record<string, unknown>) => unknown) => ({
  type: 'queue',
  description: 'a job queue',
  capabilityAware: true,
  capabilityRequired: false,
  renderingSchema: { type: 'object' },
  validateAndApplyDefaults: validate,
});

const PROFILE = withBindings('queue:\n  rendering: {size: 1}\nexpose:\n  rendering: {controllerType: ingress, ingressClassName: ""}');

function lintWith(validate: (rendering: Record<string, unknown>) => unknown) {
  const catalogue = createCatalogue({ handlers: [{ handler: handler(validate), source: 'plugin:./queue.mjs' }] });
  return lintInputs([{ file: 'cluster.yaml', content: PROFILE, origin: 'argument' }], catalogue);
}

describe('plugin-error', () => {
  it('reports a throwing handler at the binding key, naming the plugin and what it threw, and checks the other bindings', () => {
    const report = lintWith(() => {
      throw new TypeError('cannot read properties of undefined');
    });
    expect(report.diagnostics.map((d) => ({ code: d.code, severity: d.severity, line: d.line, column: d.column, path: d.path, message: d.message }))).toEqual([
      {
        code: 'plugin-error',
        severity: 'error',
        line: 7,
        column: 5,
        path: '/spec/capabilities/queue/rendering',
        message: 'capability "queue": plugin ./queue.mjs: validateAndApplyDefaults threw TypeError: cannot read properties of undefined',
      },
      {
        code: 'invalid-value',
        severity: 'error',
        line: 10,
        column: 62,
        path: '/spec/capabilities/expose/rendering/ingressClassName',
        message: expect.any(String),
      },
    ]);
    expect(report.files[0]!.resolved).toBeUndefined();
  });

  it.each([
    ['a string', () => 'ok', 'validateAndApplyDefaults returned string "ok"; expected a map {rendering, issues}'],
    [
      'a promise',
      async (r: Record<string, unknown>) => ({ rendering: r, issues: [] }),
      'validateAndApplyDefaults returned a promise; it must return {rendering, issues} synchronously',
    ],
    ['no rendering map', () => ({ rendering: [], issues: [] }), 'validateAndApplyDefaults returned a rendering that is a list; expected a map'],
    ['no issues list', (r: Record<string, unknown>) => ({ rendering: r }), 'validateAndApplyDefaults returned issues that are null; expected a list'],
    [
      'a severity that is not error or warning',
      (r: Record<string, unknown>) => ({ rendering: r, issues: [{ code: 'invalid-value', severity: 'fatal', message: 'm', path: [] }] }),
      'validateAndApplyDefaults returned issue 0 with severity string "fatal"; expected error or warning',
    ],
    [
      'a path that is a string',
      (r: Record<string, unknown>) => ({ rendering: r, issues: [{ code: 'invalid-value', severity: 'error', message: 'm', path: 'size' }] }),
      'validateAndApplyDefaults returned issue 0 with path string "size"; expected a list of keys and indexes',
    ],
    [
      'a message that is a number',
      (r: Record<string, unknown>) => ({ rendering: r, issues: [{ code: 'invalid-value', severity: 'error', message: 5, path: ['size'] }] }),
      'validateAndApplyDefaults returned issue 0 with message integer 5; expected a string',
    ],
    [
      'a code kurel does not have',
      (r: Record<string, unknown>) => ({ rendering: r, issues: [{ code: 'too-big', severity: 'error', message: 'm', path: ['size'] }] }),
      'validateAndApplyDefaults returned issue 0 with code string "too-big", which is not a kurel diagnostic code',
    ],
    [
      'a cyclic rendering (issue 25 row 8)',
      (r: Record<string, unknown>) => {
        const rendering: Record<string, unknown> = { ...r, nested: { list: [] as unknown[] } };
        ((rendering['nested'] as { list: unknown[] }).list as unknown[]).push(rendering);
        return { rendering, issues: [] };
      },
      'validateAndApplyDefaults returned a rendering that is not JSON data: /nested/list/0 refers back to an object that holds it (a cycle)',
    ],
    [
      'a bigint in the rendering',
      (r: Record<string, unknown>) => ({ rendering: { ...r, size: 10n }, issues: [] }),
      'validateAndApplyDefaults returned a rendering that is not JSON data: /size is a bigint',
    ],
    [
      'a function in a list',
      (r: Record<string, unknown>) => ({ rendering: { ...r, hooks: [1, () => 2] }, issues: [] }),
      'validateAndApplyDefaults returned a rendering that is not JSON data: /hooks/1 is a function',
    ],
    [
      'a Map',
      (r: Record<string, unknown>) => ({ rendering: { ...r, 'a/b': new Map() }, issues: [] }),
      'validateAndApplyDefaults returned a rendering that is not JSON data: /a~1b is a Map, not a plain map',
    ],
    [
      'NaN',
      (r: Record<string, unknown>) => ({ rendering: { ...r, size: Number.NaN }, issues: [] }),
      'validateAndApplyDefaults returned a rendering that is not JSON data: /size is NaN, which JSON cannot hold',
    ],
    [
      'a value held 2^40 times over',
      (r: Record<string, unknown>) => {
        let shared: unknown = 'x';
        for (let i = 0; i < 40; i++) shared = [shared, shared];
        return { rendering: { ...r, shared }, issues: [] };
      },
      'validateAndApplyDefaults returned a rendering that is not JSON data: it holds more than 1000000 values',
    ],
    [
      'a call to process.exit(3) (issue 25 row 8)',
      () => {
        process.exit(3);
      },
      'validateAndApplyDefaults called process.exit(3)',
    ],
    [
      'a call to process.exit() it catches',
      (r: Record<string, unknown>) => {
        try {
          process.exit();
        } catch {
          // carries on as if it had not been stopped
        }
        return { rendering: r, issues: [] };
      },
      'validateAndApplyDefaults called process.exit()',
    ],
  ])('reports a result with %s as plugin-error', (_name, validate, reason) => {
    const [first] = lintWith(validate).diagnostics;
    expect(first).toMatchObject({ code: 'plugin-error', severity: 'error', line: 7, column: 5, message: `capability "queue": plugin ./queue.mjs: ${reason}` });
  });

  it('leaves process.exit as it was after a plugin called it, and accepts a shared value and a deep rendering', () => {
    const exit = process.exit;
    lintWith(() => process.exit(1));
    expect(process.exit).toBe(exit);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const shared = { a: 1 };
    const report = lintWith((r) => ({ rendering: { ...r, deep, left: shared, right: shared }, issues: [] }));
    expect(report.diagnostics.filter((d) => d.code === 'plugin-error')).toEqual([]);
  });

  it('keeps a well-formed result, warnings and hints included', () => {
    const report = lintWith((r) => ({
      rendering: r,
      issues: [{ code: 'invalid-value', severity: 'warning', message: 'size is small', path: ['size'], hint: 'use 2' }],
    }));
    expect(report.diagnostics[0]).toMatchObject({ code: 'invalid-value', severity: 'warning', line: 8, column: 25, hint: 'use 2' });
  });

  it('leaves built-in handlers alone: their results are trusted', () => {
    expect(lintText(withBindings('expose:\n  rendering: {controllerType: gateway, gatewayName: gw}')).diagnostics).toEqual([]);
  });
});

describe('plugin-error through the CLI and HTTP', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kurel-plugin-error-'));
    writeFileSync(
      join(dir, 'throws.mjs'),
      "export default { type: 'queue', description: 'q', capabilityAware: true, capabilityRequired: false, renderingSchema: { type: 'object' }, validateAndApplyDefaults() { throw new Error('REDIS_URL is not set'); } };\n",
    );
    writeFileSync(join(dir, 'q.yaml'), PROFILE);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints one JSON document and exits 1 for a throwing plugin', async () => {
    let stdout = '';
    let stderr = '';
    const io: CommandIo = {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      stdin: () => Promise.resolve(new Uint8Array()),
      cwd: dir,
      env: {},
      stdoutIsTTY: false,
      stderrIsTTY: false,
    };
    const code = await runCli(['lint', join(dir, 'q.yaml'), '--plugin', './throws.mjs', '--format', 'json'], io);
    expect(code).toBe(1);
    expect(stderr).toBe('');
    const envelope = JSON.parse(stdout) as { valid: boolean; diagnostics: { code: string; line: number; column: number; message: string }[] };
    expect(envelope.valid).toBe(false);
    expect(envelope.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['plugin-error', 7, 5],
      ['invalid-value', 10, 62],
    ]);
    expect(envelope.diagnostics[0]!.message).toBe('capability "queue": plugin ./throws.mjs: validateAndApplyDefaults threw Error: REDIS_URL is not set');
  });

  it('answers 200 with the diagnostic over HTTP', async () => {
    const throwing = handler(() => {
      throw new Error('boom');
    });
    const { app } = testApp({ catalogue: createCatalogue({ handlers: [{ handler: throwing, source: 'plugin:./queue.mjs' }] }) });
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(PROFILE);
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.diagnostics[0]).toMatchObject({ code: 'plugin-error', file: 'request', line: 7, column: 5 });
  });
});
