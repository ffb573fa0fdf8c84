import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { runKurel } from '../helpers/cli.js';
import { LspClient } from './client.js';
import { EDGE_PROXY, PROFILE, standardRepository, writeFile, writeRepository } from './repository-fixture.js';

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

/** What `kurel lint --format json ARGUMENT` run in the repository reports for `file` (after writing `text` there). */
async function lintOf(root: string, file: string, text: string, argument = file): Promise<Compared[]> {
  writeFile(root, file, text);
  const run = await runKurel(['lint', argument, '--format', 'json'], { cwd: root });
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
    // Each links the page kurel explain prints.
    const published = await client.diagnostics(uri);
    expect(published.map((d) => d.codeDescription?.href.slice(d.codeDescription.href.indexOf('/docs/')))).toEqual(
      expected.map((d) => `/docs/codes/${d.code}.md`),
    );
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

  it('hovers a rendering key with its description, type, lifecycle and what it means at the platform', async () => {
    const uri = await client.open(join(root, 'clusters/hover.yaml'), PROFILE);
    await client.diagnostics(uri);
    const field = await client.hover(uri, { line: 13, character: 14 });
    expect(field?.contents).toEqual({
      kind: 'markdown',
      value: [
        '**legacyCiphers** (capability `edge-proxy`)',
        'accept ciphers older clients need',
        'Type: boolean',
        'Lifecycle: deprecated in Kubernetes 1.30; removed in Kubernetes 1.32: use mode: mutual (at kubernetes 1.32: removed)',
      ].join('\n\n'),
    });
    expect(field?.range).toEqual({ start: { line: 13, character: 10 }, end: { line: 13, character: 23 } });
    const replicas = await client.hover(uri, { line: 10, character: 9 });
    expect(replicas).toBeNull();
    // Keys of the document itself: what the ClusterProfile schema says.
    expect((await client.hover(uri, { line: 5, character: 4 }))?.contents).toEqual({
      kind: 'markdown',
      value:
        '**platform** (ClusterProfile)\n\nthe version each platform component of the cluster runs, such as kubernetes: "1.30"; capability fields are checked against it\n\nType: object',
    });
    expect((await client.hover(uri, { line: 6, character: 6 }))?.contents).toEqual({
      kind: 'markdown',
      value: '**kubernetes** (ClusterProfile)\n\nMAJOR.MINOR or MAJOR.MINOR.PATCH, quoted\n\nType: string',
    });
  });

  it('hovers a binding with its source and resolved version', async () => {
    const uri = await client.open(join(root, 'clusters/hover-binding.yaml'), PROFILE);
    await client.diagnostics(uri);
    const hover = await client.hover(uri, { line: 14, character: 6 });
    expect(hover?.contents).toEqual({
      kind: 'markdown',
      value: [
        '**redis-sidecar**: capability `redis-sidecar`',
        'Injects a Redis sidecar container.',
        'Source: definition definitions/redis-sidecar-1.1.0.yaml (version 1.1.0)',
        'Resolved version: 1.1.0 (unpinned)',
        'Versions: 1.0.0, 1.1.0',
      ].join('\n\n'),
    });
  });

  it('completes capability names, rendering keys and enum values narrowed to the platform', async () => {
    const text = PROFILE.replace('          legacyCiphers: true\n', '          mode: \n          \n    \n').replace(
      '    redis-sidecar:\n',
      '    redis-sidecar:\n      \n',
    );
    const uri = await client.open(join(root, 'clusters/complete.yaml'), text);
    await client.diagnostics(uri);
    const values = await client.completion(uri, { line: 13, character: 16 });
    // passthrough was removed in kubernetes 1.32, the profile's platform.
    expect(values.map((c) => c.label)).toEqual(['simple', 'mutual']);
    const keys = await client.completion(uri, { line: 14, character: 10 });
    // legacyCiphers was removed in 1.32 too.
    expect(keys.map((c) => c.label)).toEqual(['mode']);
    const capabilities = (await client.completion(uri, { line: 15, character: 4 })).map((c) => c.label);
    expect(capabilities).toContain('edge-proxy');
    expect(capabilities).toContain('redis-sidecar');
    expect(capabilities).toContain('expose');
    const binding = await client.completion(uri, { line: 17, character: 6 });
    expect(binding.map((c) => c.label).sort()).toEqual(['rendering', 'version']);
    const rendering = await client.completion(uri, { line: 10, character: 8 });
    expect(rendering.map((c) => c.label).sort()).toEqual(['hostNetwork', 'replicas', 'tls']);
  });

  it('goes from a binding to its CapabilityDefinition', async () => {
    const uri = await client.open(join(root, 'clusters/definition.yaml'), PROFILE);
    await client.diagnostics(uri);
    const location = await client.definition(uri, { line: 14, character: 8 });
    expect(location).toEqual({
      uri: pathToFileURL(join(root, 'definitions/redis-sidecar-1.1.0.yaml')).href,
      range: { start: { line: 3, character: 8 }, end: { line: 3, character: 21 } },
    });
    expect(await client.definition(uri, { line: 8, character: 6 })).toEqual({
      uri: pathToFileURL(join(root, 'definitions/edge-proxy.yaml')).href,
      range: { start: { line: 3, character: 8 }, end: { line: 3, character: 18 } },
    });
  });

  it('judges an open CapabilityDefinition and .kurel.yaml as lint does', async () => {
    const broken = EDGE_PROXY.replace('default: 2,', 'default: two,');
    const definition = await client.open(join(root, 'definitions/edge-proxy.yaml'), broken);
    const got = (await client.diagnostics(definition, (ds) => ds.length > 0)).map(fromLsp);
    try {
      expect(got).toEqual(await lintOf(root, 'definitions/edge-proxy.yaml', broken));
    } finally {
      writeFile(root, 'definitions/edge-proxy.yaml', EDGE_PROXY);
    }
    // Lint refuses to run with this configuration, and says why in it (another repository, so the others' files stay judged).
    const misspelt = 'definitions: [definitions]\nrequirePined: true\n';
    const other = writeRepository({ '.kurel.yaml': misspelt, 'p.yaml': PROFILE });
    const config = await client.open(join(other, '.kurel.yaml'), misspelt);
    const expected = await lintOf(other, '.kurel.yaml', misspelt, 'p.yaml');
    expect(expected.map((d) => d.code)).toEqual(['unknown-field']);
    const [misspelling] = await client.diagnostics(config);
    expect([misspelling!].map(fromLsp)).toEqual(expected);
    const fix = (await client.codeActions(config, misspelling!.range, [misspelling!])).find((a) => a.title === 'change to requirePinned');
    await client.apply(config, fix!.edit!.changes![config]!);
    expect(client.text(config)).toBe('definitions: [definitions]\nrequirePinned: true\n');
    expect(await client.diagnostics(config)).toEqual([]);
  });
});
