import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { VERSION } from '../../src/core/package-version.js';
import { runKurel, runKurelJson } from '../helpers/cli.js';

const HEADER = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\n';
const GOOD = `${HEADER}spec:\n  capabilities:\n    expose:\n      rendering:\n        controllerType: gateway\n        gatewayName: public\n`;
// One error: an empty ingressClassName on line 10, column 27.
const BAD = `${HEADER}spec:\n  capabilities:\n    expose:\n      rendering:\n        controllerType: ingress\n        ingressClassName: ""\n`;
// One warning: a capability no handler knows, on line 7, column 5.
const WARNS = `${HEADER}spec:\n  capabilities:\n    exposee: {}\n`;
// Five independent mistakes, one per line marked.
const FIVE = [
  'apiVersion: launcher.gokure.dev/v1alpha1',
  'kind: ClusterProfile',
  'metadata:',
  '  name: Prod_EU', //                4: not a DNS-1123 subdomain
  '  labels: {team: platform}', //     5: metadata holds only name
  'spec:',
  '  capabilities:',
  '    expose:',
  '      rendering:',
  '        controllerType: ingress',
  '        ingressClassName: nginx',
  '        sslRedirect: "true"', //     12: a string, not a boolean
  '    certificate:',
  '      rendering:',
  '        issuerRef:', //             15: name is missing
  '          kind: Issuer',
  '    external-secret:',
  '      rendering:',
  '        secretStoreRef: {name: vault}',
  '        refreshInterval: 1d', //     20: days are not a duration unit
].join('\n');
const DEFINITION =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: cache\nspec:\n  rendering:\n    properties:\n      size: {type: integer}\n';

let dir: string;
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return name;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-lint-'));
  file('good.yaml', GOOD);
  file('bad.yaml', BAD);
  file('warns.yaml', WARNS);
  file('five.yaml', FIVE);
  file('configmap.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
  file('cache-definition.yaml', DEFINITION);
  file('tree/prod/cluster.yaml', GOOD);
  file('tree/staging/cluster.yml', BAD);
  file('tree/other/configmap.yaml', 'apiVersion: v1\nkind: ConfigMap\n');
  file('tree/other/values.yaml', 'replicas: 3\n');
  file('tree/other/empty.yaml', '# nothing\n');
  file('tree/notes.txt', 'kind: ClusterProfile\n');
  mkdirSync(join(dir, 'empty-dir'));
  file('outside/secret.yaml', GOOD);
  file('linked/cluster.yaml', GOOD);
  symlinkSync(join(dir, 'outside/secret.yaml'), join(dir, 'linked/escape.yaml'));
  symlinkSync(join(dir, 'linked/cluster.yaml'), join(dir, 'linked/alias.yaml'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lint = (args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}) => runKurel(['lint', ...args], { cwd: dir, ...options });
const lintJson = (args: string[], options: { input?: string | Buffer } = {}) => runKurelJson(['lint', ...args], { cwd: dir, ...options });
const codes = (json: { diagnostics: { code: string; line: number; column: number; path: string }[] }) =>
  json.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path }));

