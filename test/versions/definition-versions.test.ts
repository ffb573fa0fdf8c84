import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { RegistryError } from '../../src/catalogue/errors.js';
import { definitionDigest } from '../../src/documents/definition-digest.js';
import { listCapabilities } from '../../src/operations/list-capabilities.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { definitionText, lintWith, pinnedOf, profileText, REDIS_VERSIONS } from './helpers.js';

const at = (file: string, code: string, line: number, column: number, path: string, severity = 'error') => ({ code, severity, file, line, column, path });

describe('several versions of one definition (docs/versions.md)', () => {
  it('loads every version side by side, ascending, with its file and digest', () => {
    const report = lintWith(REDIS_VERSIONS);
    expect(pinnedOf(report)).toEqual([]);
    expect(report.catalogue.definitionVersions('redis-sidecar').map((d) => [d.version, d.file])).toEqual([
      ['1.0.0', 'defs/redis-sidecar-1.0.0.yaml'],
      ['1.1.0', 'defs/redis-sidecar-1.1.0.yaml'],
      ['2.0.0-rc.1', 'defs/redis-sidecar-2.0.0-rc.1.yaml'],
    ]);
    const listing = listCapabilities(report.catalogue).find((c) => c.type === 'redis-sidecar')!;
    expect(listing.latest).toBe('1.1.0');
    expect(listing.source).toBe('defs/redis-sidecar-1.1.0.yaml');
    expect(listing.versions.map((v) => v.version)).toEqual(['1.0.0', '1.1.0', '2.0.0-rc.1']);
    expect(listing.versions.every((v) => /^sha256:[0-9a-f]{64}$/.test(v.digest))).toBe(true);
  });

  it('loads the versions of one multi-document file', () => {
    const report = lintWith({ 'defs/all.yaml': Object.values(REDIS_VERSIONS).join('---\n') });
    expect(report.catalogue.versionsOf('redis-sidecar')).toEqual(['1.0.0', '1.1.0', '2.0.0-rc.1']);
  });

  it('de-duplicates two identical documents of one version silently, keeping the file that sorts first', () => {
    const text = REDIS_VERSIONS['defs/redis-sidecar-1.0.0.yaml']!;
    const report = lintWith([
      ['defs/b.yaml', text],
      ['defs/a.yaml', text],
    ]);
    expect(pinnedOf(report)).toEqual([]);
    expect(report.catalogue.definition('redis-sidecar', '1.0.0')?.file).toBe('defs/a.yaml');
    expect(report.catalogue.definition('redis-sidecar', '1.0.0')?.documents.map((d) => d.file)).toEqual(['defs/a.yaml', 'defs/b.yaml']);
  });

  it('warns definition-duplicate, naming the version, when two documents of one version differ only in descriptions', () => {
    const text = REDIS_VERSIONS['defs/redis-sidecar-1.0.0.yaml']!;
    const report = lintWith({ 'defs/a.yaml': text, 'defs/b.yaml': text.replace('Injects a Redis', 'Adds a Redis') });
    expect(pinnedOf(report)).toEqual([at('defs/b.yaml', 'definition-duplicate', 4, 9, '/metadata/name', 'warning')]);
    expect(report.diagnostics[0]!.message).toBe(
      'definition "redis-sidecar" 1.0.0 in defs/b.yaml repeats the one in defs/a.yaml with other descriptions; the one in defs/a.yaml is used',
    );
  });

  it('reports definition-conflict per version and removes every version of the name', () => {
    const text = REDIS_VERSIONS['defs/redis-sidecar-1.1.0.yaml']!;
    const report = lintWith(
      { ...REDIS_VERSIONS, 'defs/z-copy.yaml': text.replace('default: 6379', 'default: 6380') },
      { 'cluster.yaml': profileText({ 'redis-sidecar': '"1.0.0"' }) },
    );
    expect(pinnedOf(report)).toEqual([at('defs/z-copy.yaml', 'definition-conflict', 12, 29, '/spec/rendering/properties/port/default')]);
    expect(report.diagnostics[0]!.message).toMatch(
      /^definition "redis-sidecar" 1\.1\.0 in defs\/z-copy\.yaml conflicts with the one in defs\/redis-sidecar-1\.1\.0\.yaml/,
    );
    expect(report.catalogue.definitionVersions('redis-sidecar')).toEqual([]);
    expect(report.catalogue.isBroken('redis-sidecar')).toBe(true);
  });

  it('refuses a name with versioned and unversioned documents at the unversioned one, and removes every version', () => {
    const report = lintWith(
      { ...REDIS_VERSIONS, 'defs/plain.yaml': definitionText('redis-sidecar', undefined) },
      { 'cluster.yaml': profileText({ 'redis-sidecar': '"1"' }) },
    );
    expect(pinnedOf(report)).toEqual([at('defs/plain.yaml', 'definition-conflict', 5, 1, '/spec/version')]);
    expect(report.diagnostics[0]!.message).toBe(
      'definition "redis-sidecar" in defs/plain.yaml has no spec.version, but the name has versioned documents (defs/redis-sidecar-1.0.0.yaml (1.0.0), defs/redis-sidecar-1.1.0.yaml (1.1.0), defs/redis-sidecar-2.0.0-rc.1.yaml (2.0.0-rc.1)); none of its versions is used',
    );
    expect(report.catalogue.versionsOf('redis-sidecar')).toEqual([]);
  });

  it('removes every version of a name when any one of its documents is invalid, and its bindings stay quiet', () => {
    const report = lintWith(
      { ...REDIS_VERSIONS, 'defs/redis-sidecar-1.2.0.yaml': definitionText('redis-sidecar', '1.2.0', ['image: {type: strin}']) },
      { 'cluster.yaml': profileText({ 'redis-sidecar': '"1.1.0"' }) },
    );
    expect(pinnedOf(report)).toEqual([at('defs/redis-sidecar-1.2.0.yaml', 'invalid-value', 10, 21, '/spec/rendering/properties/image/type')]);
    expect(report.catalogue.definition('redis-sidecar', '1.1.0')).toBeUndefined();
  });
});

