import { describe, expect, it } from 'vitest';
import { toPointer } from '../../src/core/diagnostics.js';
import { compareDefinitions } from '../../src/documents/compare-definitions.js';
import { brief, compiled, definitionDocument } from './compare-helpers.js';

const P = '/spec/rendering/properties';

/** The changes between two versions given by their rendering properties (and further `spec` members). */
function changes(before: Record<string, unknown>, after: Record<string, unknown>, beforeSpec?: Record<string, unknown>, afterSpec?: Record<string, unknown>) {
  return brief(compareDefinitions(compiled(definitionDocument(before, beforeSpec)), compiled(definitionDocument(after, afterSpec))).changes);
}

const str = { type: 'string' };

describe('compareDefinitions: breaking changes (docs/compat.md)', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, string, string, 'old' | 'new']>([
    ['a property removed', { image: str, tag: str }, { image: str }, 'property-removed', `${P}/tag`, 'old'],
    ['a type changed', { port: str }, { port: { type: 'integer' } }, 'type-changed', `${P}/port/type`, 'new'],
    ['a type added', { port: {} }, { port: { type: 'integer' } }, 'type-added', `${P}/port/type`, 'new'],
    ['a type narrowed (number to integer)', { ratio: { type: 'number' } }, { ratio: { type: 'integer' } }, 'type-narrowed', `${P}/ratio/type`, 'new'],
    ['an optional property made required', { image: str }, { image: { type: 'string', required: true } }, 'made-required', `${P}/image/required`, 'new'],
    ['a new required property', { image: str }, { image: str, tag: { type: 'string', required: true } }, 'required-property-added', `${P}/tag`, 'new'],
    ['a default added', { port: { type: 'integer' } }, { port: { type: 'integer', default: 6379 } }, 'default-added', `${P}/port/default`, 'new'],
    [
      'a default changed',
      { port: { type: 'integer', default: 6379 } },
      { port: { type: 'integer', default: 6380 } },
      'default-changed',
      `${P}/port/default`,
      'new',
    ],
    ['a default removed', { port: { type: 'integer', default: 6379 } }, { port: { type: 'integer' } }, 'default-removed', `${P}/port/default`, 'old'],
    ['an enum added', { mode: str }, { mode: { type: 'string', enum: ['a', 'b'] } }, 'enum-added', `${P}/mode/enum`, 'new'],
    [
      'an enum value removed',
      { mode: { type: 'string', enum: ['a', 'b', 'c'] } },
      { mode: { type: 'string', enum: ['a', 'c'] } },
      'enum-value-removed',
      `${P}/mode/enum/1`,
      'old',
    ],
    ['a pattern added', { name: str }, { name: { type: 'string', pattern: '^[a-z]+$' } }, 'constraint-added', `${P}/name/pattern`, 'new'],
    [
      'a pattern changed',
      { name: { type: 'string', pattern: '^[a-z]+$' } },
      { name: { type: 'string', pattern: '^[a-z0-9]+$' } },
      'constraint-changed',
      `${P}/name/pattern`,
      'new',
    ],
    [
      'a minimum raised',
      { port: { type: 'integer', minimum: 1 } },
      { port: { type: 'integer', minimum: 1024 } },
      'constraint-tightened',
      `${P}/port/minimum`,
      'new',
    ],
    ['a minimum added', { port: { type: 'integer' } }, { port: { type: 'integer', minimum: 1 } }, 'constraint-added', `${P}/port/minimum`, 'new'],
    [
      'a maximum lowered',
      { port: { type: 'integer', maximum: 65535 } },
      { port: { type: 'integer', maximum: 1023 } },
      'constraint-tightened',
      `${P}/port/maximum`,
      'new',
    ],
    [
      'a minLength raised',
      { name: { type: 'string', minLength: 1 } },
      { name: { type: 'string', minLength: 3 } },
      'constraint-tightened',
      `${P}/name/minLength`,
      'new',
    ],
    [
      'a maxLength lowered',
      { name: { type: 'string', maxLength: 63 } },
      { name: { type: 'string', maxLength: 8 } },
      'constraint-tightened',
      `${P}/name/maxLength`,
      'new',
    ],
    [
      'a minItems raised',
      { hosts: { type: 'array', minItems: 0 } },
      { hosts: { type: 'array', minItems: 1 } },
      'constraint-tightened',
      `${P}/hosts/minItems`,
      'new',
    ],
    [
      'a maxItems lowered',
      { hosts: { type: 'array', maxItems: 10 } },
      { hosts: { type: 'array', maxItems: 2 } },
      'constraint-tightened',
      `${P}/hosts/maxItems`,
      'new',
    ],
    [
      'additionalProperties from open to closed',
      { labels: { type: 'object', additionalProperties: true } },
      { labels: { type: 'object' } },
      'closed',
      `${P}/labels/additionalProperties`,
      'new',
    ],
    [
      'additionalProperties from open to a declaration',
      { labels: { type: 'object', additionalProperties: true } },
      { labels: { type: 'object', additionalProperties: { type: 'string' } } },
      'subschema-added',
      `${P}/labels/additionalProperties`,
      'new',
    ],
    [
      'an introducedIn added',
      { tls: { type: 'boolean' } },
      { tls: { type: 'boolean', introducedIn: '1.29' } },
      'introduced-added',
      `${P}/tls/introducedIn`,
      'new',
    ],
    [
      'an introducedIn moved later',
      { tls: { type: 'boolean', introducedIn: '1.29' } },
      { tls: { type: 'boolean', introducedIn: '1.30' } },
      'introduced-later',
      `${P}/tls/introducedIn`,
      'new',
    ],
    ['a removedIn added', { tls: { type: 'boolean' } }, { tls: { type: 'boolean', removedIn: '1.33' } }, 'removal-added', `${P}/tls/removedIn`, 'new'],
    [
      'a removedIn moved earlier',
      { tls: { type: 'boolean', removedIn: '1.33' } },
      { tls: { type: 'boolean', removedIn: '1.32' } },
      'removal-earlier',
      `${P}/tls/removedIn`,
      'new',
    ],
    [
      'a removedIn naming another component',
      { tls: { type: 'boolean', removedIn: '1.33' } },
      { tls: { type: 'boolean', removedIn: 'gateway-api 1.33' } },
      'lifecycle-component-changed',
      `${P}/tls/removedIn`,
      'new',
    ],
    [
      'an enum value given an introducedIn',
      { mode: { type: 'string', enum: ['a', 'b'] } },
      { mode: { type: 'string', enum: ['a', 'b'], enumLifecycle: { b: { introducedIn: '1.30' } } } },
      'introduced-added',
      `${P}/mode/enumLifecycle/b/introducedIn`,
      'new',
    ],
    [
      'an enum value removed earlier',
      { mode: { type: 'string', enum: ['a', 'b'], enumLifecycle: { b: { removedIn: '1.33' } } } },
      { mode: { type: 'string', enum: ['a', 'b'], enumLifecycle: { b: { removedIn: '1.31' } } } },
      'removal-earlier',
      `${P}/mode/enumLifecycle/b/removedIn`,
      'new',
    ],
  ])('%s', (_name, before, after, kind, path, side) => {
    expect(changes(before, after)).toEqual([{ class: 'breaking', kind, path, side }]);
  });

  it('classes a property renamed with renamedFrom as breaking, at the new property, and compares it with its old self', () => {
    const before = { maxMemory: { type: 'string', default: '256Mi' } };
    const after = { memoryLimit: { type: 'string', default: '256Mi', renamedFrom: 'maxMemory' } };
    expect(changes(before, after)).toEqual([{ class: 'breaking', kind: 'property-renamed', path: `${P}/memoryLimit`, side: 'new' }]);
    const tightened = { memoryLimit: { type: 'string', default: '256Mi', renamedFrom: 'maxMemory', pattern: '^[0-9]+Mi$' } };
    expect(changes(before, tightened)).toEqual([
      { class: 'breaking', kind: 'property-renamed', path: `${P}/memoryLimit`, side: 'new' },
      { class: 'breaking', kind: 'constraint-added', path: `${P}/memoryLimit/pattern`, side: 'new' },
    ]);
  });

  it('classes a rename without renamedFrom as a removal and a new property', () => {
    expect(changes({ maxMemory: str }, { memoryLimit: str })).toEqual([
      { class: 'breaking', kind: 'property-removed', path: `${P}/maxMemory`, side: 'old' },
      { class: 'compatible', kind: 'property-added', path: `${P}/memoryLimit`, side: 'new' },
    ]);
  });

  it('classes a new required property as breaking even with a default', () => {
    const after = { image: str, tag: { type: 'string', required: true, default: 'latest' } };
    expect(changes({ image: str }, after)).toEqual([{ class: 'breaking', kind: 'required-property-added', path: `${P}/tag`, side: 'new' }]);
  });

  it("classes the capability's own removedIn added as breaking, at spec.removedIn", () => {
    expect(changes({ image: str }, { image: str }, {}, { removedIn: '1.34' })).toEqual([
      { class: 'breaking', kind: 'removal-added', path: '/spec/removedIn', side: 'new' },
    ]);
  });

  it("classes the capability's own introducedIn moved later as breaking", () => {
    expect(changes({}, {}, { introducedIn: '1.28' }, { introducedIn: '1.29' })).toEqual([
      { class: 'breaking', kind: 'introduced-later', path: '/spec/introducedIn', side: 'new' },
    ]);
  });

  it('compares properties at any depth, list items and declared undeclared keys', () => {
    const before = {
      tls: { type: 'object', properties: { port: { type: 'integer', minimum: 1 } } },
      hosts: { type: 'array', items: { type: 'string', maxLength: 63 } },
      labels: { type: 'object', additionalProperties: { type: 'string', pattern: '^[a-z]*$' } },
    };
    const after = {
      tls: { type: 'object', properties: { port: { type: 'integer', minimum: 2 } } },
      hosts: { type: 'array', items: { type: 'string', maxLength: 62 } },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    };
    expect(changes(before, after)).toEqual([
      { class: 'breaking', kind: 'constraint-tightened', path: `${P}/tls/properties/port/minimum`, side: 'new' },
      { class: 'breaking', kind: 'constraint-tightened', path: `${P}/hosts/items/maxLength`, side: 'new' },
      { class: 'compatible', kind: 'constraint-removed', path: `${P}/labels/additionalProperties/pattern`, side: 'old' },
    ]);
  });

  it('lists every difference of a release, each with its own class', () => {
    const before = { image: str, port: { type: 'integer', default: 6379 }, mode: { type: 'string', enum: ['a'] } };
    const after = { image: { type: 'string', description: 'the image' }, port: { type: 'integer', default: 6380 }, mode: { type: 'string', enum: ['a', 'b'] } };
    expect(changes(before, after)).toEqual([
      { class: 'patch', kind: 'words-changed', path: `${P}/image/description`, side: 'new' },
      { class: 'breaking', kind: 'default-changed', path: `${P}/port/default`, side: 'new' },
      { class: 'compatible', kind: 'enum-value-added', path: `${P}/mode/enum/1`, side: 'new' },
    ]);
  });
});

