import { describe, expect, it } from 'vitest';
import { convertRendering, migrationChain, traceToFirst } from '../../src/operations/convert-rendering.js';
import { catalogueOf, chainOf, definitionFiles } from './helpers.js';

// Three versions: 2.0.0 renames maxMemory to memoryLimit and tls.on to tls.enabled, drops
// legacy; 3.0.0 renames memoryLimit to memory and adds a required-with-default-free port.
const CATALOGUE = catalogueOf(
  definitionFiles({
    '1.0.0': [
      'image: {type: string, required: true}',
      'maxMemory: {type: string, default: 256Mi}',
      'legacy: {type: boolean}',
      'tls: {type: object, properties: {on: {type: boolean, default: false}}}',
      'sidecars: {type: array, items: {type: object, properties: {cpu: {type: string}}}}',
      'labels: {type: object, additionalProperties: true}',
    ],
    '2.0.0-rc.1': ['image: {type: string, required: true}', 'memoryLimit: {type: string, renamedFrom: maxMemory}'],
    '2.0.0': [
      'image: {type: string, required: true}',
      'memoryLimit: {type: string, default: 512Mi, renamedFrom: maxMemory}',
      'tls: {type: object, properties: {enabled: {type: boolean, default: false, renamedFrom: "on"}}}',
      'sidecars: {type: array, items: {type: object, properties: {cores: {type: string, renamedFrom: cpu}}}}',
      'labels: {type: object, additionalProperties: true}',
      'port: {type: integer, default: 6379}',
    ],
    '3.0.0': [
      'image: {type: string, required: true}',
      'memory: {type: string, default: 512Mi, renamedFrom: memoryLimit}',
      'tls: {type: object, properties: {enabled: {type: boolean, default: false}}}',
      'sidecars: {type: array, items: {type: object, properties: {cores: {type: string}}}}',
      'labels: {type: object, additionalProperties: true}',
      'port: {type: integer, default: 6379}',
    ],
  }),
);
const VERSIONS = ['1.0.0', '2.0.0-rc.1', '2.0.0', '3.0.0'];

describe('migrationChain', () => {
  it.each([
    ['1.0.0', '3.0.0', ['1.0.0', '2.0.0', '3.0.0']],
    ['3.0.0', '1.0.0', ['3.0.0', '2.0.0', '1.0.0']],
    ['1.0.0', '2.0.0-rc.1', ['1.0.0', '2.0.0-rc.1']],
    ['2.0.0-rc.1', '3.0.0', ['2.0.0-rc.1', '2.0.0', '3.0.0']],
    ['2.0.0', '2.0.0', ['2.0.0']],
  ])('steps from %s to %s through the releases between them', (from, to, chain) => {
    expect(migrationChain(VERSIONS, from, to)).toEqual(chain);
  });
});

