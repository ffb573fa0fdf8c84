import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LockData, readLock, writeLockText } from '../../src/documents/capability-lock.js';
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
const lockData = fc.record({
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
});
