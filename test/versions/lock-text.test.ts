import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LockData, readLock, writeLockText } from '../../src/documents/capability-lock.js';
import { readLockfileText } from '../../src/documents/read-lockfile.js';
import { planLock } from '../../src/operations/lock.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { propertyRuns } from '../helpers/property.js';
import { lintWith, profileText, REDIS_VERSIONS } from './helpers.js';

const version = fc
  .tuple(fc.nat(12), fc.nat(12), fc.nat(12), fc.option(fc.constantFrom('rc.1', 'alpha'), { nil: undefined }))
  .map(([a, b, c, p]) => `${a}.${b}.${c}${p ? `-${p}` : ''}`);
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}[a-z0-9]$/);
const digest = fc.stringMatching(/^[0-9a-f]{64}$/).map((hex) => `sha256:${hex}`);
const path = fc.stringMatching(/^[a-z0-9._-]{1,8}(\/[a-z0-9._ -]{1,8}){0,2}\.yaml$/);
const reference = fc.stringMatching(
  /^oci:\/\/[a-z0-9.-]{1,10}(:[0-9]{2,5})?\/[a-z0-9]{1,6}(\/[a-z0-9_-]{1,6}){0,2}(:[a-z0-9.^~ <>=-]{1,8}|@sha256:[0-9a-f]{64})?$/,
);
const tag = fc.oneof(fc.stringMatching(/^v?[0-9]{1,2}\.[0-9]{1,2}(\.[0-9]{1,2})?$/), fc.constantFrom('latest', 'true', '1', '0x1f', '1.4.0-rc.1'));
const lockedSource = fc.record({ range: fc.constantFrom('^1.2', '~1.4', '>=1.0 <2', '1.x'), tag, digest }, { requiredKeys: ['tag', 'digest'] });
const lockData = fc.record({
  sources: fc.option(fc.dictionary(reference, lockedSource, { maxKeys: 3 }), { nil: undefined }),
  definitions: fc.dictionary(name, fc.dictionary(version, fc.record({ digest, file: path }), { minKeys: 1, maxKeys: 3 }), { maxKeys: 3 }),
  profiles: fc.dictionary(
    path,
    fc.dictionary(name, fc.record({ pin: fc.option(fc.constantFrom('1', '^2.1.0', '1.0', '>=1 <3'), { nil: undefined }), version }), { maxKeys: 3 }),
    { maxKeys: 4 },
  ),
});

function reversed(lock: LockData): LockData {
  const flip = <T>(record: Record<string, T>, each: (value: T) => T): Record<string, T> =>
    Object.fromEntries(
      Object.entries(record)
        .reverse()
        .map(([k, v]) => [k, each(v)]),
    );
  return {
    ...(lock.sources
      ? { sources: flip(lock.sources, (s) => (s.range === undefined ? { digest: s.digest, tag: s.tag } : { digest: s.digest, tag: s.tag, range: s.range })) }
      : {}),
    definitions: flip(lock.definitions, (versions) => flip(versions, (entry) => ({ file: entry.file, digest: entry.digest }))),
    profiles: flip(lock.profiles, (bindings) => flip(bindings, (b) => (b.pin === undefined ? { version: b.version } : { version: b.version, pin: b.pin }))),
  };
}

const clean = (lock: LockData): LockData => JSON.parse(JSON.stringify(lock));

