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
// bindings are still checked, the CLI exits 1 (DESIGN §11) and HTTP answers 200.

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
  ])('reports a result with %s as plugin-error', (_name, validate, reason) => {
    const [first] = lintWith(validate).diagnostics;
    expect(first).toMatchObject({ code: 'plugin-error', severity: 'error', line: 7, column: 5, message: `capability "queue": plugin ./queue.mjs: ${reason}` });
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
