import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  comparePlatformVersions,
  isPlatformVersion,
  layerPlatforms,
  lifecycleVersionHint,
  parseLifecycleVersion,
  parsePlatformSetting,
  parsePlatformSettings,
  platformVersionHint,
  platformVersionOf,
} from '../../src/schema/platform-version.js';

describe('the platform version grammar (docs/platform.md)', () => {
  it.each(['1.30', '1.30.2', '0.1', '10.0.0', '1.0', '123456789012345678901234567890.1'])('accepts %s', (text) => {
    expect(isPlatformVersion(text)).toBe(true);
  });

  it.each(['v1.30', '1.30.2-eks-1', '1', '1.30.2.1', '01.30', '1.030', ' 1.30', '1.30 ', '1..30', '1.30.', '', 'latest', '1.x', '1.30+k3s1'])(
    'refuses %j',
    (text) => {
      expect(isPlatformVersion(text)).toBe(false);
    },
  );

  it.each([
    ['v1.30', 'write 1.30'],
    ['1.30.2-eks-1', 'write 1.30.2'],
    ['V1.29.3', 'write 1.29.3'],
    ['1.30+k3s1', 'write 1.30'],
    ['1.030', 'write 1.30'],
    ['1.30.2.1', 'write 1.30.2'],
    ['1', 'write MAJOR.MINOR or MAJOR.MINOR.PATCH, such as 1.30 or 1.30.2'],
    ['latest', 'write MAJOR.MINOR or MAJOR.MINOR.PATCH, such as 1.30 or 1.30.2'],
  ])('hints at the accepted form of %j', (text, hint) => {
    expect(platformVersionHint(text)).toBe(hint);
  });
});

describe('comparing platform versions', () => {
  it.each([
    ['1.9', '1.10', -1],
    ['1.10', '1.9', 1],
    ['1.30', '1.30.0', 0],
    ['1.30.0', '1.30', 0],
    ['1.30', '1.30.1', -1],
    ['1.29.9', '1.30', -1],
    ['2.0', '1.99.99', 1],
    ['0.9', '0.10', -1],
    ['1.99999999999999999999', '1.99999999999999999998', 1],
  ])('orders %s against %s as %i', (a, b, order) => {
    expect(Math.sign(comparePlatformVersions(a, b))).toBe(order);
  });

  it('orders any two versions as their numbers do, part by part', () => {
    const version = fc.array(fc.nat({ max: 2000 }), { minLength: 2, maxLength: 3 });
    fc.assert(
      fc.property(version, version, (a, b) => {
        const expected = Math.sign([0, 1, 2].map((i) => (a[i] ?? 0) - (b[i] ?? 0)).find((d) => d !== 0) ?? 0);
        expect(Math.sign(comparePlatformVersions(a.join('.'), b.join('.')))).toBe(expected);
      }),
    );
  });
});

describe('COMPONENT=VERSION settings', () => {
  it('reads a component and its version', () => {
    expect(parsePlatformSetting('gateway-api=1.2.0')).toEqual({ ok: true, component: 'gateway-api', version: '1.2.0' });
  });

  it.each([
    ['kubernetes', 'expected COMPONENT=VERSION such as kubernetes=1.29, found "kubernetes"'],
    ['kubernetes=v1.29', 'expected a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2 for kubernetes, found "v1.29"; write 1.29'],
    ['Kubernetes=1.29', 'expected a component name (a DNS-1123 label such as kubernetes or gateway-api) before =, found "Kubernetes"'],
    ['=1.29', 'expected a component name (a DNS-1123 label such as kubernetes or gateway-api) before =, found ""'],
    [
      'kubernetes=',
      'expected a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2 for kubernetes, found ""; write MAJOR.MINOR or MAJOR.MINOR.PATCH, such as 1.30 or 1.30.2',
    ],
  ])('refuses %j, saying why', (text, message) => {
    expect(parsePlatformSetting(text)).toEqual({ ok: false, message });
  });

  it('refuses a component given twice', () => {
    expect(parsePlatformSettings(['kubernetes=1.29', 'kubernetes=1.30'])).toEqual({
      ok: false,
      message: 'kubernetes is given twice (1.29 and 1.30); give each component once',
    });
  });

  it('reads a component named like an Object.prototype member as an own key only', () => {
    const read = parsePlatformSettings(['constructor=1.2']);
    expect(read.ok && platformVersionOf(read.platform, 'constructor')).toBe('1.2');
    expect(platformVersionOf({}, 'constructor')).toBeUndefined();
    expect(platformVersionOf({}, 'toString')).toBeUndefined();
  });

  it('layers platforms, later ones winning per component', () => {
    expect(layerPlatforms({ kubernetes: '1.28', istio: '1.20' }, { kubernetes: '1.29' }, undefined, { 'gateway-api': '1.1' })).toEqual({
      kubernetes: '1.29',
      istio: '1.20',
      'gateway-api': '1.1',
    });
  });
});

describe('lifecycle versions (docs/platform.md)', () => {
  it.each([
    ['1.29', { component: 'kubernetes', version: '1.29' }],
    ['gateway-api 1.1', { component: 'gateway-api', version: '1.1' }],
    ['kubernetes 1.29.1', { component: 'kubernetes', version: '1.29.1' }],
  ])('reads %j', (text, read) => {
    expect(parseLifecycleVersion(text)).toEqual(read);
  });

  it.each([
    ['v1.29', 'write "1.29"'],
    ['1.29.0-alpha', 'write "1.29.0"'],
    ['gateway-api v1.1', 'write "gateway-api 1.1"'],
    ['gateway-api=1.1', 'write "gateway-api 1.1"'],
    ['Gateway-API 1.1', 'write "gateway-api 1.1"'],
    ['Kubernetes 1.29', 'write "1.29"'],
    ['gateway-api  1.1', 'write "gateway-api 1.1"'],
    ['soon', 'write a Kubernetes version such as "1.29", or a component, one space and its version such as "gateway-api 1.1"'],
  ])('refuses %j with the hint %j', (text, hint) => {
    expect(parseLifecycleVersion(text)).toBeUndefined();
    expect(lifecycleVersionHint(text)).toBe(hint);
  });
});
