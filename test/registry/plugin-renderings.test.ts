import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { setOwn } from '../../src/core/data.js';
import { lintInputs } from '../../src/operations/lint.js';
import type { Rendering, RenderingResult } from '../../src/schema/handler.js';

// Issue #10, item 15 (docs/service.md): a rendering handed to a plugin is a plain copy with a null
// prototype and no own `__proto__` key, at every level, so a careless plugin that copies it with
// `Object.assign` or a `for … in` loop cannot inherit properties the profile chose.
const seen: Rendering[] = [];
const careless = {
  type: 'careless',
  description: 'copies its rendering the careless way',
  capabilityAware: false,
  validateAndApplyDefaults(rendering: Readonly<Rendering>): RenderingResult {
    seen.push(rendering as Rendering);
    const merged = Object.assign({}, rendering) as Record<string, unknown>;
    const nested: Record<string, unknown> = {};
    for (const key in rendering['nested'] as object) nested[key] = (rendering['nested'] as Record<string, unknown>)[key];
    return { rendering: { name: merged['name'], mergedIsAdmin: merged['isAdmin'] === true, nestedIsAdmin: nested['isAdmin'] === true }, issues: [] };
  },
};

const PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  capabilities:
    careless:
      rendering:
        __proto__: {isAdmin: true}
        name: web
        nested: {__proto__: {isAdmin: true}, list: [{__proto__: {isAdmin: true}, kept: 1}]}
`;

describe('renderings handed to a plugin', () => {
  const catalogue = createCatalogue({ handlers: [{ handler: careless, source: 'plugin:careless' }] });
  const report = lintInputs([{ file: 'cluster.yaml', content: PROFILE, origin: 'argument' }], catalogue);

  it('cannot lend a careless plugin properties the profile chose', () => {
    expect(report.diagnostics).toEqual([]);
    expect(report.files[0]?.resolved?.capabilities['careless']).toEqual({ name: 'web', mergedIsAdmin: false, nestedIsAdmin: false });
  });

  it('are null-prototype copies without an own __proto__ key, at every level', () => {
    const rendering = seen[0]!;
    const nested = rendering['nested'] as Record<string, unknown>;
    const item = (nested['list'] as Record<string, unknown>[])[0]!;
    expect([rendering, nested, item].map((map) => [Object.getPrototypeOf(map), Object.hasOwn(map, '__proto__')])).toEqual([
      [null, false],
      [null, false],
      [null, false],
    ]);
    expect({ ...rendering, nested: { ...nested, list: [{ ...item }] } }).toEqual({ name: 'web', nested: { list: [{ kept: 1 }] } });
  });
});

describe('renderings handed to a built-in handler', () => {
  it('are the data as the profile wrote it: kurel reads its own __proto__ keys as data', () => {
    const rendering: Record<string, unknown> = { host: 'example.com' };
    setOwn(rendering, '__proto__', { isAdmin: true });
    const { result } = createCatalogue().validateRendering('ingress', rendering);
    expect([Object.hasOwn(result.rendering, '__proto__'), Object.getPrototypeOf(result.rendering)]).toEqual([true, Object.prototype]);
  });
});