describe.concurrent('kurel lint: exit codes', () => {
  it('exits 0 for a clean profile', async () => {
    expect((await lint(['good.yaml'])).code).toBe(0);
  });

  it('exits 1 for a profile with an error', async () => {
    expect((await lint(['bad.yaml'])).code).toBe(1);
  });

  it('exits 0 for warnings only, and 1 with --strict', async () => {
    const [plain, strict] = await Promise.all([lint(['warns.yaml']), lint(['warns.yaml', '--strict'])]);
    expect([plain.code, strict.code]).toEqual([0, 1]);
  });

  it('keeps a warning a warning under --strict (only the exit code changes)', async () => {
    const run = await lintJson(['warns.yaml', '--strict']);
    expect({ code: run.code, valid: run.json.valid, severities: run.json.diagnostics.map((d) => d.severity) }).toEqual({
      code: 1,
      valid: false,
      severities: ['warning'],
    });
  });

  it('turns unknown-capability into an error with --strict-capabilities', async () => {
    const run = await lintJson(['warns.yaml', '--strict-capabilities']);
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.severity, d.line, d.column, d.hint]) }).toEqual({
      code: 1,
      diagnostics: [['unknown-capability', 'error', 7, 5, 'did you mean expose?']],
    });
  });

  it('exits 2 for a path that does not exist', async () => {
    const run = await lintJson(['missing.yaml']);
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.message]) }).toEqual({
      code: 2,
      diagnostics: [['io-error', 'missing.yaml', 'cannot read missing.yaml: no such file']],
    });
  });

  it('exits 2 when both an unreadable path and a bad profile are given (2 wins), reporting both', async () => {
    const run = await lintJson(['bad.yaml', 'missing.yaml']);
    expect({ code: run.code, valid: run.json.valid, diagnostics: run.json.diagnostics.map((d) => [d.file, d.code]) }).toEqual({
      code: 2,
      valid: false,
      diagnostics: [
        ['bad.yaml', 'invalid-value'],
        ['missing.yaml', 'io-error'],
      ],
    });
  });

  it('exits 2 when a folder holds no YAML files', async () => {
    const run = await lintJson(['empty-dir']);
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => d.code) }).toEqual({ code: 2, diagnostics: ['io-error'] });
  });

  it('exits 2 when a plugin breaks the startup assertion', async () => {
    file('claims-expose.mjs', 'export default { type: "expose", description: "x", capabilityAware: false };\n');
    const run = await lintJson(['good.yaml', '--plugin', './claims-expose.mjs']);
    expect({ code: run.code, valid: run.json.valid, diagnostics: run.json.diagnostics.map((d) => d.code), files: run.json.files }).toEqual({
      code: 2,
      valid: false,
      diagnostics: ['usage'],
      files: [],
    });
    // A command has no start to refuse (issue 16, defect 15): the message names the handler and why.
    expect(run.json.diagnostics[0]!.message).toMatch(/^handler "expose" \(plugin:\.\/claims-expose\.mjs\): ./);
  });
});

describe.concurrent('kurel lint --format json', () => {
  it('prints the envelope with the resolved capabilities of a clean profile', async () => {
    const run = await lintJson(['good.yaml']);
    expect(Object.keys(run.json)).toEqual(['valid', 'diagnostics', 'files']);
    expect(run.json).toEqual({
      valid: true,
      diagnostics: [],
      files: [
        {
          path: 'good.yaml',
          kind: 'ClusterProfile',
          status: 'checked',
          resolved: {
            gitopsEngine: 'fluxcd',
            capabilities: { expose: { controllerType: 'gateway', gatewayName: 'public', gatewayNamespace: 'gateway-system' } },
            versions: {},
          },
        },
      ],
    });
  });

  it('prints every field of a diagnostic, and no resolved capabilities for a profile with errors', async () => {
    const run = await lintJson(['bad.yaml']);
    expect(run.json).toEqual({
      valid: false,
      diagnostics: [
        {
          code: 'invalid-value',
          severity: 'error',
          message: 'capability "expose": ingressClassName must not be empty',
          file: 'bad.yaml',
          line: 10,
          column: 27,
          endLine: 10,
          endColumn: 29,
          path: '/spec/capabilities/expose/rendering/ingressClassName',
        },
      ],
      files: [{ path: 'bad.yaml', kind: 'ClusterProfile', status: 'checked' }],
    });
  });

  it('sets valid exactly when the exit code is 0', async () => {
    const runs = await Promise.all([
      lintJson(['good.yaml']),
      lintJson(['warns.yaml']),
      lintJson(['warns.yaml', '--strict']),
      lintJson(['bad.yaml']),
      lintJson(['nope.yaml']),
    ]);
    expect(runs.map((r) => [r.code, r.json.valid])).toEqual([
      [0, true],
      [0, true],
      [1, false],
      [1, false],
      [2, false],
    ]);
  });

  it('writes an integer beyond 2^53 in resolved output with every digit', async () => {
    file('big.yaml', `${HEADER}spec:\n  capabilities:\n    scaler:\n      rendering:\n        budget: 123456789012345678901234567890\n`);
    const run = await lint(['big.yaml', '--format', 'json']);
    expect(run.stdout).toContain('"budget": 123456789012345678901234567890');
  });

  it.each([
    ['an unknown option', ['good.yaml', '--colour']],
    ['a format that does not exist', ['good.yaml', '--format', 'json', '--format', 'yaml']],
    ['no paths', []],
  ])('prints exactly one JSON document for %s, exiting 2', async (_name, args) => {
    const run = await lint([...args, '--format=json']);
    const json = JSON.parse(run.stdout) as { valid: boolean; diagnostics: { code: string; file: string; message: string }[]; files: unknown[] };
    expect(json.diagnostics[0]?.message).toMatch(/^[a-z].*[^.]$/);
    expect({ code: run.code, valid: json.valid, codes: json.diagnostics.map((d) => [d.code, d.file]), files: json.files }).toEqual({
      code: 2,
      valid: false,
      codes: [['usage', '<command line>']],
      files: [],
    });
  });
});

