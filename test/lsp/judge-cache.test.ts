import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { runKurel } from '../helpers/cli.js';
import { defaultCacheDir, LspClient } from './client.js';
import { countingPlugin, redisSidecar, writeFile, writeRepository } from './repository-fixture.js';

// docs/editors.md, "Cache": a text the server judged before, with the same bytes under the same
// judging, gets the result recorded instead of being judged again (a reopened file, a restarted
// editor), and exactly the diagnostics an uncached judgement publishes.

/** A profile binding `counted` with `size`, and redis-sidecar with a misspelt key (lines 10 and 11). */
function profile(name: string, size: number, image = 'imag'): string {
  return [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: ClusterProfile',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  capabilities:',
    '    counted:',
    `      rendering: {size: ${size}}`,
    '    redis-sidecar:',
    '      version: "1.0"',
    `      rendering: {${image}: "redis:7"}`,
    '',
  ].join('\n');
}

/** A diagnostic as lint's JSON and the server's both state it: [code, severity, line, column, end line, end column, message] (0-based). */
type Compared = [string, number, number, number, number, number, string];

const compared = (ds: Diagnostic[]): Compared[] =>
  ds.map((d) => [
    String(d.code),
    d.severity!,
    d.range.start.line,
    d.range.start.character,
    d.range.end.line,
    d.range.end.character,
    typeof d.message === 'string' ? d.message : d.message.value,
  ]);

const IMAG: Compared[] = [
  ['missing-required', 1, 10, 6, 10, 15, 'capability "redis-sidecar": image is required'],
  ['unknown-field', 1, 10, 18, 10, 22, 'capability "redis-sidecar": unknown field "imag" (allowed: image)'],
];

let root: string;
let notes: string;
const clients: LspClient[] = [];

beforeEach(() => {
  root = writeRepository({
    '.kurel.yaml': 'definitions: [definitions]\nplugins: [./plugins/counted.mjs]\n',
    'definitions/redis-sidecar-1.0.0.yaml': redisSidecar('1.0.0'),
    'clusters/c1.yaml': profile('c1', 1),
    'clusters/c2.yaml': profile('c2', 2),
  });
  notes = `${root}.notes`;
  writeFile(root, 'plugins/counted.mjs', countingPlugin(notes));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.stop().catch(() => client.kill());
  for (const path of [root, notes, defaultCacheDir(root)]) rmSync(path, { recursive: true, force: true });
});

/** The sizes the plugin judged since the last call, sorted. */
function judged(): string[] {
  if (!existsSync(notes)) return [];
  const sizes = readFileSync(notes, 'utf8').split('\n').filter(Boolean).sort();
  rmSync(notes);
  return sizes;
}

async function start(cacheDir?: string, args: string[] = []): Promise<LspClient> {
  const client = await LspClient.start(root, args, cacheDir);
  clients.push(client);
  return client;
}

async function stop(client: LspClient): Promise<void> {
  clients.splice(clients.indexOf(client), 1);
  expect(await client.stop()).toBe(0);
}

/** What the server publishes for `file` opened with `text`. */
async function opened(client: LspClient, file: string, text: string): Promise<Compared[]> {
  const uri = await client.open(join(root, file), text);
  const got = compared(await client.diagnostics(uri));
  await client.close(uri);
  return got;
}

/** The one cache file the servers of this test keep. */
function cacheFile(): string {
  const folder = join(defaultCacheDir(root), 'lsp');
  const files = readdirSync(folder).filter((name) => name.endsWith('.kurelcache'));
  expect(files).toHaveLength(1);
  return join(folder, files[0]!);
}