describe('compareDefinitions: compatible changes (docs/compat.md)', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, string, string, 'old' | 'new']>([
    ['a new optional property', { image: str }, { image: str, tag: str }, 'property-added', `${P}/tag`, 'new'],
    ['a new property with a default', { image: str }, { image: str, port: { type: 'integer', default: 6379 } }, 'property-added', `${P}/port`, 'new'],
    [
      'an enum value added',
      { mode: { type: 'string', enum: ['a'] } },
      { mode: { type: 'string', enum: ['a', 'b'] } },
      'enum-value-added',
      `${P}/mode/enum/1`,
      'new',
    ],
    ['an enum removed', { mode: { type: 'string', enum: ['a'] } }, { mode: str }, 'enum-removed', `${P}/mode/enum`, 'old'],
    ['a type removed', { port: { type: 'integer' } }, { port: {} }, 'type-removed', `${P}/port/type`, 'old'],
    ['a type widened (integer to number)', { ratio: { type: 'integer' } }, { ratio: { type: 'number' } }, 'type-widened', `${P}/ratio/type`, 'new'],
    ['a required property made optional', { image: { type: 'string', required: true } }, { image: str }, 'made-optional', `${P}/image/required`, 'new'],
    ['a pattern removed', { name: { type: 'string', pattern: '^a' } }, { name: str }, 'constraint-removed', `${P}/name/pattern`, 'old'],
    [
      'a minimum lowered',
      { port: { type: 'integer', minimum: 1024 } },
      { port: { type: 'integer', minimum: 1 } },
      'constraint-loosened',
      `${P}/port/minimum`,
      'new',
    ],
    [
      'a maximum raised',
      { port: { type: 'integer', maximum: 10 } },
      { port: { type: 'integer', maximum: 20 } },
      'constraint-loosened',
      `${P}/port/maximum`,
      'new',
    ],
    ['a maximum removed', { port: { type: 'integer', maximum: 10 } }, { port: { type: 'integer' } }, 'constraint-removed', `${P}/port/maximum`, 'old'],
    [
      'a minLength lowered',
      { name: { type: 'string', minLength: 3 } },
      { name: { type: 'string', minLength: 1 } },
      'constraint-loosened',
      `${P}/name/minLength`,
      'new',
    ],
    [
      'a maxItems raised',
      { hosts: { type: 'array', maxItems: 2 } },
      { hosts: { type: 'array', maxItems: 3 } },
      'constraint-loosened',
      `${P}/hosts/maxItems`,
      'new',
    ],
    [
      'additionalProperties from closed to open',
      { labels: { type: 'object' } },
      { labels: { type: 'object', additionalProperties: true } },
      'opened',
      `${P}/labels/additionalProperties`,
      'new',
    ],
    [
      'an introducedIn moved earlier',
      { tls: { type: 'boolean', introducedIn: '1.29' } },
      { tls: { type: 'boolean', introducedIn: '1.28' } },
      'introduced-earlier',
      `${P}/tls/introducedIn`,
      'new',
    ],
    [
      'an introducedIn removed',
      { tls: { type: 'boolean', introducedIn: '1.29' } },
      { tls: { type: 'boolean' } },
      'introduced-dropped',
      `${P}/tls/introducedIn`,
      'old',
    ],
    [
      'a deprecatedIn added',
      { tls: { type: 'boolean' } },
      { tls: { type: 'boolean', deprecatedIn: '1.31' } },
      'deprecation-added',
      `${P}/tls/deprecatedIn`,
      'new',
    ],
    [
      'a deprecatedIn moved',
      { tls: { type: 'boolean', deprecatedIn: '1.31' } },
      { tls: { type: 'boolean', deprecatedIn: '1.30' } },
      'deprecation-moved',
      `${P}/tls/deprecatedIn`,
      'new',
    ],
    [
      'a deprecatedIn removed',
      { tls: { type: 'boolean', deprecatedIn: '1.31' } },
      { tls: { type: 'boolean' } },
      'deprecation-dropped',
      `${P}/tls/deprecatedIn`,
      'old',
    ],
    [
      'a removedIn moved later',
      { tls: { type: 'boolean', removedIn: '1.31' } },
      { tls: { type: 'boolean', removedIn: '1.33' } },
      'removal-later',
      `${P}/tls/removedIn`,
      'new',
    ],
    ['a removedIn removed', { tls: { type: 'boolean', removedIn: '1.31' } }, { tls: { type: 'boolean' } }, 'removal-dropped', `${P}/tls/removedIn`, 'old'],
  ])('%s', (_name, before, after, kind, path, side) => {
    expect(changes(before, after)).toEqual([{ class: 'compatible', kind, path, side }]);
  });

  it('compares versions of a lifecycle numerically (1.9 before 1.10)', () => {
    expect(changes({ tls: { type: 'boolean', introducedIn: '1.10' } }, { tls: { type: 'boolean', introducedIn: '1.9' } })).toEqual([
      { class: 'compatible', kind: 'introduced-earlier', path: `${P}/tls/introducedIn`, side: 'new' },
    ]);
  });
});