describe('the lockfile text (docs/versions.md)', () => {
  it('is the same bytes for the same data, whatever order it was built in, and reads back as the same data', () => {
    fc.assert(
      fc.property(lockData, (generated) => {
        const lock = clean(generated);
        const text = writeLockText(lock);
        expect(writeLockText(reversed(lock))).toBe(text);
        const read = readLock(parseYamlStream(text, 'kurel.lock.yaml').documents[0]!.data);
        expect(read.issues).toEqual([]);
        expect(writeLockText(read.lock!)).toBe(text);
        expect(read.lock!.sources ?? {}).toEqual(lock.sources ?? {});
      }),
    );
  });

  it('is the same when the profiles of a run come in any order', () => {
    const profiles = Object.fromEntries(
      ['a', 'b', 'c', 'd'].map((n, i) => [`clusters/${n}.yaml`, profileText({ 'redis-sidecar': [undefined, '"1"', '"1.0.0"', '2.0.0-rc.1'][i] }, n)]),
    );
    const keyed = { keyOf: (file: string) => file, exists: () => true };
    const expected = writeLockText(planLock(lintWith(REDIS_VERSIONS, profiles).profiles, lintWith(REDIS_VERSIONS).catalogue, undefined, keyed).lock);
    fc.assert(
      fc.property(fc.shuffledSubarray(Object.entries(profiles), { minLength: 4, maxLength: 4 }), (order) => {
        const report = lintWith(Object.entries(REDIS_VERSIONS).reverse(), Object.fromEntries(order));
        expect(writeLockText(planLock(report.profiles, report.catalogue, undefined, keyed).lock)).toBe(expected);
      }),
      { numRuns: propertyRuns(24) },
    );
  });

  it('writes the registry sources first, by reference in byte order, each on one line, and no sources key when there are none', () => {
    const lock: LockData = {
      sources: {
        'oci://registry.example:5000/team/defs:2.0.0': { tag: '2.0.0', digest: `sha256:${'b'.repeat(64)}` },
        'oci://ghcr.io/acme/defs': { range: '^1.2', tag: '1.4.0', digest: `sha256:${'a'.repeat(64)}` },
        'oci://ghcr.io/acme/tagged:1.4': { tag: '1.4', digest: `sha256:${'c'.repeat(64)}` },
      },
      definitions: {},
      profiles: {},
    };
    expect(writeLockText(lock)).toBe(
      [
        '# Written by kurel lock. Commit it; kurel lint and build follow it when present.',
        'lockfileVersion: 1',
        'apiVersion: launcher.gokure.dev/v1alpha1',
        'kind: CapabilityLock',
        'sources:',
        `  "oci://ghcr.io/acme/defs": {range: "^1.2", tag: 1.4.0, digest: "sha256:${'a'.repeat(64)}"}`,
        `  "oci://ghcr.io/acme/tagged:1.4": {tag: "1.4", digest: "sha256:${'c'.repeat(64)}"}`,
        `  "oci://registry.example:5000/team/defs:2.0.0": {tag: 2.0.0, digest: "sha256:${'b'.repeat(64)}"}`,
        'definitions: {}',
        'profiles: {}',
        '',
      ].join('\n'),
    );
    const none = writeLockText({ definitions: {}, profiles: {} });
    expect(writeLockText({ sources: {}, definitions: {}, profiles: {} })).toBe(none);
    expect(none).not.toContain('sources');
    const read = readLockfileText('kurel.lock.yaml', writeLockText(lock));
    expect(read.diagnostics).toEqual([]);
    expect(read.lock?.sources).toEqual(lock.sources);
  });

  it('reads a sources entry as strictly as the rest: its key, its members, its digest, positioned in the lockfile', () => {
    const text = [
      'lockfileVersion: 1',
      'apiVersion: launcher.gokure.dev/v1alpha1',
      'kind: CapabilityLock',
      'sources:',
      `  ghcr.io/acme/defs: {tag: 1.4.0, digest: "sha256:${'a'.repeat(64)}"}`,
      '  oci://ghcr.io/acme/other: {tag: 1.4.0, digest: "sha256:abc", file: x.yaml}',
      '  oci://ghcr.io/acme/third: {range: "^1"}',
      'definitions: {}',
      'profiles: {}',
      '',
    ].join('\n');
    const read = readLockfileText('kurel.lock.yaml', text);
    expect(read.lock).toBeUndefined();
    expect(read.diagnostics.map((d) => [d.code, d.line, d.column, d.path, d.message])).toEqual([
      [
        'invalid-key',
        5,
        3,
        '/sources/ghcr.io~1acme~1defs',
        'invalid key "ghcr.io/acme/defs": expected a source reference (oci://…) as the definitions entry writes it',
      ],
      [
        'invalid-value',
        6,
        50,
        '/sources/oci:~1~1ghcr.io~1acme~1other/digest',
        'sources.oci://ghcr.io/acme/other.digest must be sha256: followed by 64 lowercase hex digits, found string "sha256:abc"',
      ],
      [
        'unknown-field',
        6,
        64,
        '/sources/oci:~1~1ghcr.io~1acme~1other/file',
        'unknown field "file" in sources.oci://ghcr.io/acme/other (allowed: range, tag, digest)',
      ],
      ['missing-required', 7, 3, '/sources/oci:~1~1ghcr.io~1acme~1third/tag', 'sources.oci://ghcr.io/acme/third.tag is required'],
      ['missing-required', 7, 3, '/sources/oci:~1~1ghcr.io~1acme~1third/digest', 'sources.oci://ghcr.io/acme/third.digest is required'],
    ]);
  });
});