describe.concurrent('kurel lint: text output', () => {
  it('prints file:line:col severity code message, the source line with a caret, and a summary', async () => {
    const run = await lint(['bad.yaml']);
    expect(run.stdout).toBe(
      [
        'bad.yaml:10:27 error invalid-value capability "expose": ingressClassName must not be empty',
        '          ingressClassName: ""',
        `  ${' '.repeat(26)}^^`,
        '1 profile checked: 1 error, 0 warnings',
        'run kurel explain invalid-value for details',
        '',
      ].join('\n'),
    );
  });

  it('prints a hint line under a diagnostic that has one', async () => {
    const run = await lint(['warns.yaml']);
    expect(run.stdout).toBe(
      [
        'warns.yaml:7:5 warning unknown-capability capability "exposee" is known to no handler or definition; its rendering is not validated',
        '      exposee: {}',
        '      ^^^^^^^',
        '  hint: did you mean expose?',
        '1 profile checked: 0 errors, 1 warning',
        'run kurel explain unknown-capability for details',
        '',
      ].join('\n'),
    );
  });

  it('prints a one-line summary for clean files', async () => {
    expect((await lint(['good.yaml', 'tree/prod/cluster.yaml'])).stdout).toBe('2 profiles checked: no problems\n');
  });

  it('counts profiles and definition files apart (issue 16, defect 8)', async () => {
    expect((await lint(['good.yaml', '--capability-def', 'cache-definition.yaml'])).stdout).toBe('1 profile and 1 definition file checked: no problems\n');
    expect((await lint(['cache-definition.yaml'])).stdout).toBe('1 definition file checked: no problems\n');
  });

  it('lints a file given twice, or named and found in a folder, once (issue 16, defect 8)', async () => {
    const run = await lintJson(['bad.yaml', 'bad.yaml', './bad.yaml', 'tree/staging/cluster.yml', 'tree/staging']);
    expect(run.json.diagnostics.map((d) => [d.file, d.line])).toEqual([
      ['bad.yaml', 10],
      ['tree/staging/cluster.yml', 10],
    ]);
    expect(run.json.files.map((f) => f.path)).toEqual(['bad.yaml', 'tree/staging/cluster.yml']);
  });

  it('refuses a second - (standard input is read once) with a usage error (issue 16, defect 8)', async () => {
    const run = await lintJson(['-', '-'], { input: GOOD });
    expect(run.code).toBe(2);
    expect(run.json.diagnostics).toMatchObject([
      { code: 'usage', file: '<command line>', message: 'standard input (-) can be read only once; found - more than once' },
    ]);
  });
});