describe('compareDefinitions: patch changes and no change (docs/compat.md)', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, string]>([
    ['a description added', { image: str }, { image: { type: 'string', description: 'the image' } }, `${P}/image/description`],
    ['a description changed', { image: { type: 'string', description: 'a' } }, { image: { type: 'string', description: 'b' } }, `${P}/image/description`],
    [
      'a deprecationNote changed',
      { tls: { type: 'boolean', deprecatedIn: '1.31', deprecationNote: 'use mode' } },
      { tls: { type: 'boolean', deprecatedIn: '1.31', deprecationNote: 'use mode: strict' } },
      `${P}/tls/deprecationNote`,
    ],
  ])('%s is a patch', (_name, before, after, path) => {
    expect(changes(before, after)).toEqual([{ class: 'patch', kind: 'words-changed', path, side: 'new' }]);
  });

  it("classes the capability's description as a patch, at spec.description", () => {
    expect(changes({}, {}, { description: 'a' }, { description: 'b' })).toEqual([
      { class: 'patch', kind: 'words-changed', path: '/spec/description', side: 'new' },
    ]);
  });

  it('finds no difference when only renamedFrom is removed in the version after the rename', () => {
    const renamed = { memoryLimit: { type: 'string', renamedFrom: 'maxMemory' } };
    expect(changes(renamed, { memoryLimit: str })).toEqual([]);
  });

  it('finds no difference between the equivalent forms of a definition (required: false, name:)', () => {
    expect(changes({ image: { type: 'string', required: false }, any: null }, { image: str, any: {} })).toEqual([]);
  });
});