describe('a malformed spec.version (docs/versions.md)', () => {
  it.each([
    ['v1.2.0', 12, 'write 1.2.0'],
    ['"1.2.3.4"', 12, undefined],
    ['"^"', 12, undefined],
    ['latest', 12, undefined],
    ['""', 12, undefined],
    ['1.2.0+build.5', 12, undefined],
    [`"${'9'.repeat(10_000)}"`, 12, undefined],
  ])('reports %s as invalid-value at the value, and loads no version of the name', (version, column, hint) => {
    const report = lintWith({ 'defs/a.yaml': definitionText('redis-sidecar', version), ...REDIS_VERSIONS });
    expect(pinnedOf(report)).toEqual([at('defs/a.yaml', 'invalid-value', 6, column, '/spec/version')]);
    expect(report.diagnostics[0]!.hint).toBe(hint);
    expect(report.catalogue.versionsOf('redis-sidecar')).toEqual([]);
  });

  it.each([
    ['1.2', '1.2'],
    ['1.20', '1.20'],
    ['2', '2'],
    ['12345678901234567890', '12345678901234567890'],
  ])('reports a number %s as wrong-type with a hint quoting it as written', (version, written) => {
    const report = lintWith({ 'defs/a.yaml': definitionText('redis-sidecar', version) });
    expect(pinnedOf(report)).toEqual([at('defs/a.yaml', 'wrong-type', 6, 12, '/spec/version')]);
    expect(report.diagnostics[0]!.hint).toBe(`quote it: "${written}"`);
  });
});

