import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { parseOciReference, resolveTagRange } from '../../src/registry/index.js';
import { propertyRuns } from '../helpers/property.js';

describe('oci:// references (docs/registries.md, "References")', () => {
  it.each([
    ['oci://ghcr.io/acme/defs:1.4.0', { registry: 'ghcr.io', repository: 'acme/defs', tag: '1.4.0', range: null, digest: null }],
    ['oci://ghcr.io/acme/defs:v1.4.0', { tag: 'v1.4.0', range: null }],
    ['oci://localhost:5000/acme/defs:^1.2', { registry: 'localhost:5000', tag: null, range: '^1.2' }],
    ['oci://ghcr.io/acme/defs:~1.4', { tag: null, range: '~1.4' }],
    ['oci://ghcr.io/acme/defs:>=1.0 <2', { tag: null, range: '>=1.0 <2' }],
    ['oci://ghcr.io/acme/defs:1.x', { tag: null, range: '1.x' }],
    ['oci://ghcr.io/acme/defs:1.2', { tag: null, range: '1.2' }],
    ['oci://ghcr.io/acme/defs:stable', { tag: 'stable', range: null }],
    ['oci://ghcr.io/acme/defs', { tag: null, range: null, digest: null }],
    [`oci://[::1]:5000/defs@sha256:${'a'.repeat(64)}`, { registry: '[::1]:5000', repository: 'defs', digest: `sha256:${'a'.repeat(64)}` }],
  ])('reads %s', (text, expected) => {
    expect(parseOciReference(text)).toMatchObject({ text, ...expected });
  });

  it.each([
    ['ghcr.io/acme/defs:1.0.0', '"ghcr.io/acme/defs:1.0.0" is not an OCI reference: expected oci://HOST[:PORT]/REPOSITORY[:TAG|:RANGE|@sha256:DIGEST]'],
    ['oci://ghcr.io', '"oci://ghcr.io" names no repository: expected oci://HOST[:PORT]/REPOSITORY[:TAG|:RANGE|@sha256:DIGEST]'],
    ['oci://ghcr.io/Acme/defs', '"oci://ghcr.io/Acme/defs" has an invalid repository "Acme/defs": lowercase letters, digits and separators (. _ - /)'],
    ['oci://ghcr.io/acme/defs@sha256:abc', '"oci://ghcr.io/acme/defs@sha256:abc" has an invalid digest: expected @sha256: and 64 lowercase hex digits'],
    ['oci://ghcr.io/acme/defs:', '"oci://ghcr.io/acme/defs:" has neither a tag nor a SemVer range after the colon: ""'],
    ['oci://ghcr.io/acme/defs:^1 $(rm)', '"oci://ghcr.io/acme/defs:^1 $(rm)" has neither a tag nor a SemVer range after the colon: "^1 $(rm)"'],
    ['oci://bad host/defs', '"oci://bad host/defs" has no valid registry host ("bad host"): expected oci://HOST[:PORT]/REPOSITORY[:TAG|:RANGE|@sha256:DIGEST]'],
  ])('refuses %s', (text, error) => {
    expect(parseOciReference(text)).toEqual({ error });
  });
});

describe('SemVer ranges over tags, as Helm and Flux resolve them', () => {
  const TAGS = ['0.9.0', '1.0.0', 'v1.1.0', '1.2.0-rc.1', '1.1.5', 'latest', '2.0.0-beta.1', 'sha-abc123', '1.1.5-rc.1'];

  it.each([
    ['^1', '1.1.5'],
    ['<1.1.5', 'v1.1.0'],
    ['~1.1', '1.1.5'],
    ['>=1.0 <2', '1.1.5'],
    ['1.x', '1.1.5'],
    ['^1.2.0-0', '1.2.0-rc.1'],
    ['>=2.0.0-0', '2.0.0-beta.1'],
    ['^3', undefined],
    [null, '1.1.5'],
  ])('resolves %s to %s', (range, tag) => {
    expect(resolveTagRange(TAGS, range)).toBe(tag);
  });

  it('prefers the tag without v when both name one version', () => {
    expect(resolveTagRange(['v1.0.0', '1.0.0'], '^1')).toBe('1.0.0');
    expect(resolveTagRange(['1.0.0', 'v1.0.0'], '^1')).toBe('1.0.0');
  });

  it('for every set of release and prerelease tags and a range without a prerelease: the highest release that matches', () => {
    const version = fc
      .tuple(fc.nat(4), fc.nat(4), fc.nat(4), fc.option(fc.constantFrom('rc.1', 'beta.2', 'alpha'), { nil: undefined }))
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre}` : ''}`);
    const range = fc.tuple(fc.constantFrom('^', '~', '>=', ''), fc.nat(4), fc.nat(4)).map(([op, a, b]) => `${op}${a}.${b}`);
    fc.assert(
      fc.property(fc.uniqueArray(version, { maxLength: 12 }), range, (tags, wanted) => {
        const expected = semver.maxSatisfying(
          tags.filter((t) => semver.prerelease(t) === null),
          wanted,
        );
        expect(resolveTagRange(tags, wanted) ?? null).toBe(expected);
      }),
      { numRuns: propertyRuns(400) },
    );
  });
});
