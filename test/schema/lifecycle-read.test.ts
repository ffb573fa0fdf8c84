import { describe, expect, it } from 'vitest';
import { readLifecycle } from '../../src/schema/lifecycle.js';
import { layerPlatforms } from '../../src/schema/platform-version.js';

// docs/performance.md: a frozen schema's lifecycle is read once; a platform no layer names is one shared empty platform.
describe('reading lifecycles and platforms once', () => {
  it('reads the lifecycle of a frozen schema once, and gives it frozen', () => {
    const node = Object.freeze({ type: 'string', introducedIn: '1.29', deprecatedIn: 'kubernetes 1.31', deprecationNote: 'use b' });
    const first = readLifecycle(node);
    expect(first).toEqual({ component: 'kubernetes', bounds: { introduced: '1.29', deprecated: '1.31' }, note: 'use b' });
    expect(readLifecycle(node)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.bounds)).toBe(true);
    expect(readLifecycle(Object.freeze({ type: 'string' }))).toBeUndefined();
  });

  it('reads a schema that may still change each time it is asked', () => {
    const node: Record<string, unknown> = { introducedIn: '1.29' };
    const first = readLifecycle(node);
    expect(first).toEqual({ component: 'kubernetes', bounds: { introduced: '1.29' } });
    node['removedIn'] = '1.33';
    expect(readLifecycle(node)).toEqual({ component: 'kubernetes', bounds: { introduced: '1.29', removed: '1.33' } });
    expect(readLifecycle(node)).not.toBe(first);
  });

  it('layers platforms that name no component into one shared frozen empty platform', () => {
    const empty = layerPlatforms(undefined, {}, undefined);
    expect(empty).toEqual({});
    expect(Object.isFrozen(empty)).toBe(true);
    expect(layerPlatforms({}, undefined)).toBe(empty);
    const layered = layerPlatforms({ kubernetes: '1.29' }, {}, { kubernetes: '1.31', istio: '1.20' });
    expect(layered).toEqual({ kubernetes: '1.31', istio: '1.20' });
    expect(Object.isFrozen(layered)).toBe(true);
    expect(layerPlatforms({ kubernetes: '1.29' })).not.toBe(layerPlatforms({ kubernetes: '1.29' }));
  });
});
