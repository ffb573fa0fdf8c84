import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';
import { LspClient } from './client.js';
import { EDGE_PROXY, PROFILE, redisSidecar, writeRepository } from './repository-fixture.js';

const COSTLY = readFileSync(fileURLToPath(new URL('../fixtures/plugins/costly.mjs', import.meta.url)), 'utf8');

/** A repository whose configuration loads the plugin of handlers that cost what a test asks. */
function costlyRepository(): string {
  return writeRepository({
    '.kurel.yaml': 'definitions: [definitions]\nplugins: [./plugins/costly.mjs]\n',
    'plugins/costly.mjs': COSTLY,
    'definitions/edge-proxy.yaml': EDGE_PROXY,
  });
}

/** A profile binding one handler of the costly plugin with `rendering`. */
function costlyProfile(binding: string): string {
  return [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: ClusterProfile',
    'metadata:',
    '  name: costly',
    'spec:',
    '  capabilities:',
    `    ${binding}`,
    '',
  ].join('\n');
}

/** A clean profile of at least `bytes` bytes: edge-proxy bindings. */
function largeProfile(bytes: number): string {
  const lines = [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: ClusterProfile',
    'metadata:',
    '  name: large',
    'spec:',
    '  platform:',
    '    kubernetes: "1.32"',
    '  capabilities:',
  ];
  let size = lines.join('\n').length;
  for (let i = 0; size < bytes; i++) {
    const binding = `    edge-proxy.s${i}:\n      rendering:\n        replicas: ${i % 7}\n        hostNetwork: true`;
    lines.push(binding);
    size += binding.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

describe('kurel lsp bounds', () => {
  let client: LspClient | undefined;
  afterEach(async () => {
    await client?.stop().catch(() => client?.kill());
    client = undefined;
  });

  // A clean file is what lint reads by its fast path; one with a problem is read in full for positions, several times slower.
  it("answers a 5 MB open profile within its deadline, with lint's diagnostics", { timeout: 120_000 }, async () => {
    const text = largeProfile(5 * 1024 * 1024);
    const root = writeRepository({ '.kurel.yaml': 'definitions: [definitions]\n', 'definitions/edge-proxy.yaml': EDGE_PROXY, 'clusters/large.yaml': text });
    client = await LspClient.start(root, ['--deadline', '60000']);
    const uri = await client.open(join(root, 'clusters/large.yaml'), text);
    const got = await client.diagnostics(uri, () => true, 90_000);
    const run = await runKurel(['lint', 'clusters/large.yaml', '--format', 'json'], { cwd: root });
    const lint = (JSON.parse(run.stdout) as { diagnostics: { code: string; message: string; line: number; column: number }[] }).diagnostics;
    expect(run.code).toBe(0);
    expect(got.map((d) => [d.code, d.message, d.range.start.line + 1, d.range.start.character + 1])).toEqual(
      lint.map((d) => [d.code, d.message, d.line, d.column]),
    );
    // A hover on a text this large reads the lines around it, and the platform from the lines above the bindings.
    const hover = await client.hover(uri, { line: 11, character: 10 });
    expect(hover?.contents).toEqual({
      kind: 'markdown',
      value: '**hostNetwork** (capability `edge-proxy`)\n\nType: boolean\n\nLifecycle: introduced in Kubernetes 1.10 (at kubernetes 1.32: available)',
    });
  });

  // A migration judges the whole text as lint does: the server's own thread answers meanwhile.
  it("migrates a large profile's binding in the judging thread, answering a hover meanwhile", { timeout: 120_000 }, async () => {
    const text = largeProfile(1024 * 1024).replace(
      '  capabilities:\n',
      '  capabilities:\n    redis-sidecar:\n      version: "1.0"\n      rendering: {image: "redis:7"}\n',
    );
    const root = writeRepository({
      '.kurel.yaml': 'definitions: [definitions]\n',
      'definitions/edge-proxy.yaml': EDGE_PROXY,
      'definitions/redis-sidecar-1.0.0.yaml': redisSidecar('1.0.0'),
      'definitions/redis-sidecar-1.1.0.yaml': redisSidecar('1.1.0', ['port: {type: integer, default: 6379}']),
    });
    client = await LspClient.start(root, ['--deadline', '60000']);
    const uri = await client.open(join(root, 'clusters/large.yaml'), text);
    expect(await client.diagnostics(uri, () => true, 90_000)).toEqual([]);
    const answered: string[] = [];
    const actions = client.codeActions(uri, { start: { line: 8, character: 6 }, end: { line: 8, character: 6 } }, []).then((a) => {
      answered.push('code actions');
      return a;
    });
    const hover = client.hover(uri, { line: 14, character: 10 }).then((h) => {
      answered.push('hover');
      return h;
    });
    expect((await hover)?.contents).toMatchObject({ value: expect.stringContaining('**hostNetwork**') });
    expect((await actions).map((a) => a.title)).toContain('migrate redis-sidecar to 1.1.0 (kurel migrate)');
    expect(answered).toEqual(['hover', 'code actions']);
  });

  // Issue 41, row 7: hovers and completion parsed the text on the server's thread, so a hover on
  // a 500 KiB text held every other request for as long as the parse took.
  it('reads a 500 KiB text for a hover off its own thread: a request on another file is answered meanwhile', { timeout: 120_000 }, async () => {
    const text = largeProfile(500 * 1024);
    const root = writeRepository({ '.kurel.yaml': 'definitions: [definitions]\n', 'definitions/edge-proxy.yaml': EDGE_PROXY });
    client = await LspClient.start(root, ['--deadline', '60000']);
    const uri = await client.open(join(root, 'clusters/large.yaml'), text);
    expect(await client.diagnostics(uri, () => true, 90_000)).toEqual([]);
    const notes = await client.open(join(root, 'notes.yaml'), 'hello: world\n');
    expect(await client.diagnostics(notes)).toEqual([]);
    const answered: string[] = [];
    const large = client.hover(uri, { line: 11, character: 10 }).then((h) => {
      answered.push('hover on the large text');
      return h;
    });
    const other = client.hover(notes, { line: 0, character: 2 }).then((h) => {
      answered.push('hover on another file');
      return h;
    });
    expect((await large)?.contents).toMatchObject({ value: expect.stringContaining('**hostNetwork** (capability `edge-proxy`)') });
    expect(await other).toBeNull();
    expect(answered).toEqual(['hover on another file', 'hover on the large text']);
  });

  it('reads a 500 KiB text nested deep by its lines: a hover on it and then on a small file are both answered', { timeout: 120_000 }, async () => {
    const head = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: deep\nspec:\n  capabilities:\n';
    const text = `${head}    edge-proxy:\n      rendering:\n        hostNetwork: ${'['.repeat(500 * 1024)}\n`;
    const root = writeRepository({ '.kurel.yaml': 'definitions: [definitions]\n', 'definitions/edge-proxy.yaml': EDGE_PROXY });
    client = await LspClient.start(root, ['--deadline', '60000']);
    const deep = await client.open(join(root, 'clusters/deep.yaml'), text);
    await client.diagnostics(deep, (d) => d.length > 0, 90_000);
    const small = await client.open(join(root, 'clusters/small.yaml'), `${head}    edge-proxy:\n      rendering:\n        hostNetwork: true\n`);
    expect(await client.diagnostics(small)).toEqual([]);
    const hostNetwork = '**hostNetwork** (capability `edge-proxy`)';
    expect((await client.hover(deep, { line: 8, character: 10 }))?.contents).toMatchObject({ value: expect.stringContaining(hostNetwork) });
    expect((await client.hover(small, { line: 8, character: 10 }))?.contents).toMatchObject({ value: expect.stringContaining(hostNetwork) });
    expect((await client.completion(deep, { line: 8, character: 8 })).map((c) => c.label)).toContain('replicas');
  });

  it('reports a judgement past its deadline on the file, and goes on judging', async () => {
    const root = costlyRepository();
    client = await LspClient.start(root, ['--deadline', '1000']);
    const spinning = await client.open(join(root, 'spinning.yaml'), costlyProfile('spin: {rendering: {ms: 600000}}'));
    expect((await client.diagnostics(spinning)).map((d) => [d.severity, d.message, d.range.start])).toEqual([
      [1, 'kurel could not judge this file within 1000 ms', { line: 0, character: 0 }],
    ]);
    const other = await client.open(join(root, 'other.yaml'), PROFILE);
    expect((await client.diagnostics(other)).map((d) => d.code)).toContain('unknown-field');
    await client.change(spinning, costlyProfile('spin: {rendering: {ms: 0}}'));
    expect(await client.diagnostics(spinning)).toEqual([]);
  });

  it('reports a judgement that exhausts its heap on the file, and goes on judging', async () => {
    const root = costlyRepository();
    client = await LspClient.start(root, ['--memory', '128']);
    const hog = await client.open(join(root, 'hog.yaml'), costlyProfile('hog: {rendering: {}}'));
    const [failure, ...rest] = await client.diagnostics(hog);
    expect(rest).toEqual([]);
    expect(failure?.message).toMatch(/^kurel could not judge this file: .*memory/);
    const other = await client.open(join(root, 'other.yaml'), PROFILE);
    expect((await client.diagnostics(other)).map((d) => d.code)).toContain('unknown-field');
  });
});
