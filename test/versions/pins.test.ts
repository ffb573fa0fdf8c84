import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../helpers/property.js';
import { definitionText, lintWith, pinnedOf, profileText, REDIS_VERSIONS } from './helpers.js';

const at = (code: string, line: number, column: number, path: string, severity = 'error') => ({ code, severity, file: 'cluster.yaml', line, column, path });
const lintProfile = (bindings: Record<string, string | undefined>, options = {}, definitions: Record<string, string> = REDIS_VERSIONS) =>
  lintWith(definitions, { 'cluster.yaml': profileText(bindings) }, options);
const resolvedOf = (report: ReturnType<typeof lintWith>) => report.files.find((f) => f.path === 'cluster.yaml')?.resolved;

describe('a binding pinned to a version (docs/versions.md)', () => {
  it.each([
    ['"1.0.0"', '1.0.0', { image: 'redis:7', maxMemory: '256Mi' }],
    ['"1"', '1.1.0', { image: 'redis:7', maxMemory: '256Mi', port: 6379 }],
    ['"1.0"', '1.0.0', { image: 'redis:7', maxMemory: '256Mi' }],
    ['"^1.0.0"', '1.1.0', { image: 'redis:7', maxMemory: '256Mi', port: 6379 }],
    ['"~1.0.0"', '1.0.0', { image: 'redis:7', maxMemory: '256Mi' }],
    ['">=1.0 <2"', '1.1.0', { image: 'redis:7', maxMemory: '256Mi', port: 6379 }],
    ['2.0.0-rc.1', '2.0.0-rc.1', { image: 'redis:7', memoryLimit: '1Gi' }],
    ['"^2.0.0-rc.0"', '2.0.0-rc.1', { image: 'redis:7', memoryLimit: '1Gi' }],
    [undefined, '1.1.0', { image: 'redis:7', maxMemory: '256Mi', port: 6379 }],
  ])('resolves %s to %s and applies that version’s defaults', (pin, version, rendering) => {
    const report = lintProfile({ 'redis-sidecar': pin });
    expect(pinnedOf(report)).toEqual([]);
    expect(resolvedOf(report)).toEqual({ gitopsEngine: 'fluxcd', capabilities: { 'redis-sidecar': rendering }, versions: { 'redis-sidecar': version } });
  });

  it('resolves a scoped key by its type, and lists every binding of a versioned definition in versions', () => {
    const report = lintProfile({ 'redis-sidecar': '"1.0.0"', 'redis-sidecar.cache': '"1"' });
    expect(resolvedOf(report)?.versions).toEqual({ 'redis-sidecar': '1.0.0', 'redis-sidecar.cache': '1.1.0' });
  });

  it('reports version-not-found at the version value, naming the pin and every version', () => {
    const report = lintProfile({ 'redis-sidecar': '"~2.1"' });
    expect(pinnedOf(report)).toEqual([at('version-not-found', 8, 16, '/spec/capabilities/redis-sidecar/version')]);
    expect(report.diagnostics[0]!.message).toBe('capability "redis-sidecar": redis-sidecar has 1.0.0, 1.1.0, 2.0.0-rc.1; none matches ~2.1');
    expect(resolvedOf(report)).toBeUndefined();
  });

  it('chooses a prerelease only when the pin asks for one', () => {
    expect(pinnedOf(lintProfile({ 'redis-sidecar': '"2"' }))).toEqual([at('version-not-found', 8, 16, '/spec/capabilities/redis-sidecar/version')]);
    expect(pinnedOf(lintProfile({ 'redis-sidecar': '">=1.1"' }))).toEqual([]);
    expect(resolvedOf(lintProfile({ 'redis-sidecar': '">=1.1"' }))?.versions).toEqual({ 'redis-sidecar': '1.1.0' });
  });

  it.each([
    ['2.1', '2.1'],
    ['1.10', '1.10'],
    ['1', '1'],
  ])('reports a pin written as the number %s as wrong-type with the hint quoting it as written', (pin, written) => {
    const report = lintProfile({ 'redis-sidecar': pin });
    expect(pinnedOf(report)).toEqual([at('wrong-type', 8, 16, '/spec/capabilities/redis-sidecar/version')]);
    expect(report.diagnostics[0]!.hint).toBe(`quote it: "${written}"`);
  });

  it.each([
    ['v1.2.0', 'write 1.2.0'],
    ['"1.2.3.4"', undefined],
    ['"^"', undefined],
    ['latest', undefined],
    ['""', 'to use the highest release, omit version'],
    ['"*"', undefined],
    ['">=0"', 'to use the highest release, omit version'],
    [`"${'1'.repeat(10_000)}"`, undefined],
  ])('reports the pin %s as invalid-value at the value, and validates nothing more of the binding', (pin, hint) => {
    const report = lintProfile({ 'redis-sidecar': pin });
    expect(pinnedOf(report)).toEqual([at('invalid-value', 8, 16, '/spec/capabilities/redis-sidecar/version')]);
    expect(report.diagnostics[0]!.hint).toBe(hint);
  });

  it('reports a pinned binding of an unknown type as unknown-capability only', () => {
    expect(pinnedOf(lintProfile({ 'redis-sidecarr': '"9"' }))).toEqual([at('unknown-capability', 7, 5, '/spec/capabilities/redis-sidecarr', 'warning')]);
  });

  it('holds a pin on a built-in to its handler’s one version', () => {
    const expose = (pin: string) =>
      lintWith(
        {},
        { 'cluster.yaml': profileText({}).concat(`    expose:\n      version: ${pin}\n      rendering: {controllerType: ingress, ingressClassName: nginx}\n`) },
      );
    expect(pinnedOf(expose('"1"'))).toEqual([]);
    expect(resolvedOf(expose('"1"'))?.versions).toEqual({});
    const report = expose('"^2"');
    expect(pinnedOf(report)).toEqual([at('version-not-found', 8, 16, '/spec/capabilities/expose/version')]);
    expect(report.diagnostics[0]!.message).toBe('capability "expose": expose has 1.0.0; none matches ^2');
  });

  it('reports a pin on an unversioned definition as version-not-found', () => {
    const report = lintProfile({ cache: '"1"' }, {}, { 'defs/cache.yaml': definitionText('cache', undefined) });
    expect(pinnedOf(report)).toEqual([at('version-not-found', 8, 16, '/spec/capabilities/cache/version')]);
    expect(report.diagnostics[0]!.message).toBe('capability "cache": cache has no versions (its definition is unversioned); none matches 1');
  });
});