describe('kurel lint: colour (in-process; docs/configuration.md)', () => {
  const runOnTerminal = async (env: NodeJS.ProcessEnv, flags: string[] = [], isTTY = true) => {
    let stdout = '';
    const io: CommandIo = {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => undefined,
      stdin: () => Promise.resolve(new Uint8Array()),
      cwd: dir,
      env,
      stdoutIsTTY: isTTY,
      stderrIsTTY: isTTY,
    };
    const code = await runCli(['lint', join(dir, 'bad.yaml'), ...flags], io);
    return { code, stdout };
  };

  it('colours severity and caret on a terminal', async () => {
    const { code, stdout } = await runOnTerminal({});
    expect(code).toBe(1);
    expect(stdout).toContain('\u001b[31merror\u001b[39m');
    expect(stdout).toContain('\u001b[31m^^\u001b[39m');
  });

  it.each([
    ['NO_COLOR is set', { NO_COLOR: '1' }],
    ['TERM is dumb', { TERM: 'dumb' }],
  ])('prints no colour on a terminal when %s', async (_name, env) => {
    const { stdout } = await runOnTerminal(env);
    expect(stdout).not.toContain('\u001b[');
  });

  it('prints no colour when standard output is not a terminal and nothing asks for it', async () => {
    expect((await runOnTerminal({}, [], false)).stdout).not.toContain('\u001b[');
  });

  it.each([
    ['--color always off a terminal', {}, ['--color', 'always'], false, true],
    ['--color always over NO_COLOR', { NO_COLOR: '1' }, ['--color', 'always'], false, true],
    ['--color never on a terminal, over FORCE_COLOR', { FORCE_COLOR: '1' }, ['--color', 'never'], true, false],
    ['FORCE_COLOR=1 off a terminal', { FORCE_COLOR: '1' }, [], false, true],
    ['FORCE_COLOR=1 over NO_COLOR', { FORCE_COLOR: '1', NO_COLOR: '1' }, [], false, true],
    ['FORCE_COLOR=0 on a terminal', { FORCE_COLOR: '0' }, [], true, false],
    ['--color auto on a terminal', {}, ['--color', 'auto'], true, true],
  ])('colours or not by the order of docs/cli.md: %s', async (_name, env, flags, isTTY, coloured) => {
    const { stdout } = await runOnTerminal(env, flags, isTTY);
    expect(stdout.includes('\u001b[31merror\u001b[39m')).toBe(coloured);
  });
});

