import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { setOwn } from '../../src/core/data.js';
import type { Rendering } from '../../src/schema/handler.js';

// DESIGN §7.3: a rendering handed to a plugin has no prototype and no `__proto__` key at any
// depth, so a careless plugin cannot inherit what the profile wrote there.
describe('renderings handed to a plugin', () => {
  const seen: unknown[] = [];
  const catalogue = createCatalogue().withHandlers([
    {
      source: 'plugin:./careless.mjs',
      handler: {
        type: 'careless',
        description: 'copies what it is handed the careless way',
        capabilityAware: false,
        validateAndApplyDefaults(rendering: Readonly<Rendering>) {
          seen.push(rendering);
          const copy: Record<string, unknown> = {};
          for (const key in rendering) copy[key] = rendering[key];
          return { rendering: { copied: Object.assign({}, rendering), looped: copy }, issues: [] };
        },
      },
    },
  ]);

  const hostile = (): Rendering => {
    const inner: Record<string, unknown> = { kept: 1 };
    setOwn(inner, '__proto__', { polluted: 'inner' });
    const rendering: Record<string, unknown> = { name: 'web', nested: inner, list: [inner] };
    setOwn(rendering, '__proto__', { polluted: 'outer' });
    return rendering;
  };

  it('has no prototype and no __proto__ key, at any depth', () => {
    seen.length = 0;
    catalogue.validateRendering('careless', hostile());
    const rendering = seen[0] as Record<string, Record<string, unknown> & unknown[]>;
    expect(Object.getPrototypeOf(rendering)).toBeNull();
    expect(Reflect.ownKeys(rendering)).toEqual(['name', 'nested', 'list']);
    expect(Object.getPrototypeOf(rendering['nested'])).toBeNull();
    expect(Reflect.ownKeys(rendering['nested']!)).toEqual(['kept']);
    expect(Object.getPrototypeOf((rendering['list'] as unknown[])[0])).toBeNull();
  });

  it('cannot be copied into an object that inherits from the input', () => {
    const { result } = catalogue.validateRendering('careless', hostile());
    const copied = result.rendering['copied'] as Record<string, unknown>;
    const looped = result.rendering['looped'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(looped)).toBe(Object.prototype);
    expect(copied['polluted']).toBeUndefined();
    expect(looped['polluted']).toBeUndefined();
  });

  it('leaves the rendering a built-in handler sees as the profile wrote it', () => {
    const { result } = createCatalogue().validateRendering('ingress', hostile());
    expect(Object.hasOwn(result.rendering, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(result.rendering)).toBe(Object.prototype);
  });
});