describe('the digest of a definition document (docs/versions.md)', () => {
  const digestOf = (text: string) => definitionDigest(parseYamlStream(text, 'x.yaml').documents[0]!.data);
  const base = definitionText('redis-sidecar', '1.0.0', ['image: {type: string, required: true}', 'port:']);

  it('is sha256: and 64 hex digits, the same for the same text', () => {
    expect(digestOf(base)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(digestOf(base)).toBe(digestOf(base));
  });

  it('ignores spec.deprecation, and writes the equivalent forms in full', () => {
    expect(digestOf(base.replace('  version: 1.0.0\n', '  version: 1.0.0\n  deprecation: use 1.1.0\n'))).toBe(digestOf(base));
    expect(digestOf(base.replace('port:', 'port: {}'))).toBe(digestOf(base));
    const empty = definitionText('x', '1.0.0', []).replace('    properties:\n', '');
    expect(digestOf(empty)).toBe(digestOf(empty.replace('  rendering:\n', '  rendering: {}\n')));
    expect(digestOf(empty)).toBe(digestOf(empty.replace('  rendering:\n', '')));
    expect(digestOf(empty)).toBe(digestOf(empty.replace('  rendering:\n', '  rendering: {properties: {}}\n')));
    expect(digestOf(empty)).toBe(digestOf(empty.replace('  rendering:\n', '  rendering: {properties: null}\n')));
  });

  it('changes with a description, a keyword written out, or any value', () => {
    const others = [
      base.replace('Injects', 'Adds'),
      base.replace('required: true}', 'required: true, description: the image}'),
      base.replace('port:', 'port: {required: false}'),
      base.replace('1.0.0', '1.0.1'),
    ];
    for (const other of others) expect(digestOf(other)).not.toBe(digestOf(base));
  });

  it('keeps integers beyond 2^53 exact', () => {
    const a = definitionText('x', '1.0.0', ['n: {type: integer, default: 12345678901234567890}']);
    const b = definitionText('x', '1.0.0', ['n: {type: integer, default: 12345678901234567891}']);
    const c = definitionText('x', '1.0.0', ['n: {type: integer, default: "12345678901234567890"}']);
    expect(new Set([digestOf(a), digestOf(b), digestOf(c)]).size).toBe(3);
  });

  it('is taken over a string holding a lone surrogate, which JCS itself refuses', () => {
    const a = definitionText('x', '1.0.0', ['n: {type: string, default: "\\ud800"}']);
    const b = definitionText('x', '1.0.0', ['n: {type: string, default: "\\ud801"}']);
    expect(digestOf(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(digestOf(a)).not.toBe(digestOf(b));
  });

  it('ignores key order and YAML formatting, for every definition', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);
    const declaration = fc.record(
      {
        type: fc.constantFrom('string', 'integer', 'boolean'),
        required: fc.boolean(),
        description: fc.string({ maxLength: 20 }),
        default: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null)),
      },
      { requiredKeys: ['type'] },
    );
    const document = fc.record({
      name,
      version: fc.constantFrom('1.0.0', '2.1.3-rc.1'),
      description: fc.string({ maxLength: 30 }),
      properties: fc.dictionary(name, fc.option(declaration, { nil: null }), { maxKeys: 5 }),
    });
    fc.assert(
      fc.property(document, fc.boolean(), (d, flow) => {
        const data = {
          apiVersion: 'launcher.gokure.dev/v1alpha1',
          kind: 'CapabilityDefinition',
          metadata: { name: d.name },
          spec: { version: d.version, description: d.description, rendering: { properties: d.properties } },
        };
        const reversed = reverseKeys(data);
        const text = stringify(data);
        const other = flow ? JSON.stringify(reversed, null, 1) : stringify(reversed, { defaultStringType: 'QUOTE_DOUBLE', indent: 4 });
        expect(digestOf(other)).toBe(digestOf(text));
      }),
    );
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) out[key] = reverseKeys((value as Record<string, unknown>)[key]);
  return out;
}

describe('the version of a handler (docs/versions.md)', () => {
  it('is 1.0.0 on every built-in but external-secret, which issue 16 moved to 2.0.0 (docs/compat.md)', () => {
    // Limiting secretStoreRef.kind to SecretStore and ClusterSecretStore tightened its published
    // schema: a breaking change by the compat rules, so a major bump.
    const versions = new Map(
      createCatalogue()
        .listHandlers()
        .map((h) => [h.handler.type, h.handler.version]),
    );
    expect(versions.get('external-secret')).toBe('2.0.0');
    versions.delete('external-secret');
    expect(new Set(versions.values())).toEqual(new Set(['1.0.0']));
  });

  it.each([
    ['v1.0.0', 'handler "queue" (plugin:./queue.mjs): version must be a SemVer version such as 1.0.0 (no leading v, no build metadata), found "v1.0.0"'],
    [1, 'handler "queue" (plugin:./queue.mjs): version must be a SemVer version such as 1.0.0 (no leading v, no build metadata), found number'],
  ])('refuses a plugin declaring version %j at start', (version, message) => {
    const handler = { type: 'queue', description: 'a queue', capabilityAware: false, version };
    expect(() => createCatalogue({ handlers: [{ handler, source: 'plugin:./queue.mjs' }] })).toThrow(
      new RegistryError('queue', message.replace(/^handler "queue" \(plugin:\.\/queue\.mjs\): /, ''), 'plugin:./queue.mjs'),
    );
  });
});
