import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileDiagnostic } from '../../src/core/diagnostics.js';
import { writeLockText } from '../../src/documents/capability-lock.js';
import { configureRun } from '../../src/sources/apply-config.js';
import {
  gatherReadInputs,
  lockedSourcesOf,
  readDefinitionEntries,
  registerSourceResolver,
  type SourceRequest,
  type SourceResolver,
  sourceFileName,
  sourceRepository,
} from '../../src/sources/definition-entries.js';
import { readServedDefinitions } from '../../src/sources/served-definitions.js';
import { runKurel } from '../helpers/cli.js';
import { propertyRuns } from '../helpers/property.js';

const DIGEST = `sha256:${'d'.repeat(64)}`;
const LOCKED = `sha256:${'e'.repeat(64)}`;

const definition = (name: string) =>
  [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: CapabilityDefinition',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  rendering:',
    '    properties:',
    '      depth:',
    '        type: integer',
    '        required: true',
    '',
  ].join('\n');

const profile = [
  'apiVersion: launcher.gokure.dev/v1alpha1',
  'kind: ClusterProfile',
  'metadata:',
  '  name: staging',
  'spec:',
  '  capabilities:',
  '    queue-depth:',
  '      rendering:',
  '        depth: deep',
  '',
].join('\n');

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (content: Uint8Array) => new TextDecoder().decode(content);