describe.concurrent('kurel lint: inputs', () => {
  it('reads standard input for - and names it by --stdin-filepath', async () => {
    const run = await lintJson(['-', '--stdin-filepath', 'clusters/prod.yaml'], { input: BAD });
    expect({ code: run.code, files: run.json.files, diagnostics: run.json.diagnostics.map((d) => [d.file, d.line, d.column]) }).toEqual({
      code: 1,
      files: [{ path: 'clusters/prod.yaml', kind: 'ClusterProfile', status: 'checked' }],
      diagnostics: [['clusters/prod.yaml', 10, 27]],
    });
  });

  it('names standard input <stdin> without --stdin-filepath', async () => {
    const run = await lintJson(['-'], { input: GOOD });
    expect({ code: run.code, paths: run.json.files.map((f) => f.path) }).toEqual({ code: 0, paths: ['<stdin>'] });
  });

  it('prints the source line under a diagnostic about standard input', async () => {
    const run = await lint(['-', '--stdin-filepath', 'cluster.yaml'], { input: BAD });
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([
      'cluster.yaml:10:27 error invalid-value capability "expose": ingressClassName must not be empty',
      '          ingressClassName: ""',
    ]);
  });

  it('searches a folder recursively, checking profiles and listing other kinds as skipped', async () => {
    const run = await lintJson(['tree']);
    expect({ code: run.code, files: run.json.files.map(({ resolved: _r, ...f }) => f), diagnostics: codes(run.json).map((d) => d.code) }).toEqual({
      code: 1,
      files: [
        { path: 'tree/other/configmap.yaml', kind: 'ConfigMap', status: 'skipped', reason: 'kind ConfigMap is not linted' },
        { path: 'tree/other/empty.yaml', kind: 'unknown', status: 'skipped', reason: 'the file holds no documents' },
        { path: 'tree/other/values.yaml', kind: 'unknown', status: 'skipped', reason: 'no kind: not a kurel document' },
        { path: 'tree/prod/cluster.yaml', kind: 'ClusterProfile', status: 'checked' },
        { path: 'tree/staging/cluster.yml', kind: 'ClusterProfile', status: 'checked' },
      ],
      diagnostics: ['invalid-value'],
    });
  });

  it('reports a file named on the command line with another kind as invalid-value on kind', async () => {
    const run = await lintJson(['configmap.yaml']);
    expect({ code: run.code, diagnostics: codes(run.json), files: run.json.files }).toEqual({
      code: 1,
      diagnostics: [{ code: 'invalid-value', line: 2, column: 7, path: '/kind' }],
      files: [{ path: 'configmap.yaml', kind: 'ConfigMap', status: 'checked' }],
    });
  });

  it('reports a file named on the command line with no kind as missing kind', async () => {
    file('no-kind.yaml', 'apiVersion: launcher.gokure.dev/v1alpha1\nmetadata: {name: a}\n');
    expect(codes((await lintJson(['no-kind.yaml'])).json)).toEqual([{ code: 'missing-required', line: 1, column: 1, path: '/kind' }]);
  });

  it('reports an empty file named on the command line as empty-document', async () => {
    file('empty.yaml', '');
    const run = await lintJson(['empty.yaml']);
    expect({ code: run.code, diagnostics: codes(run.json) }).toEqual({ code: 1, diagnostics: [{ code: 'empty-document', line: 1, column: 1, path: '' }] });
  });

  it('loads a CapabilityDefinition given as an input for the whole run', async () => {
    file('cache-profile.yaml', `${HEADER}spec:\n  capabilities:\n    cache:\n      rendering:\n        size: "big"\n`);
    const run = await lintJson(['cache-profile.yaml', 'cache-definition.yaml']);
    expect({ code: run.code, diagnostics: codes(run.json), kinds: run.json.files.map((f) => [f.path, f.kind, f.status]) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'wrong-type', line: 9, column: 15, path: '/spec/capabilities/cache/rendering/size' }],
      kinds: [
        ['cache-profile.yaml', 'ClusterProfile', 'checked'],
        ['cache-definition.yaml', 'CapabilityDefinition', 'checked'],
      ],
    });
  });

  it('follows a symbolic link that stays inside the folder (the file it names is read once) and reports one that leaves it', async () => {
    const run = await lintJson(['linked']);
    expect({
      code: run.code,
      checked: run.json.files.map((f) => f.path),
      diagnostics: run.json.diagnostics.map((d) => [d.code, d.file]),
    }).toEqual({
      code: 2,
      checked: ['linked/alias.yaml'],
      diagnostics: [['io-error', 'linked/escape.yaml']],
    });
  });
});