describe('--require-pinned (docs/versions.md)', () => {
  it('reports an unpinned binding of a versioned definition as unpinned-capability at its key', () => {
    const report = lintProfile({ 'redis-sidecar': undefined, 'redis-sidecar.cache': '"1"' }, { requirePinned: true });
    expect(pinnedOf(report)).toEqual([at('unpinned-capability', 7, 5, '/spec/capabilities/redis-sidecar')]);
    expect(report.diagnostics[0]!.hint).toBe('add version: "1.1" to stay on 1.1.0');
  });

  it('asks nothing of built-ins and unversioned definitions', () => {
    const profile = `${profileText({ cache: undefined })}    expose:\n      rendering: {controllerType: ingress, ingressClassName: nginx}\n`;
    const report = lintWith({ 'defs/cache.yaml': definitionText('cache', undefined) }, { 'cluster.yaml': profile }, { requirePinned: true });
    expect(pinnedOf(report)).toEqual([]);
  });
});

describe('deprecated versions (docs/versions.md)', () => {
  const deprecated = {
    ...REDIS_VERSIONS,
    'defs/redis-sidecar-1.1.0.yaml': REDIS_VERSIONS['defs/redis-sidecar-1.1.0.yaml']!.replace(
      '  version: 1.1.0\n',
      '  version: 1.1.0\n  deprecation: use 2.0.0\n',
    ),
  };

  it('warns version-deprecated at the version value, with the note', () => {
    const report = lintProfile({ 'redis-sidecar': '"1.1"' }, {}, deprecated);
    expect(pinnedOf(report)).toEqual([at('version-deprecated', 8, 16, '/spec/capabilities/redis-sidecar/version', 'warning')]);
    expect(report.diagnostics[0]!.message).toBe('capability "redis-sidecar": redis-sidecar 1.1.0 is deprecated: use 2.0.0');
  });

  it('still resolves an unpinned binding to the deprecated highest release, warning at its key', () => {
    const report = lintProfile({ 'redis-sidecar': undefined }, {}, deprecated);
    expect(pinnedOf(report)).toEqual([at('version-deprecated', 7, 5, '/spec/capabilities/redis-sidecar', 'warning')]);
    expect(resolvedOf(report)?.versions).toEqual({ 'redis-sidecar': '1.1.0' });
  });
});

describe('resolution never depends on the order files are loaded', () => {
  it('gives the same diagnostics and versions for the same folder in any file order', () => {
    const files: [string, string][] = [
      ...Object.entries(REDIS_VERSIONS),
      ['defs/z-dup.yaml', REDIS_VERSIONS['defs/redis-sidecar-1.0.0.yaml']!.replace('Injects', 'Adds')],
      ['defs/cache-1.yaml', definitionText('cache', '1.0.0')],
      ['defs/cache-2.yaml', definitionText('cache', '2.0.0')],
    ];
    const profile = { 'cluster.yaml': profileText({ 'redis-sidecar': '"1"', 'redis-sidecar.x': undefined, cache: '"^1"', 'cache.y': '"3"' }) };
    const expected = lintWith(files, profile);
    expect(expected.diagnostics.map((d) => d.code).sort()).toEqual(['definition-duplicate', 'version-not-found']);
    fc.assert(
      fc.property(fc.shuffledSubarray(files, { minLength: files.length, maxLength: files.length }), (order) => {
        const report = lintWith(order, profile);
        expect(report.diagnostics).toEqual(expected.diagnostics);
        expect(report.profiles).toEqual(expected.profiles);
        expect(report.catalogue.listDefinitions().map((d) => [d.name, d.version, d.file, d.digest])).toEqual(
          expected.catalogue.listDefinitions().map((d) => [d.name, d.version, d.file, d.digest]),
        );
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});