describe('convertRendering', () => {
  const written = {
    image: 'redis:7',
    maxMemory: '1Gi',
    tls: { on: true },
    sidecars: [{ cpu: '100m' }, { cpu: '200m', extra: 1 }],
    labels: { team: 'cache' },
  };

  it('renames keys step by step, at every depth and in every list item, and lists what each step did', () => {
    const conversion = convertRendering(written, chainOf(CATALOGUE, ['1.0.0', '2.0.0', '3.0.0']));
    expect(conversion.rendering).toEqual({
      image: 'redis:7',
      memory: '1Gi',
      tls: { enabled: true },
      sidecars: [{ cores: '100m' }, { cores: '200m', extra: 1 }],
      labels: { team: 'cache' },
    });
    expect(conversion.steps).toEqual([
      {
        from: '1.0.0',
        to: '2.0.0',
        renamed: [
          { from: ['maxMemory'], to: ['memoryLimit'] },
          { from: ['tls', 'on'], to: ['tls', 'enabled'] },
          { from: ['sidecars', 0, 'cpu'], to: ['sidecars', 0, 'cores'] },
          { from: ['sidecars', 1, 'cpu'], to: ['sidecars', 1, 'cores'] },
        ],
        dropped: [],
        defaulted: [{ path: ['port'], value: 6379 }],
      },
      { from: '2.0.0', to: '3.0.0', renamed: [{ from: ['memoryLimit'], to: ['memory'] }], dropped: [], defaulted: [] },
    ]);
    expect(conversion.renames).toEqual([
      { path: ['maxMemory'], to: 'memory' },
      { path: ['tls', 'on'], to: 'enabled' },
      { path: ['sidecars', 0, 'cpu'], to: 'cores' },
      { path: ['sidecars', 1, 'cpu'], to: 'cores' },
    ]);
    expect(conversion.drops).toEqual([]);
    expect(conversion.originalPath(['memory'])).toEqual(['maxMemory']);
    expect(conversion.originalPath(['sidecars', '1', 'cores'])).toEqual(['sidecars', 1, 'cpu']);
    expect(conversion.originalPath(['tls', 'missing', 'x'])).toEqual(['tls', 'missing', 'x']);
  });

  it('renames back on the way down, and drops what the older version lacks', () => {
    const up = convertRendering({ ...written, legacy: true }, chainOf(CATALOGUE, ['1.0.0', '2.0.0', '3.0.0']));
    expect(up.drops).toEqual([{ path: ['legacy'], value: true, from: '1.0.0', to: '2.0.0' }]);
    const down = convertRendering({ image: 'redis:7', memory: '1Gi', port: 6380, tls: { enabled: true } }, chainOf(CATALOGUE, ['3.0.0', '2.0.0', '1.0.0']));
    expect(down.rendering).toEqual({ image: 'redis:7', maxMemory: '1Gi', tls: { on: true } });
    expect(down.renames).toEqual([
      { path: ['memory'], to: 'maxMemory' },
      { path: ['tls', 'enabled'], to: 'on' },
    ]);
    expect(down.drops).toEqual([{ path: ['port'], value: 6380, from: '2.0.0', to: '1.0.0' }]);
    expect(down.steps[1]!.defaulted).toEqual([]);
  });

  it('gives back the rendering as written after going up and down again, when nothing is dropped', () => {
    const up = convertRendering(written, chainOf(CATALOGUE, ['1.0.0', '2.0.0', '3.0.0']));
    const down = convertRendering(up.rendering, chainOf(CATALOGUE, ['3.0.0', '2.0.0', '1.0.0']));
    expect(down.rendering).toEqual(written);
    expect(JSON.stringify(down.rendering)).toBe(JSON.stringify(written));
  });

  it('reports a key inside a dropped key only with it, and keeps keys no version declares', () => {
    const chain = chainOf(CATALOGUE, ['2.0.0', '1.0.0']);
    const conversion = convertRendering({ image: 'x', port: 1, unknown: { a: 1 } }, chain);
    expect(conversion.rendering).toEqual({ image: 'x', unknown: { a: 1 } });
    expect(conversion.drops).toEqual([{ path: ['port'], value: 1, from: '2.0.0', to: '1.0.0' }]);
  });

  it('is the identity on a chain of one version, and never changes its input', () => {
    const input = structuredClone(written);
    const conversion = convertRendering(input, chainOf(CATALOGUE, ['2.0.0']));
    expect(conversion).toMatchObject({ rendering: written, steps: [], renames: [], drops: [] });
    expect(input).toEqual(written);
    const renamed = convertRendering(input, chainOf(CATALOGUE, ['1.0.0', '2.0.0']));
    expect(renamed.rendering).not.toBe(input);
    expect(input).toEqual(written);
  });

  it('takes a prerelease that already has the new name as it is', () => {
    const conversion = convertRendering({ image: 'x', memoryLimit: '1Gi' }, chainOf(CATALOGUE, ['2.0.0-rc.1', '2.0.0']));
    expect(conversion).toMatchObject({ rendering: { image: 'x', memoryLimit: '1Gi' }, renames: [], drops: [] });
  });
});

describe('traceToFirst', () => {
  it('follows a property back through every rename to the first version of the chain', () => {
    const chain = chainOf(CATALOGUE, ['1.0.0', '2.0.0', '3.0.0']);
    expect(traceToFirst(chain, [{ property: 'memory' }])).toMatchObject({ type: 'string', default: '256Mi' });
    expect(traceToFirst(chain, [{ property: 'tls' }, { property: 'enabled' }])).toMatchObject({ type: 'boolean', default: false });
    expect(traceToFirst(chain, [{ property: 'sidecars' }, { items: true }, { property: 'cores' }])).toMatchObject({ type: 'string' });
    expect(traceToFirst(chain, [{ property: 'port' }])).toBeUndefined();
    expect(traceToFirst(chainOf(CATALOGUE, ['3.0.0', '2.0.0', '1.0.0']), [{ property: 'maxMemory' }])).toMatchObject({ default: '512Mi' });
  });
});