describe.concurrent('kurel lint: every mistake is reported', () => {
  it('reports five diagnostics for a profile with five independent mistakes, in file order', async () => {
    const run = await lintJson(['five.yaml']);
    expect({ code: run.code, diagnostics: codes(run.json) }).toEqual({
      code: 1,
      diagnostics: [
        { code: 'invalid-value', line: 4, column: 9, path: '/metadata/name' },
        { code: 'unknown-field', line: 5, column: 3, path: '/metadata/labels' },
        { code: 'wrong-type', line: 12, column: 22, path: '/spec/capabilities/expose/rendering/sslRedirect' },
        { code: 'missing-required', line: 15, column: 9, path: '/spec/capabilities/certificate/rendering/issuerRef/name' },
        { code: 'invalid-value', line: 20, column: 26, path: '/spec/capabilities/external-secret/rendering/refreshInterval' },
      ],
    });
  });

  it('sorts diagnostics of several files by file, then line and column', async () => {
    const run = await lintJson(['warns.yaml', 'bad.yaml', 'five.yaml']);
    expect(run.json.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual([
      'bad.yaml:10:27',
      'five.yaml:4:9',
      'five.yaml:5:3',
      'five.yaml:12:22',
      'five.yaml:15:9',
      'five.yaml:20:26',
      'warns.yaml:7:5',
    ]);
  });
});

describe.concurrent('kurel lint: bad input never crashes it', () => {
  const bomb = [
    `${HEADER}spec:`,
    '  capabilities:',
    '    scaler:',
    '      rendering:',
    '        a: &a [x, x, x, x, x, x, x, x, x]',
    '        b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
    '        c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
    '        d: [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  ].join('\n');
  const deep = `${HEADER}spec:\n  capabilities:\n    scaler:\n      rendering: ${'['.repeat(130)}${']'.repeat(130)}\n`;

  it.each([
    ['invalid YAML', `${HEADER}spec:\n\tcapabilities: {}\n`, { code: 'yaml-syntax', line: 6, column: 1, path: '' }],
    ['an unclosed flow map', `${HEADER}spec: {capabilities: {}\n`, { code: 'yaml-syntax', line: 5, column: 7, path: '' }],
    ['an alias bomb', bomb, { code: 'alias-limit', line: 12, column: 17, path: '/spec/capabilities/scaler/rendering/d/1' }],
    ['a second document', `${GOOD}---\n${GOOD}`, { code: 'multiple-documents', line: 11, column: 1, path: '' }],
    ['a non-string key', `${HEADER}8080: port\n`, { code: 'invalid-key', line: 5, column: 1, path: '/8080' }],
    ['a __proto__ key', `${HEADER}__proto__: {polluted: true}\n`, { code: 'unknown-field', line: 5, column: 1, path: '/__proto__' }],
    ['a constructor key', `${HEADER}spec:\n  constructor: {prototype: {}}\n`, { code: 'unknown-field', line: 6, column: 3, path: '/spec/constructor' }],
    ['nesting deeper than 128 levels', deep, { code: 'too-deep', line: 8, column: 142, path: `/spec/capabilities/scaler/rendering${'/0'.repeat(124)}` }],
    ['binary content', Buffer.from([...Buffer.from('apiVersion: '), 0, 1, 2, 3]), { code: 'yaml-syntax', line: 1, column: 13, path: '' }],
    ['invalid UTF-8', Buffer.from([...Buffer.from('kind: '), 0xff, 0xfe, 0x0a]), { code: 'yaml-syntax', line: 1, column: 7, path: '' }],
  ])('reports %s as a diagnostic and exits 1', async (name, content, expected) => {
    const run = await lintJson([file(`bad-input/${name.replace(/\W+/g, '-')}.yaml`, content)]);
    expect({ code: run.code, diagnostics: codes(run.json) }).toEqual({ code: 1, diagnostics: [expected] });
  });

  it('reports an integer beyond 2^53 where an integer is expected as invalid-value', async () => {
    const name = file('bad-input/big-integer.yaml', `${HEADER}spec:\n  capabilities:\n    cache:\n      rendering:\n        size: 9007199254740993\n`);
    const run = await lintJson([name, '--capability-def', 'cache-definition.yaml']);
    expect({ code: run.code, diagnostics: codes(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'invalid-value', line: 9, column: 15, path: '/spec/capabilities/cache/rendering/size' }],
    });
  });

  it('reports a file over 16 MiB as file-too-large without reading it, and exits 1', async () => {
    const name = file('bad-input/huge.yaml', Buffer.alloc(16 * 1024 * 1024 + 1, 0x23));
    const run = await lintJson([name]);
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.message]) }).toEqual({
      code: 1,
      diagnostics: [['file-too-large', name, 'file is 16777217 bytes; the limit is 16777216 bytes (16 MiB)']],
    });
  });

  it('reports standard input over 16 MiB as file-too-large', async () => {
    const run = await lintJson(['-', '--stdin-filepath', 'piped.yaml'], { input: Buffer.alloc(16 * 1024 * 1024 + 1, 0x23) });
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.file]) }).toEqual({
      code: 1,
      diagnostics: [['file-too-large', 'piped.yaml']],
    });
  });

  it('reports a folder named where a file is expected by --capability-def as unreadable, exiting 2', async () => {
    const run = await lintJson(['good.yaml', '--capability-def', 'empty-dir']);
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.file]) }).toEqual({ code: 2, diagnostics: [['io-error', 'empty-dir']] });
  });

  it('writes nothing to standard error for bad content', async () => {
    const binary = file('bad-input/stderr-binary.yaml', Buffer.from([0, 159, 146, 150]));
    const run = await lint(['five.yaml', binary]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: '' });
  });
});