describe('the language server keeps what it judged', () => {
  it('does not judge again a text reopened or opened by a restarted server, and publishes what an uncached judgement does', async () => {
    // lint's own verdict on the file, and what a server with no cache publishes.
    const lint = await runKurel(['lint', 'clusters/c2.yaml', '--format', 'json'], { cwd: root });
    const expected = (
      JSON.parse(lint.stdout).diagnostics as { code: string; line: number; column: number; endLine: number; endColumn: number; message: string }[]
    ).map((d): Compared => [d.code, 1, d.line - 1, d.column - 1, d.endLine - 1, d.endColumn - 1, d.message]);
    expect(expected).toEqual(IMAG);
    judged();

    const first = await start();
    expect(await opened(first, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
    expect(judged()).toEqual(['2']);
    expect(existsSync(join(defaultCacheDir(root), 'lsp', '.gitignore'))).toBe(true);
    // Reopened: the result recorded.
    expect(await opened(first, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
    expect(judged()).toEqual([]);
    await stop(first);

    const again = await start();
    expect(await opened(again, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
    expect(await opened(again, 'clusters/c1.yaml', profile('c1', 1))).toEqual(IMAG);
    expect(judged()).toEqual(['1']);
    // An edit is judged, and what it says published.
    const uri = await again.open(join(root, 'clusters/c2.yaml'), profile('c2', 2));
    expect(compared(await again.diagnostics(uri))).toEqual(IMAG);
    await again.change(uri, profile('c2', 20, 'image'));
    expect(compared(await again.diagnostics(uri))).toEqual([]);
    expect(judged()).toEqual(['20']);
    // Back to the text judged before: that text's result is no longer the one kept for the file.
    await again.change(uri, profile('c2', 2));
    expect(compared(await again.diagnostics(uri))).toEqual(IMAG);
    expect(judged()).toEqual(['2']);
    await stop(again);

    // A server with a cache of its own judges everything, and publishes the same.
    const uncached = await start(`${root}.other-cache`);
    expect(await opened(uncached, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
    expect(judged()).toEqual(['2']);
    await stop(uncached);
    rmSync(`${root}.other-cache`, { recursive: true, force: true });
  });

  it('judges again when what judges the text changed: the configuration, a definition', async () => {
    const CONFIG = 'definitions: [definitions]\nplugins: [./plugins/counted.mjs]\n';
    const judgedBy = async (expected: Compared[]) => {
      const server = await start();
      expect(await opened(server, 'clusters/c2.yaml', profile('c2', 2))).toEqual(expected);
      expect(judged()).toEqual(['2']);
      await stop(server);
    };
    await judgedBy(IMAG);
    // The configuration lowers unknown-field to a warning: the same catalogue, judged otherwise.
    writeFile(root, '.kurel.yaml', `${CONFIG}severity: {unknown-field: warning}\n`);
    await judgedBy([IMAG[0]!, [...IMAG[1]!].map((part, i) => (i === 1 ? 2 : part)) as Compared]);
    writeFile(root, '.kurel.yaml', CONFIG);
    await judgedBy(IMAG);
    // The definition now knows `imag`: the catalogue's digest changed.
    writeFile(root, 'definitions/redis-sidecar-1.0.0.yaml', redisSidecar('1.0.0', ['imag: {type: string}']));
    await judgedBy([IMAG[0]!]);
  });

  it('judges an open file again, once files on disk changed, only when what judges it changed', async () => {
    const server = await start(undefined, ['--no-watch']);
    const uri = await server.open(join(root, 'clusters/c2.yaml'), profile('c2', 2));
    expect(compared(await server.diagnostics(uri))).toEqual(IMAG);
    expect(judged()).toEqual(['2']);
    const changed = async (text: string) => {
      server.forget(uri);
      writeFile(root, 'definitions/redis-sidecar-1.0.0.yaml', text);
      const definition = pathToFileURL(join(root, 'definitions/redis-sidecar-1.0.0.yaml')).href;
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: definition, type: 2 }] });
      return compared(await server.diagnostics(uri));
    };
    // The definition written again as it was: the repository is read again, the file's result found.
    expect(await changed(redisSidecar('1.0.0'))).toEqual(IMAG);
    expect(judged()).toEqual([]);
    // Another definition: the file is judged.
    expect(await changed(redisSidecar('1.0.0', ['imag: {type: string}']))).toEqual([IMAG[0]]);
    expect(judged()).toEqual(['2']);
  });

  it('publishes what an uncached judgement does when its cache folder cannot be written', async () => {
    writeFileSync(`${root}.plain`, 'a file, not a folder\n');
    const server = await start(`${root}.plain/cache`);
    expect(await opened(server, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
    expect(await opened(server, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
    await stop(server);
    rmSync(`${root}.plain`);
  });

  it('judges again, and publishes what an uncached judgement does, when the cache file is damaged', async () => {
    const first = await start();
    expect(await opened(first, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
    await stop(first);
    judged();
    const file = cacheFile();
    const good = readFileSync(file, 'utf8');
    // One result changed by hand (its error made a warning): the checksum no longer matches.
    const forged = good.replace('\\"severity\\":\\"error\\"', '\\"severity\\":\\"warning\\"');
    expect(forged).not.toBe(good);
    for (const damaged of [forged, '', 'not json\n{}', '{"kurelLintCache":1}\n[]', good.slice(0, good.length / 2)]) {
      writeFileSync(file, damaged);
      const server = await start();
      expect(await opened(server, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
      expect(judged()).toEqual(['2']);
      await stop(server);
    }
    // The last server wrote a good cache again.
    const last = await start();
    expect(await opened(last, 'clusters/c2.yaml', profile('c2', 2))).toEqual(IMAG);
    expect(judged()).toEqual([]);
    await stop(last);
  });

  it('keeps two servers sharing one cache right, and each keeps what the other recorded', async () => {
    const one = await start();
    const two = await start();
    // Both judge at once: each publishes what lint gives.
    const [a, b] = await Promise.all([opened(one, 'clusters/c1.yaml', profile('c1', 1)), opened(two, 'clusters/c2.yaml', profile('c2', 2, 'image'))]);
    expect(a).toEqual(IMAG);
    expect(b).toEqual([]);
    expect(judged()).toEqual(['1', '2']);
    // In turn: the second server read the cache before the first wrote c3's result, and writes c4's after it.
    writeFile(root, 'clusters/c3.yaml', profile('c3', 3));
    writeFile(root, 'clusters/c4.yaml', profile('c4', 4));
    expect(await opened(one, 'clusters/c3.yaml', profile('c3', 3))).toEqual(IMAG);
    expect(await opened(two, 'clusters/c4.yaml', profile('c4', 4))).toEqual(IMAG);
    expect(judged()).toEqual(['3', '4']);
    await stop(one);
    await stop(two);
    const three = await start();
    expect(await opened(three, 'clusters/c3.yaml', profile('c3', 3))).toEqual(IMAG);
    expect(await opened(three, 'clusters/c4.yaml', profile('c4', 4))).toEqual(IMAG);
    expect(judged()).toEqual([]);
    await stop(three);
  });
});