describe('compareDefinitions: renamedFrom that pairs nothing (docs/compat.md)', () => {
  const issuesOf = (before: Record<string, unknown>, after: Record<string, unknown>) =>
    compareDefinitions(compiled(definitionDocument(before)), compiled(definitionDocument(after))).issues.map((i) => ({
      code: i.code,
      path: toPointer(i.path),
      message: i.message,
    }));

  it('reports a renamedFrom naming a property the previous version lacks as definition-invalid at the renamedFrom', () => {
    expect(issuesOf({ image: str }, { image: str, memoryLimit: { type: 'string', renamedFrom: 'maxMemory' } })).toEqual([
      {
        code: 'definition-invalid',
        path: `${P}/memoryLimit/renamedFrom`,
        message:
          'memoryLimit.renamedFrom names maxMemory, which the previous version does not have here; renamedFrom pairs a property with its name in the version just before, so remove it once that version has the new name',
      },
    ]);
  });

  it('reports a renamedFrom kept from the version before, whose old name is gone', () => {
    const renamed = { memoryLimit: { type: 'string', renamedFrom: 'maxMemory' } };
    expect(issuesOf(renamed, renamed).map((i) => i.path)).toEqual([`${P}/memoryLimit/renamedFrom`]);
  });

  it('reports renamedFrom added to a property the previous version already has', () => {
    expect(issuesOf({ a: str, b: str }, { b: { type: 'string', renamedFrom: 'a' } })).toEqual([
      {
        code: 'definition-invalid',
        path: `${P}/b/renamedFrom`,
        message: 'b.renamedFrom names a, but the previous version already has b: nothing is renamed',
      },
    ]);
  });

  it('checks nested renames at the same parent, and inside a property new in this version', () => {
    const before = { tls: { type: 'object', properties: { cert: str } } };
    const after = {
      tls: { type: 'object', properties: { certificate: { type: 'string', renamedFrom: 'cert' } } },
      auth: { type: 'object', properties: { token: { type: 'string', renamedFrom: 'secret' } } },
    };
    expect(issuesOf(before, after).map((i) => i.path)).toEqual([`${P}/auth/properties/token/renamedFrom`]);
    expect(changes(before, { tls: after.tls })).toEqual([
      { class: 'breaking', kind: 'property-renamed', path: `${P}/tls/properties/certificate`, side: 'new' },
    ]);
  });
});