describe.concurrent('kurel: help and version', () => {
  it('prints the version with --version', async () => {
    const run = await runKurel(['--version']);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: `${VERSION}\n` });
  });

  it('lists lint in --help', async () => {
    const run = await runKurel(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: kurel \[options\] \[command\]/);
    expect(run.stdout).toMatch(/^ {2}lint \[options\] <paths\.\.\.>/m);
  });

  it('documents every lint option in lint --help', async () => {
    const run = await runKurel(['lint', '--help']);
    expect(run.code).toBe(0);
    for (const option of [
      '--definitions <dir>',
      '--capability-def <file>',
      '--plugin <module>',
      '--strict ',
      '--strict-capabilities',
      '--format <format[=file]>',
      '--color <when>',
      '--quiet',
      '--config <file>',
      '--no-config',
      '--stdin-filepath <name>',
    ]) {
      expect(run.stdout).toContain(option);
    }
  });
});

describe.concurrent('kurel lint: what a new user reads (issue 16, defect 15)', () => {
  it('names a plugin package it cannot find from the working directory, not from its own files', async () => {
    const run = await lintJson(['good.yaml', '--plugin', 'nope-pkg']);
    expect(run.code).toBe(2);
    expect(run.json.diagnostics).toMatchObject([
      {
        code: 'usage',
        file: 'plugin:nope-pkg',
        message: `plugin nope-pkg: cannot find the package nope-pkg from ${dir}; install it there, or give the plugin's path (./nope-pkg.mjs)`,
      },
    ]);
  });

  it('prints no blank source line and caret for an empty file', async () => {
    file('cosmetic/empty.yaml', '');
    const run = await lint(['cosmetic/empty.yaml']);
    expect(run.stdout).toBe(
      'cosmetic/empty.yaml:1:1 error empty-document the file is empty or holds only comments; expected a ClusterProfile or CapabilityDefinition\n1 file checked: 1 error, 0 warnings\nrun kurel explain empty-document for details\n',
    );
  });

  it('gives no line and column to a path it could not read', async () => {
    const run = await lint(['cosmetic/missing.yaml']);
    expect(run.code).toBe(2);
    expect(run.stdout.split('\n')[0]).toBe('cosmetic/missing.yaml: error io-error cannot read cosmetic/missing.yaml: no such file');
  });

  it('prints no lint envelope for a command whose output is not one', async () => {
    const run = await runKurel(['schema', 'nope', '--format', 'json'], { cwd: dir });
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: "<command line>:1:1 error usage unknown option '--format'\n",
    });
  });
});
