import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { runKurel } from '../helpers/cli.js';
import { LspClient } from './client.js';
import { EDGE_PROXY, PROFILE, standardRepository, writeFile } from './repository-fixture.js';

/** A diagnostic as both sides can state it: LSP's 0-based range from lint's 1-based one. */
interface Compared {
  code: string;
  severity: number;
  message: string;
  range: [number, number, number, number];
}

function fromLsp(d: Diagnostic): Compared {
  return {
    code: String(d.code),
    severity: d.severity!,
    message: typeof d.message === 'string' ? d.message : d.message.value,
    range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
  };
}

/** What `kurel lint --format json FILE` run in the repository reports for the file (after writing `text` there). */
async function lintOf(root: string, file: string, text: string): Promise<Compared[]> {
  writeFile(root, file, text);
  const run = await runKurel(['lint', file, '--format', 'json'], { cwd: root });
  const json = JSON.parse(run.stdout) as {
    diagnostics: {
      code: string;
      severity: string;
      message: string;
      file: string;
      line: number;
      column: number;
      endLine: number;
      endColumn: number;
      suppressed?: unknown;
    }[];
  };
  return json.diagnostics
    .filter((d) => d.file === file && d.suppressed === undefined)
    .map((d) => ({
      code: d.code,
      severity: d.severity === 'error' ? 1 : 2,
      message: d.message,
      range: [d.line - 1, d.column - 1, d.endLine - 1, d.endColumn - 1],
    }));
}

describe('kurel lsp over stdio', () => {
  let root: string;
  let client: LspClient;
  beforeAll(async () => {
    root = standardRepository();
    client = await LspClient.start(root);
  });
  afterAll(async () => {
    const code = await client.stop().catch(() => {
      client.kill();
      return -1;
    });
    expect(code).toBe(0);
  });

  it('publishes exactly the diagnostics kurel lint gives for the file', async () => {
    const uri = await client.open(join(root, 'clusters/prod.yaml'), PROFILE);
    const got = (await client.diagnostics(uri)).map(fromLsp);
    const expected = await lintOf(root, 'clusters/prod.yaml', PROFILE);
    expect(expected.map((d) => d.code).sort()).toEqual(['field-unavailable', 'unknown-field', 'unpinned-capability', 'wrong-type']);
    expect(got).toEqual(expected);
  });

  it('fixes each diagnostic with its code action, and each fix makes its diagnostic go', async () => {
    const uri = await client.open(join(root, 'clusters/fix.yaml'), PROFILE);
    const fixes: [string, string][] = [
      ['unknown-field', 'change to replicas'],
      ['wrong-type', 'write true'],
      ['unpinned-capability', 'pin to version "1.1"'],
      ['field-unavailable', 'silence field-unavailable on this line (# kurel-disable-next-line)'],
    ];
    for (const [code, title] of fixes) {
      const before = await client.diagnostics(uri);
      const diagnostic = before.find((d) => d.code === code)!;
      expect(diagnostic, code).toBeDefined();
      const actions = await client.codeActions(uri, diagnostic.range, [diagnostic]);
      const action = actions.find((a) => a.title === title);
      expect(action, `${title} among ${actions.map((a) => a.title).join(' | ')}`).toBeDefined();
      await client.apply(uri, action!.edit!.changes![uri]!);
      const after = await client.diagnostics(uri);
      expect(after.map((d) => d.code)).toEqual(before.map((d) => d.code).filter((c) => c !== code));
    }
    expect(client.text(uri)).toBe(
      PROFILE.replace('replicsa: 3', 'replicas: 3')
        .replace('hostNetwork: yes', 'hostNetwork: true')
        .replace('          legacyCiphers', '          # kurel-disable-next-line field-unavailable -- reason\n          legacyCiphers')
        .replace('    redis-sidecar:\n', '    redis-sidecar:\n      version: "1.1"\n'),
    );
    // The fixed text is what lint reports nothing for but the suppression it now holds.
    expect(await lintOf(root, 'clusters/fix.yaml', client.text(uri))).toEqual([]);
  });

  it('quotes a number where a string is expected, as the hint writes it', async () => {
    const text = PROFILE.replace('{image: "redis:7"}', '{image: 1.10}').replace('    redis-sidecar:\n', '    redis-sidecar:\n      version: "1.1"\n');
    const uri = await client.open(join(root, 'clusters/quote.yaml'), text);
    const diagnostic = (await client.diagnostics(uri)).find((d) => d.code === 'wrong-type' && d.range.start.line === 16)!;
    const action = (await client.codeActions(uri, diagnostic.range, [diagnostic])).find((a) => a.kind === 'quickfix' && a.isPreferred)!;
    expect(action.title).toBe('write "1.10"');
    await client.apply(uri, action.edit!.changes![uri]!);
    await client.diagnostics(uri, (ds) => !ds.some((d) => d.range.start.line === 16));
    expect(client.text(uri)).toContain('rendering: {image: "1.10"}');
  });

  it('migrates a binding to a later version through kurel migrate', async () => {
    const text = [
      'apiVersion: launcher.gokure.dev/v1alpha1',
      'kind: ClusterProfile',
      'metadata:',
      '  name: prod',
      'spec:',
      '  capabilities:',
      '    redis-sidecar:',
      '      version: "1.0" # the cache',
      '      rendering: {image: "redis:7"}',
      '',
    ].join('\n');
    const uri = await client.open(join(root, 'clusters/migrate.yaml'), text);
    await client.diagnostics(uri);
    const actions = await client.codeActions(uri, { start: { line: 6, character: 6 }, end: { line: 6, character: 6 } }, []);
    const migrate = actions.find((a) => a.title === 'migrate redis-sidecar to 1.1.0 (kurel migrate)');
    expect(migrate, actions.map((a) => a.title).join(' | ')).toBeDefined();
    await client.apply(uri, migrate!.edit!.changes![uri]!);
    const migrated = client.text(uri);
    writeFile(root, 'clusters/migrate-expected.yaml', text);
    const run = await runKurel(['migrate', 'clusters/migrate-expected.yaml', '--to', 'redis-sidecar@1.1.0', '--write'], { cwd: root });
    expect(run.code).toBe(0);
    expect(migrated).toBe(readFileSync(join(root, 'clusters/migrate-expected.yaml'), 'utf8'));
    expect(migrated).toContain('version: "1.1.0" # the cache');
    expect(await client.diagnostics(uri)).toEqual([]);
  });

  it('follows a definition edited on disk', async () => {
    const uri = await client.open(join(root, 'clusters/follow.yaml'), PROFILE);
    const before = await client.diagnostics(uri);
    expect(before.map((d) => d.code)).toContain('unknown-field');
    // The definition now names the key the profile writes: the unknown field goes, as lint says.
    writeFile(root, 'definitions/edge-proxy.yaml', EDGE_PROXY.replace('      replicas: {', '      replicsa: {'));
    try {
      const expected = await lintOf(root, 'clusters/follow.yaml', PROFILE);
      expect(expected.map((d) => d.code)).not.toContain('unknown-field');
      const after = await client.diagnostics(uri, (ds) => !ds.some((d) => d.code === 'unknown-field'));
      expect(after.map(fromLsp)).toEqual(expected);
    } finally {
      writeFile(root, 'definitions/edge-proxy.yaml', EDGE_PROXY);
    }
    await client.diagnostics(uri, (ds) => ds.some((d) => d.code === 'unknown-field'));
  });
});
