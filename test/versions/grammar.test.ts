import fc from 'fast-check';
import valid from 'semver/functions/valid.js';
import { describe, expect, it } from 'vitest';
import { isDefinitionVersion, latestVersion, refuseDefinitionVersion, refusePin, resolvePin } from '../../src/core/versions.js';
import { propertyRuns } from '../helpers/property.js';

describe('the grammar of a definition version (docs/versions.md)', () => {
  it.each(['1.2.0', '0.0.1', '2.0.0-rc.1', '10.20.30', '1.0.0-alpha.beta.1'])('accepts %s', (version) => {
    expect(refuseDefinitionVersion(version)).toBeUndefined();
  });

  it.each([
    ['v1.2.0', 'write 1.2.0'],
    [' 1.2.0 ', 'write 1.2.0'],
    ['1.2', undefined],
    ['1.2.0+a', undefined],
    ['1.2.3.4', undefined],
    ['^', undefined],
    ['latest', undefined],
    ['', undefined],
    ['01.2.3', undefined],
    ['x'.repeat(10_000), undefined],
  ])('refuses %j', (version, hint) => {
    const refusal = refuseDefinitionVersion(version);
    expect(refusal?.hint).toBe(hint);
    expect(refusal?.reason).toMatch(/^version must be a SemVer version MAJOR\.MINOR\.PATCH/);
  });

  it('keeps a message short for a 10,000-character version', () => {
    expect(refuseDefinitionVersion('1'.repeat(10_000))!.reason.length).toBeLessThan(300);
  });

  // Plain releases are accepted without loading semver (the built-ins' versions, at every start).
  it('accepts exactly what semver prints as written, without build metadata, for any text', () => {
    const part = fc.oneof(fc.nat(), fc.constantFrom('0', '00', '01', '9007199254740991', '9007199254740992', '123456789012345', '1234567890123456'));
    const versionLike = fc
      .tuple(part, part, part, fc.constantFrom('', '-rc.1', '-0a', '-01', '+b', ' ', '.0'), fc.constantFrom('', 'v', '='))
      .map(([a, b, c, tail, lead]) => `${lead}${a}.${b}.${c}${tail}`);
    fc.assert(
      fc.property(fc.oneof(versionLike, fc.string()), (text) => {
        expect(isDefinitionVersion(text)).toBe(text.length <= 256 && !text.includes('+') && valid(text) === text);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

describe('the grammar of a pin (docs/versions.md)', () => {
  it.each(['2.1.3', '2.1', '2', '^2.1.0', '~2.1.3', '>=2.1 <3', '1.0.0 - 2.0.0', '^1.1 || ^2', '2.x', '2.1.*', '2.0.0-rc.1', '<3', '^0'])(
    'accepts %j',
    (pin) => {
      expect(refusePin(pin)).toBeUndefined();
    },
  );

  it.each([
    ['v2.1', 'write 2.1'],
    ['^v2', 'write ^2'],
    ['=2.1', 'write 2.1'],
    ['==2.1', 'write 2.1'],
    ['~=2.1', undefined],
    ['latest', undefined],
    ['X', undefined],
    [' 2.1', 'write 2.1'],
    ['2.1+build', undefined],
    ['1.2.3.4', undefined],
    ['^', undefined],
    ['>=2.1  <3', undefined],
    ['x'.repeat(10_000), undefined],
  ])('refuses %j', (pin, hint) => {
    const refusal = refusePin(pin);
    expect(refusal?.reason).toMatch(/^version must be an exact version \(2\.1\.3\), a partial one/);
    expect(refusal?.hint).toBe(hint);
  });

  it('refuses an empty pin, telling how to float', () => {
    expect(refusePin('')).toEqual({
      reason: 'version must be an exact version (2.1.3), a partial one (2.1, 2) or a range (^2.1.0, ~2.1.3, ">=2.1 <3"), found an empty string',
      hint: 'to use the highest release, omit version',
    });
  });

  it.each(['*', 'x', 'x.x', '>=0', '>=0.0.0', '>=0.0.0-0'])('refuses %j, which every version satisfies', (pin) => {
    const refusal = refusePin(pin);
    expect(refusal?.hint).toBe(pin === '*' || pin.startsWith('x') ? undefined : 'to use the highest release, omit version');
    expect(refusal).toBeDefined();
  });
});

const AVAILABLE = ['1.0.0', '1.4.2', '2.0.0', '2.1.0', '2.1.3', '3.0.0-rc.1'];

describe('resolving a pin (docs/versions.md)', () => {
  it.each([
    ['2.1.3', '2.1.3'],
    ['2.1', '2.1.3'],
    ['2', '2.1.3'],
    ['^2.1.0', '2.1.3'],
    ['~2.1.0', '2.1.3'],
    ['>=2.1 <3', '2.1.3'],
    ['1', '1.4.2'],
    ['3.0.0-rc.1', '3.0.0-rc.1'],
    ['^3.0.0-rc.0', '3.0.0-rc.1'],
    ['3', undefined],
    ['>=2.2', undefined],
    ['2.1.4', undefined],
    [undefined, '2.1.3'],
  ])('resolves %j to %j', (pin, version) => {
    expect(resolvePin(AVAILABLE, pin)).toBe(version);
  });

  it('resolves an unpinned binding to the highest prerelease when there are only prereleases', () => {
    expect(latestVersion(['2.0.0-rc.1', '2.0.0-beta.3'])).toBe('2.0.0-rc.1');
    expect(latestVersion([])).toBeUndefined();
  });

  it('resolves the same way whatever the order of the versions', () => {
    const version = fc
      .tuple(fc.nat(3), fc.nat(3), fc.nat(3), fc.option(fc.constantFrom('rc.1', 'rc.2', 'beta'), { nil: undefined }))
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre}` : ''}`);
    const pin = fc.option(fc.constantFrom('1', '2.1', '^1.0.0', '~2.1.0', '>=1 <3', '3.0.0-rc.1', '^0.1'), { nil: undefined });
    fc.assert(
      fc.property(fc.uniqueArray(version, { minLength: 1, maxLength: 8 }), pin, fc.infiniteStream(fc.nat()), (versions, p, seeds) => {
        const shuffled = versions.map((v) => [seeds.next().value, v] as const).sort((a, b) => a[0] - b[0]);
        expect(
          resolvePin(
            shuffled.map(([, v]) => v),
            p,
          ),
        ).toBe(resolvePin(versions, p));
      }),
    );
  });
});

describe('versions and pins from any text', () => {
  it('are judged without throwing, and resolve only when accepted', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.stringMatching(/^[<>=~^v ]{0,3}[0-9x*.]{0,8}(-[a-z0-9.]{0,5})?( (\|\| )?[<>=~^]{0,2}[0-9.]{0,6}){0,3}$/),
    );
    fc.assert(
      fc.property(text, (input) => {
        const pinRefusal = refusePin(input);
        if (!pinRefusal) expect(() => resolvePin(AVAILABLE, input)).not.toThrow();
        const versionRefusal = refuseDefinitionVersion(input);
        if (!versionRefusal) expect(resolvePin([input], undefined)).toBe(input);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