/** A resolver that serves one artifact and records what it was asked. */
function artifact(files: Record<string, string>): { resolve: SourceResolver; asked: SourceRequest[] } {
  const asked: SourceRequest[] = [];
  return {
    asked,
    resolve: async (request) => {
      asked.push(request);
      return {
        ok: true,
        digest: request.locked?.digest ?? DIGEST,
        tag: '1.4.0',
        range: '^1.2',
        files: Object.entries(files).map(([path, content]) => ({ path, content: bytes(content) })),
      };
    },
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-entries-'));
  mkdirSync(join(dir, 'defs'));
  writeFileSync(join(dir, 'defs', 'local.yaml'), definition('local-one'));
});
afterEach(() => {
  registerSourceResolver(undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe("the names of a source's files (docs/configuration.md)", () => {
  it('is the repository without its tag, range or digest, then @DIGEST#PATH', () => {
    expect(sourceFileName('oci://ghcr.io/acme/defs:^1.2', DIGEST, 'redis-sidecar.yaml')).toBe(`oci://ghcr.io/acme/defs@${DIGEST}#redis-sidecar.yaml`);
    expect(sourceRepository('oci://ghcr.io/acme/defs')).toBe('oci://ghcr.io/acme/defs');
    expect(sourceRepository('oci://localhost:5000/team/defs:1.4.0')).toBe('oci://localhost:5000/team/defs');
    expect(sourceRepository(`oci://localhost:5000/team/defs@${DIGEST}`)).toBe('oci://localhost:5000/team/defs');
    expect(sourceRepository('oci://ghcr.io/acme/defs:>=1.0 <2')).toBe('oci://ghcr.io/acme/defs');
  });

  it('is, for every reference, its host and repository whatever tag, range or digest follows', () => {
    const host = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,15}(:[0-9]{1,5})?$/);
    const repository = fc.stringMatching(/^[a-z0-9]+([._-][a-z0-9]+)*(\/[a-z0-9]+([._-][a-z0-9]+)*){0,3}$/);
    const suffix = fc.oneof(
      fc.constant(''),
      fc.stringMatching(/^:[A-Za-z0-9_][A-Za-z0-9_.-]{0,20}$/),
      fc.constantFrom(':^1.2', ':~1.4', ':>=1.0 <2', ':1.x'),
      fc.stringMatching(/^[0-9a-f]{64}$/).map((hex) => `@sha256:${hex}`),
    );
    fc.assert(
      fc.property(host, repository, suffix, (h, r, tail) => {
        expect(sourceRepository(`oci://${h}/${r}${tail}`)).toBe(`oci://${h}/${r}`);
        expect(sourceFileName(`oci://${h}/${r}${tail}`, DIGEST, 'a/b.yaml')).toBe(`oci://${h}/${r}@${DIGEST}#a/b.yaml`);
      }),
      { numRuns: propertyRuns(400) },
    );
  });
});

describe("readDefinitionEntries: a run's definition entries to texts with their file names", () => {
  it('reads folders as ever and hands each oci:// entry to the resolver, in order, with what the lockfile locks', async () => {
    const source = artifact({ 'queue-depth.yaml': definition('queue-depth'), 'nested/other.yaml': definition('other') });
    const read = await readDefinitionEntries({
      entries: [
        { path: 'oci://ghcr.io/acme/defs:^1.2', name: 'oci://ghcr.io/acme/defs:^1.2' },
        { path: 'defs', name: 'defs' },
      ],
      cwd: dir,
      resolve: source.resolve,
      lockedSources: { 'oci://ghcr.io/acme/defs:^1.2': { range: '^1.2', tag: '1.4.0', digest: LOCKED } },
    });
    if (!read.ok) throw new Error(JSON.stringify(read.diagnostics));
    expect(read.definitions.map((d) => [d.file, text(d.content)])).toEqual([
      ['defs/local.yaml', definition('local-one')],
      [`oci://ghcr.io/acme/defs@${LOCKED}#queue-depth.yaml`, definition('queue-depth')],
      [`oci://ghcr.io/acme/defs@${LOCKED}#nested/other.yaml`, definition('other')],
    ]);
    expect(read.sources).toEqual([{ reference: 'oci://ghcr.io/acme/defs:^1.2', digest: LOCKED, tag: '1.4.0', range: '^1.2' }]);
    expect(source.asked).toEqual([{ reference: 'oci://ghcr.io/acme/defs:^1.2', cwd: dir, locked: { range: '^1.2', tag: '1.4.0', digest: LOCKED } }]);
    expect(read.diagnostics).toEqual([]);
  });

  it('refuses an oci:// entry when the run has no resolver, naming it', async () => {
    const read = await readDefinitionEntries({ entries: [{ path: 'oci://ghcr.io/acme/defs', name: 'oci://ghcr.io/acme/defs' }], cwd: dir });
    expect(read).toEqual({
      ok: false,
      diagnostics: [
        expect.objectContaining({
          file: 'oci://ghcr.io/acme/defs',
          code: 'io-error',
          severity: 'error',
          message: 'cannot read oci://ghcr.io/acme/defs: this run has no registry client to fetch definitions from a registry',
        }),
      ],
    });
  });

  it('refuses with what the resolver says when it cannot resolve, and uses the registered resolver when none is passed', async () => {
    const problem = fileDiagnostic('oci://ghcr.io/acme/gone', 'io-error', 'cannot reach ghcr.io');
    registerSourceResolver(async () => ({ ok: false, diagnostics: [problem] }));
    const read = await readDefinitionEntries({ entries: [{ path: 'oci://ghcr.io/acme/gone', name: 'oci://ghcr.io/acme/gone' }], cwd: dir });
    expect(read).toEqual({ ok: false, diagnostics: [problem] });
  });
});

describe('where a run takes definition entries from', () => {
  it('keeps a .kurel.yaml oci:// entry as written, while a folder is relative to the config', () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, '.kurel.yaml'), 'definitions: [defs, "oci://ghcr.io/acme/defs:^1.2"]\n');
    const configured = configureRun({ definitions: ['oci://localhost:5000/x'] }, join(dir, 'sub'));
    if (!configured.ok) throw new Error(JSON.stringify(configured.diagnostics));
    expect(configured.options.definitions).toEqual(['../defs', 'oci://ghcr.io/acme/defs:^1.2', 'oci://localhost:5000/x']);
  });

  it('lints with the definitions of an oci:// --definitions entry, naming their files by repository and digest', async () => {
    writeFileSync(join(dir, 'staging.yaml'), profile);
    registerSourceResolver(artifact({ 'queue-depth.yaml': definition('queue-depth') }).resolve);
    const run = await runKurel(['lint', 'staging.yaml', '--definitions', 'oci://ghcr.io/acme/defs', '--format', 'json', '--no-config'], { cwd: dir });
    const report = JSON.parse(run.stdout);
    expect(report.diagnostics.map((d: { file: string; line: number; column: number; code: string }) => [d.file, d.line, d.column, d.code])).toEqual([
      ['staging.yaml', 9, 16, 'wrong-type'],
    ]);
    expect(report.files.map((f: { path: string }) => f.path)).toEqual(['staging.yaml', `oci://ghcr.io/acme/defs@${DIGEST}#queue-depth.yaml`]);
    expect(run.code).toBe(1);
  });

  it('stops a lint with exit 2 when an oci:// entry cannot be read', async () => {
    writeFileSync(join(dir, 'staging.yaml'), profile);
    // With no resolver registered, the registry client reads the source: offline, from an empty cache.
    const run = await runKurel(['lint', 'staging.yaml', '--definitions', 'oci://ghcr.io/acme/defs', '--no-config', '--offline'], {
      cwd: dir,
      env: { KUREL_CACHE_DIR: join(dir, 'cache') },
    });
    expect(run.stdout.split('\n')[0]).toBe(
      'oci://ghcr.io/acme/defs: error registry-unreachable oci://ghcr.io/acme/defs: not in the cache, and --offline forbids fetching it from ghcr.io',
    );
    expect(run.code).toBe(2);
  });

  it("reads a service's source by the digest its lockfile locks, after the lockfile", async () => {
    const lockfile = join(dir, 'kurel.lock.yaml');
    writeFileSync(lockfile, writeLockText({ sources: { 'oci://ghcr.io/acme/defs': { tag: '1.4.0', digest: LOCKED } }, definitions: {}, profiles: {} }));
    const source = artifact({ 'queue-depth.yaml': definition('queue-depth') });
    registerSourceResolver(source.resolve);
    const read = await readServedDefinitions({
      definitionFolders: [{ path: 'oci://ghcr.io/acme/defs', name: 'oci://ghcr.io/acme/defs' }],
      cwd: dir,
      lockfile: { path: lockfile, display: 'kurel.lock.yaml' },
    });
    if (!read.ok) throw new Error(JSON.stringify(read.diagnostics));
    expect(read.definitions.map((d) => d.file)).toEqual([`oci://ghcr.io/acme/defs@${LOCKED}#queue-depth.yaml`]);
    expect(source.asked.map((r) => r.locked)).toEqual([{ tag: '1.4.0', digest: LOCKED }]);
    expect(read.lockfile?.display).toBe('kurel.lock.yaml');
  });

  it("gives the sources a command's definitions came from, as a lockfile locks them", async () => {
    const source = artifact({ 'queue-depth.yaml': definition('queue-depth') });
    const gathered = await gatherReadInputs({ definitionDirs: ['defs', 'oci://ghcr.io/acme/defs:^1.2'], cwd: dir }, undefined, {
      resolve: source.resolve,
      lockedSources: { 'oci://ghcr.io/acme/defs:^1.2': { tag: '1.3.0', digest: LOCKED } },
    });
    expect(gathered.fatal).toBe(false);
    expect(gathered.inputs.map((input) => [input.file, input.origin])).toEqual([
      ['defs/local.yaml', 'definition'],
      [`oci://ghcr.io/acme/defs@${LOCKED}#queue-depth.yaml`, 'definition'],
    ]);
    const pinned = { reference: `oci://ghcr.io/acme/other@${DIGEST}`, digest: DIGEST };
    expect(lockedSourcesOf([...gathered.sources, pinned])).toEqual({ 'oci://ghcr.io/acme/defs:^1.2': { range: '^1.2', tag: '1.4.0', digest: LOCKED } });
  });
});
