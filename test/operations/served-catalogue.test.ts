import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { loadDefinitionFiles } from '../../src/catalogue/load-catalogue.js';
import { registryDigest } from '../../src/catalogue/registry-digest.js';
import { writeLockText } from '../../src/documents/capability-lock.js';
import { readLockfileText } from '../../src/documents/read-lockfile.js';
import { lockCatalogue } from '../../src/operations/follow-lock.js';
import { planLock } from '../../src/operations/lock.js';
import { assembleServedCatalogue } from '../../src/operations/served-catalogue.js';
import { lintWith } from '../versions/helpers.js';

// The catalogue a service serves, from the one assembler, which the service's loader and each
// of its workers use: assembled, then restricted to the lockfile.

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'versioned');
const VERSIONS = ['1.0.0', '1.1.0', '2.0.0-rc.1'];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-served-'));
  cpSync(FIXTURE, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const definitionsDir = () => join(dir, 'definitions');
const sources = () => ({ definitionDirs: [definitionsDir()], cwd: dir });

/** The fixture's partial profile locked (redis-sidecar pinned "1": 1.1.0), as kurel lock writes it. */
function lockText(): Uint8Array {
  const files = Object.fromEntries(
    VERSIONS.map((v) => [`definitions/redis-sidecar-${v}.yaml`, readFileSync(join(dir, `definitions/redis-sidecar-${v}.yaml`), 'utf8')]),
  );
  const report = lintWith(files, { 'clusters/partial.yaml': readFileSync(join(dir, 'clusters/partial.yaml'), 'utf8') });
  const plan = planLock(report.profiles, report.catalogue, undefined, { keyOf: (file) => file, exists: () => true });
  return new TextEncoder().encode(writeLockText(plan.lock));
}

describe('assembleServedCatalogue', () => {
  it('without a lockfile serves every version loaded, as the service loads them today', async () => {
    const served = await assembleServedCatalogue(sources());
    if (!served.ok) throw new Error(JSON.stringify(served.diagnostics));
    expect(served.catalogue.definitionVersions('redis-sidecar').map((d) => d.version)).toEqual(VERSIONS);
    const today = await loadDefinitionFiles(createCatalogue(), sources());
    expect(registryDigest(served.catalogue)).toBe(registryDigest(today.catalogue));
  });

  it('with a lockfile serves only the locked versions, the catalogue lockCatalogue gives of every version loaded', async () => {
    const content = lockText();
    const served = await assembleServedCatalogue(sources(), { display: 'kurel.lock.yaml', content });
    if (!served.ok) throw new Error(JSON.stringify(served.diagnostics));
    expect(served.catalogue.definitionVersions('redis-sidecar').map((d) => d.version)).toEqual(['1.1.0']);
    const reading = readLockfileText('kurel.lock.yaml', content);
    if (!reading.lock || !reading.document) throw new Error(JSON.stringify(reading.diagnostics));
    const loaded = (await loadDefinitionFiles(createCatalogue(), sources())).catalogue;
    if (!loaded) throw new Error('no catalogue loaded');
    const today = lockCatalogue(loaded, reading.lock, { display: 'kurel.lock.yaml', document: reading.document });
    if (!today.ok) throw new Error(JSON.stringify(today.diagnostics));
    expect(registryDigest(served.catalogue)).toBe(registryDigest(today.catalogue));
  });

  it('refuses a lockfile whose locked version is no longer loaded, at its entry, and keeps what it built', async () => {
    const content = lockText();
    unlinkSync(join(definitionsDir(), 'redis-sidecar-1.1.0.yaml'));
    const served = await assembleServedCatalogue(sources(), { display: 'kurel.lock.yaml', content });
    expect(served.ok).toBe(false);
    if (served.ok) return;
    expect(served.diagnostics.map((d) => [d.code, d.file, d.path, d.message])).toEqual([
      [
        'lock-outdated',
        'kurel.lock.yaml',
        '/definitions/redis-sidecar/1.1.0',
        'redis-sidecar 1.1.0 is locked in kurel.lock.yaml but no definition loaded holds it',
      ],
    ]);
    expect(served.catalogue?.definitionVersions('redis-sidecar').map((d) => d.version)).toEqual(['1.0.0', '2.0.0-rc.1']);
  });

  it('refuses bytes that are not a lockfile with the reasons positioned in it', async () => {
    const served = await assembleServedCatalogue(sources(), { display: 'kurel.lock.yaml', content: new TextEncoder().encode('a: [\n') });
    expect(served.ok).toBe(false);
    if (served.ok) return;
    expect(served.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([['yaml-syntax', 'kurel.lock.yaml', 1]]);
    expect(served.catalogue).toBeDefined();
  });
});
