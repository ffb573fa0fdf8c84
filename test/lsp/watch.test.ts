import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { runKurel } from '../helpers/cli.js';
import { LspClient } from './client.js';
import { redisSidecar, writeFile, writeRepository } from './repository-fixture.js';

function profile(pin: string, extra: string[] = []): string {
  return [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: ClusterProfile',
    'metadata:',
    '  name: prod',
    'spec:',
    '  capabilities:',
    '    redis-sidecar:',
    `      version: "${pin}"`,
    '      rendering: {image: "redis:7"}',
    ...extra,
    '',
  ].join('\n');
}

/** Lint's diagnostics for `file` (written with `text` first), as [code, severity, line, column] (LSP's 0-based). */
async function lintOf(root: string, file: string, text: string): Promise<[string, number, number, number][]> {
  writeFile(root, file, text);
  const run = await runKurel(['lint', file, '--format', 'json'], { cwd: root });
  const json = JSON.parse(run.stdout) as { diagnostics: { code: string; severity: string; file: string; line: number; column: number }[] };
  return json.diagnostics.filter((d) => d.file === file).map((d) => [d.code, d.severity === 'error' ? 1 : 2, d.line - 1, d.column - 1]);
}

const brief = (ds: Diagnostic[]) => ds.map((d): [string, number, number, number] => [String(d.code), d.severity!, d.range.start.line, d.range.start.character]);

describe('kurel lsp follows the repository on disk', () => {
  let root: string;
  let client: LspClient;
  beforeAll(async () => {
    root = writeRepository({
      '.kurel.yaml': 'definitions: [definitions]\n',
      'definitions/redis-sidecar-1.0.0.yaml': redisSidecar('1.0.0'),
      'definitions/redis-sidecar-1.1.0.yaml': redisSidecar('1.1.0'),
      'clusters/prod.yaml': profile('1.0'),
    });
    client = await LspClient.start(root);
  });
  afterAll(async () => {
    await client.stop().catch(() => client.kill());
  });

  it('pins an unpinned binding to the version it resolves to, where pins are not required', async () => {
    const text = profile('1.0').replace('      version: "1.0"\n', '');
    const uri = await client.open(join(root, 'clusters/pin.yaml'), text);
    expect(await client.diagnostics(uri)).toEqual([]);
    const actions = await client.codeActions(uri, { start: { line: 6, character: 6 }, end: { line: 6, character: 6 } }, []);
    const pin = actions.find((a) => a.title === 'pin redis-sidecar to version "1.1.0"');
    expect(pin, actions.map((a) => a.title).join(' | ')).toBeDefined();
    await client.apply(uri, pin!.edit!.changes![uri]!);
    expect(client.text(uri)).toBe(profile('1.1.0'));
    expect(await client.diagnostics(uri)).toEqual([]);
  });

  it('judges the open profiles again when a lockfile appears', async () => {
    const text = profile('1.1');
    const uri = await client.open(join(root, 'clusters/prod.yaml'), text);
    expect(await client.diagnostics(uri)).toEqual([]);
    // The lockfile locks the profile as it is on disk, pinned "1.0"; the editor's text pins "1.1".
    const lock = await runKurel(['lock', 'clusters/prod.yaml'], { cwd: root });
    expect(lock.code).toBe(0);
    const expected = await lintOf(root, 'clusters/prod.yaml', text);
    expect(expected.map((d) => d[0])).toEqual(['lock-outdated']);
    expect(brief(await client.diagnostics(uri, (ds) => ds.length > 0))).toEqual(expected);
  });

  it('judges the open profiles again when .kurel.yaml changes', async () => {
    const text = profile('1.0', ['    mystery: {}']);
    const uri = await client.open(join(root, 'clusters/mystery.yaml'), text);
    expect(brief(await client.diagnostics(uri))).toEqual(await lintOf(root, 'clusters/mystery.yaml', text));
    writeFile(root, '.kurel.yaml', 'definitions: [definitions]\nstrictCapabilities: true\n');
    const expected = await lintOf(root, 'clusters/mystery.yaml', text);
    expect(expected.map((d) => d.slice(0, 2))).toContainEqual(['unknown-capability', 1]);
    expect(brief(await client.diagnostics(uri, (ds) => ds.some((d) => d.code === 'unknown-capability' && d.severity === 1)))).toEqual(expected);
  });

  it("follows the editor's notifications with --no-watch", async () => {
    const other = writeRepository({ '.kurel.yaml': 'definitions: [definitions]\n', 'definitions/redis-sidecar-1.0.0.yaml': redisSidecar('1.0.0') });
    const quiet = await LspClient.start(other, ['--no-watch']);
    try {
      const uri = await quiet.open(join(other, 'p.yaml'), profile('1.0').replace('{image: "redis:7"}', '{image: "redis:7", port: 6379}'));
      expect((await quiet.diagnostics(uri)).map((d) => d.code)).toEqual(['unknown-field']);
      writeFile(other, 'definitions/redis-sidecar-1.0.0.yaml', redisSidecar('1.0.0', ['port: {type: integer}']));
      await quiet.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: pathToFileURL(join(other, 'definitions/redis-sidecar-1.0.0.yaml')).href, type: 2 }],
      });
      expect(await quiet.diagnostics(uri, (ds) => ds.length === 0)).toEqual([]);
    } finally {
      await quiet.stop().catch(() => quiet.kill());
    }
  });

  it('says on each open profile why lint would refuse to run while .kurel.yaml is broken', async () => {
    const text = profile('1.0');
    const uri = await client.open(join(root, 'clusters/refused.yaml'), text);
    await client.diagnostics(uri);
    writeFile(root, '.kurel.yaml', 'definitions: [definitions]\nrequirePined: true\n');
    try {
      const refused = await client.diagnostics(uri, (ds) => ds.some((d) => String(d.message).startsWith('kurel lint refuses')));
      expect(refused.map((d) => [d.code, d.message, d.range.start])).toEqual([
        [
          'unknown-field',
          'kurel lint refuses to run here: .kurel.yaml:2:1 unknown field "requirePined" (allowed: definitions, capabilityDefs, plugins, lockfile, insecureRegistries, strict, strictCapabilities, requirePinned, platform, ignore, severity, overrides)',
          { line: 0, character: 0 },
        ],
      ]);
      const lint = await runKurel(['lint', 'clusters/refused.yaml'], { cwd: root });
      expect(lint.code).toBe(2);
    } finally {
      writeFile(root, '.kurel.yaml', 'definitions: [definitions]\n');
    }
    await client.diagnostics(uri, (ds) => ds.every((d) => !String(d.message).startsWith('kurel lint refuses')));
  });
});
