import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleCatalogue } from '../../src/catalogue/assemble-catalogue.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { registryDigest } from '../../src/catalogue/registry-digest.js';

// The one catalogue assembler (ARCHITECTURE.md "Catalogue assembly"): handlers, then
// definitions, then the lockfile; a catalogue, or the refusal.

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const VERSIONED = join(FIXTURES, 'versioned');
const REDIS_PLUGIN = join(VERSIONED, 'plugins', 'redis-sidecar.mjs');
const REFUSED_PLUGIN = join(FIXTURES, 'plugins', 'claims-builtin.mjs');

const BROKEN_DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: queue
spec:
  rendering:
    properties:
      size: {type: nosuchtype}
`;

const shape = (d: { code: string; severity: string; file: string; line: number; column: number; path: string }) => ({
  code: d.code,
  severity: d.severity,
  file: d.file,
  line: d.line,
  column: d.column,
  path: d.path,
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-assemble-'));
  writeFileSync(join(dir, 'queue.yaml'), BROKEN_DEFINITION);
  writeFileSync(join(dir, 'junk.lock.yaml'), 'apiVersion: 3\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('assembleCatalogue', () => {
  it('with no sources is the built-ins, and reads no lockfile', async () => {
    const assembly = await assembleCatalogue({ cwd: dir });
    expect(assembly.ok).toBe(true);
    if (!assembly.ok) return;
    expect(assembly.catalogue.knownTypes()).toEqual(createCatalogue().knownTypes());
    expect(assembly.diagnostics).toEqual([]);
    expect(assembly.files).toEqual([]);
    expect(assembly.lockfile).toEqual({ location: undefined, lock: undefined, diagnostics: [], sources: new Map(), fatal: false });
  });

  it('loads plugins, then the definitions of the folders named, every version of each name', async () => {
    const assembly = await assembleCatalogue({ plugins: [REDIS_PLUGIN], definitionDirs: [join(VERSIONED, 'definitions')], cwd: VERSIONED });
    expect(assembly.ok).toBe(true);
    if (!assembly.ok) return;
    expect(assembly.catalogue.knows('redis-sidecar')).toBe(true);
    expect(assembly.catalogue.hasDefinitionVersions('redis-sidecar')).toBe(true);
    expect(assembly.files.map((f) => [f.path.slice(VERSIONED.length), f.kind, f.status])).toEqual([
      ['/definitions/redis-sidecar-1.0.0.yaml', 'CapabilityDefinition', 'checked'],
      ['/definitions/redis-sidecar-1.1.0.yaml', 'CapabilityDefinition', 'checked'],
      ['/definitions/redis-sidecar-2.0.0-rc.1.yaml', 'CapabilityDefinition', 'checked'],
    ]);
  });

  it('builds the same catalogue from definition bytes already read as from the files', async () => {
    const files = ['redis-sidecar-1.0.0.yaml', 'redis-sidecar-1.1.0.yaml', 'redis-sidecar-2.0.0-rc.1.yaml'].map((f) => join(VERSIONED, 'definitions', f));
    const fromFiles = await assembleCatalogue({ plugins: [REDIS_PLUGIN], definitionFiles: files, cwd: VERSIONED });
    const inputs = files.map((file) => ({ file, content: readFileSync(file), origin: 'definition' as const }));
    const fromBytes = await assembleCatalogue({ plugins: [REDIS_PLUGIN], definitionInputs: inputs, cwd: VERSIONED });
    if (!fromFiles.ok || !fromBytes.ok) throw new Error('both assemblies should succeed');
    expect(registryDigest(fromBytes.catalogue)).toBe(registryDigest(fromFiles.catalogue));
    expect(registryDigest(fromBytes.catalogue)).not.toBe(registryDigest(createCatalogue()));
    expect(fromBytes.files).toEqual(fromFiles.files);
  });

  it('refuses a plugin that fails the startup assertion with a usage diagnostic naming it (fatal), and still reads the lockfile', async () => {
    const assembly = await assembleCatalogue({ plugins: [REFUSED_PLUGIN], definitionDirs: [dir], lockfile: { flag: 'junk.lock.yaml' }, cwd: dir });
    expect(assembly.ok).toBe(false);
    if (assembly.ok) return;
    expect(assembly.refusal.fatal).toBe(true);
    expect(assembly.refusal.diagnostics.map(shape)).toEqual([
      { code: 'usage', severity: 'error', file: `plugin:${REFUSED_PLUGIN}`, line: 1, column: 1, path: '' },
    ]);
    expect(assembly.refusal.diagnostics[0]?.message).toContain('expose');
    // Nothing of the definitions is read once the start is refused.
    expect(assembly.refusal.files).toEqual([]);
    expect(assembly.refusal.lockfile.fatal).toBe(true);
    expect(assembly.refusal.lockfile.diagnostics.map((d) => [d.code, d.file, d.path])).toEqual([
      ['wrong-type', 'junk.lock.yaml', '/apiVersion'],
      ['missing-required', 'junk.lock.yaml', '/lockfileVersion'],
      ['missing-required', 'junk.lock.yaml', '/kind'],
      ['missing-required', 'junk.lock.yaml', '/definitions'],
      ['missing-required', 'junk.lock.yaml', '/profiles'],
    ]);
  });

  it('refuses a catalogue whose definitions have errors (not fatal: exit 1), positioned in the file', async () => {
    const assembly = await assembleCatalogue({ definitionDirs: [dir], cwd: dir });
    expect(assembly.ok).toBe(false);
    if (assembly.ok) return;
    expect(assembly.refusal.fatal).toBe(false);
    expect(assembly.refusal.diagnostics.map(shape)).toEqual([
      { code: 'invalid-value', severity: 'error', file: join(dir, 'queue.yaml'), line: 8, column: 20, path: '/spec/rendering/properties/size/type' },
    ]);
    expect([...assembly.refusal.sources.keys()]).toEqual([join(dir, 'queue.yaml')]);
  });

  it('refuses a definition folder that cannot be read (fatal)', async () => {
    const assembly = await assembleCatalogue({ definitionDirs: [join(dir, 'missing')], cwd: dir });
    expect(assembly.ok).toBe(false);
    if (assembly.ok) return;
    expect(assembly.refusal.fatal).toBe(true);
    expect(assembly.refusal.diagnostics.map(shape)).toEqual([
      { code: 'io-error', severity: 'error', file: join(dir, 'missing'), line: 1, column: 1, path: '' },
    ]);
  });

  it('reports a lockfile named but missing, and keeps the catalogue: the run decides', async () => {
    const assembly = await assembleCatalogue({ lockfile: { flag: 'kurel.lock.yaml' }, cwd: dir });
    if (!assembly.ok) throw new Error('the catalogue should be assembled');
    expect(assembly.lockfile.fatal).toBe(true);
    expect(assembly.lockfile.diagnostics.map(shape)).toEqual([{ code: 'io-error', severity: 'error', file: 'kurel.lock.yaml', line: 1, column: 1, path: '' }]);
    expect(assembly.lockfile.diagnostics[0]?.message).toBe('cannot read kurel.lock.yaml: no such file');
    const writing = await assembleCatalogue({ lockfile: { flag: 'kurel.lock.yaml', mayBeMissing: true }, cwd: dir });
    if (!writing.ok) throw new Error('the catalogue should be assembled');
    expect(writing.lockfile.fatal).toBe(false);
    expect(writing.lockfile.diagnostics).toEqual([]);
    expect(writing.lockfile.location?.display).toBe('kurel.lock.yaml');
  });

  it('takes handlers already loaded instead of loading plugins again', async () => {
    const handlers = createCatalogue();
    const assembly = await assembleCatalogue({ handlers, plugins: [REFUSED_PLUGIN], cwd: dir });
    if (!assembly.ok) throw new Error('the plugins given with handlers are not loaded');
    expect(assembly.catalogue).toBe(handlers);
  });
});
