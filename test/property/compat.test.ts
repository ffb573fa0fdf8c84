import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { compareDefinitions } from '../../src/documents/compare-definitions.js';
import { compileDefinition } from '../../src/documents/compile-definition.js';
import { compatOfDefinitions } from '../../src/operations/compat.js';
import { validateProfile } from '../../src/operations/validate-profile.js';
import { checkSchema } from '../../src/schema/check.js';
import { bumpCovers, compareSchemas } from '../../src/schema/compare.js';
import { CHANGE_CLASSES, type ChangeKind } from '../../src/schema/compare-rules.js';
import { propertyRuns } from '../helpers/property.js';

// docs/compat.md: a change classed compatible never turns a profile valid under the older version
// into an invalid one under the newer, and every breaking kind but a default change (which
// changes meaning, not validity) has a profile valid before and invalid after. Profiles are
// judged by the real pipeline (validateProfile: YAML, definitions, the engine, lifecycles).

type Declaration = Record<string, unknown>;
type Properties = Record<string, Declaration>;

/** One version of the generated definition: its rendering properties and the capability's own `spec` keywords. */
interface Version {
  properties: Properties;
  spec: Record<string, unknown>;
}

const catalogue = createCatalogue();
const VERSIONS = ['1.28', '1.29', '1.30', '1.31', '1.32', '1.33'];
const BOUNDS = ['introducedIn', 'deprecatedIn', 'removedIn'];

function documentOf(version: Version): Record<string, unknown> {
  return {
    apiVersion: 'launcher.gokure.dev/v1alpha1',
    kind: 'CapabilityDefinition',
    metadata: { name: 'cache' },
    spec: { ...version.spec, rendering: { properties: version.properties } },
  };
}

function compiles(version: Version): boolean {
  return compileDefinition(documentOf(version)).definition !== undefined;
}

/** True when a profile binding `cache` to this rendering is valid with the definition, at the platform. */
function isValidProfile(version: Version, rendering: Record<string, unknown>, platform: Record<string, string> | undefined): boolean {
  const profile = {
    apiVersion: 'launcher.gokure.dev/v1alpha1',
    kind: 'ClusterProfile',
    metadata: { name: 'generated' },
    spec: { ...(platform ? { platform } : {}), capabilities: { cache: { rendering } } },
  };
  const verdict = validateProfile(
    {
      profile: { file: 'cluster.yaml', content: JSON.stringify(profile) },
      definitions: [{ file: 'cache.yaml', content: JSON.stringify(documentOf(version)), origin: 'definition' }],
    },
    catalogue,
  );
  return verdict.valid;
}

function changesBetween(before: Version, after: Version) {
  const old = compileDefinition(documentOf(before)).definition!;
  const now = compileDefinition(documentOf(after)).definition!;
  return compareDefinitions(old, now).changes;
}

// ---- declarations and values ----

const compiledNodes = new WeakMap<Declaration, JsonSchema | null>();

/** The compiled schema of one declaration, or undefined when it is not a valid declaration. */
function compiledNode(declaration: Declaration): JsonSchema | undefined {
  let node = compiledNodes.get(declaration);
  if (node === undefined) {
    const definition = compileDefinition(documentOf({ properties: { p: declaration }, spec: {} })).definition;
    node = (definition?.schema.properties?.['p'] as JsonSchema | undefined) ?? null;
    compiledNodes.set(declaration, node);
  }
  return node ?? undefined;
}

/** Values worth trying for a declaration: its own enum values and default, near misses, and other types. */
function candidates(declaration: Declaration): unknown[] {
  const own = [...(Array.isArray(declaration['enum']) ? declaration['enum'] : []), ...(declaration['default'] !== undefined ? [declaration['default']] : [])];
  switch (declaration['type']) {
    case 'string':
      return [...own, '', 'a', 'b', 'ab', 'ba', 'abc', 'abcdef', 'zz', 1];
    case 'integer':
      return [...own, -5, -1, 0, 1, 2, 3, 5, 10, 12, 20, 'a'];
    case 'number':
      return [...own, -5, 0, 0.5, 1, 2.5, 3, 10, 20, 'a'];
    case 'boolean':
      return [...own, true, false, 'a'];
    case 'array': {
      const items = declaration['items'] ? candidates(declaration['items'] as Declaration) : ['a', 1];
      return [[], [items[0]], items.slice(0, 2), items.slice(0, 3), [items[0], items[0], items[0]], 'a'];
    }
    case 'object': {
      const full: Record<string, unknown> = {};
      const required: Record<string, unknown> = {};
      for (const [name, child] of Object.entries((declaration['properties'] as Properties | undefined) ?? {})) {
        const value = validValues(child)[0] ?? candidates(child)[0];
        full[name] = value;
        if (child['required'] === true) required[name] = value;
      }
      return [{}, required, full, { ...required, zz: 'a' }, { ...full, zz: 1 }, 'a'];
    }
    default:
      return ['a', 1, true, {}, [], 0.5];
  }
}

/** The candidates a declaration accepts, judged by the engine. */
function validValues(declaration: Declaration): unknown[] {
  const node = compiledNode(declaration);
  if (!node) return [];
  return candidates(declaration).filter((value) => !checkSchema(node, value).issues.some((i) => i.severity === 'error'));
}

const lifecycleWindow: fc.Arbitrary<Declaration> = fc.subarray(BOUNDS, { minLength: 1 }).chain((keywords) =>
  fc.subarray(VERSIONS, { minLength: keywords.length, maxLength: keywords.length }).map((versions) => {
    const out: Declaration = Object.fromEntries(keywords.map((k, i) => [k, versions[i]]));
    if (out['deprecatedIn'] !== undefined || out['removedIn'] !== undefined) out['deprecationNote'] = 'use something else';
    return out;
  }),
);

const scalarDeclaration: fc.Arbitrary<Declaration> = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      enum: fc.subarray(['a', 'b', 'ab', 'abc', 'ba'], { minLength: 1 }),
      pattern: fc.constantFrom('^a', '^[ab]+$', 'b$', '^.{0,3}$'),
      minLength: fc.integer({ min: 0, max: 2 }),
      maxLength: fc.integer({ min: 2, max: 5 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('integer'),
      enum: fc.subarray([-1, 0, 1, 2, 5, 10], { minLength: 1 }),
      minimum: fc.integer({ min: -2, max: 3 }),
      maximum: fc.integer({ min: 3, max: 12 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('number'), minimum: fc.constantFrom(-1, 0, 0.5, 2), maximum: fc.constantFrom(2.5, 3, 10) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('boolean'), enum: fc.subarray([true, false], { minLength: 1 }) }, { requiredKeys: ['type'] }),
  fc.constant({}),
);

/** A declaration for `items` or `additionalProperties`: no required, default or lifecycle there. */
const shapeDeclaration = (depth: number): fc.Arbitrary<Declaration> =>
  depth <= 0
    ? scalarDeclaration
    : fc.oneof(
        { weight: 3, arbitrary: scalarDeclaration },
        {
          weight: 1,
          arbitrary: fc.record(
            {
              type: fc.constant('array'),
              items: shapeDeclaration(depth - 1),
              minItems: fc.integer({ min: 0, max: 2 }),
              maxItems: fc.integer({ min: 2, max: 4 }),
            },
            { requiredKeys: ['type'] },
          ),
        },
      );

/** A property declaration; `top` properties may have a lifecycle (nested ones would have to lie inside their parent's). */
const propertyDeclaration = (depth: number, top: boolean, mayBeRequired = true): fc.Arbitrary<Declaration> => {
  const shapes: fc.Arbitrary<Declaration>[] = [shapeDeclaration(depth)];
  if (depth > 0) {
    shapes.push(
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.dictionary(fc.constantFrom('p', 'q', 'r'), propertyDeclaration(depth - 1, false), { maxKeys: 3 }),
          additionalProperties: fc.oneof(fc.constant(true), shapeDeclaration(0)),
        },
        { requiredKeys: ['type'] },
      ),
    );
  }
  return fc
    .tuple(
      fc.oneof(...shapes),
      fc.record(
        {
          required: mayBeRequired ? fc.boolean() : fc.constant(false),
          description: fc.constantFrom('one', 'two'),
          lifecycle: top ? lifecycleWindow : fc.constant({}),
          defaultIndex: fc.nat(),
        },
        { requiredKeys: [] },
      ),
    )
    .map(([shape, extra]) => {
      const out: Declaration = { ...shape };
      if (extra.description !== undefined) out['description'] = extra.description;
      if (extra.required === true) out['required'] = true;
      else if (extra.lifecycle !== undefined) Object.assign(out, extra.lifecycle);
      if (extra.defaultIndex !== undefined && extra.required !== true) {
        const values = validValues(out);
        if (values.length > 0) out['default'] = values[extra.defaultIndex % values.length];
      }
      return out;
    });
};

const NAMES = ['a', 'b', 'c', 'd'];

const version: fc.Arbitrary<Version> = fc
  .record({
    properties: fc.dictionary(fc.constantFrom(...NAMES), propertyDeclaration(2, true), { minKeys: 1, maxKeys: 4 }),
    spec: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: lifecycleWindow }),
  })
  .filter(compiles);

const platform: fc.Arbitrary<Record<string, string> | undefined> = fc.option(
  fc.constantFrom('1.27', ...VERSIONS, '1.34').map((kubernetes) => ({ kubernetes })),
  { nil: undefined },
);

/** Renderings for a version: mostly values its declarations accept, some they do not, optional keys often left out. */
function renderings(of: Version): fc.Arbitrary<Record<string, unknown>[]> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [name, declaration] of Object.entries(of.properties)) {
    const valid = validValues(declaration);
    const all = candidates(declaration);
    model[name] =
      valid.length > 0
        ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...all) })
        : fc.constantFrom(...all);
    if (declaration['required'] === true) required.push(name);
  }
  return fc.array(fc.record(model, { requiredKeys: required }), { minLength: 1, maxLength: 5 });
}

// ---- random edits: every kind of change, compatible or not ----

interface Edit {
  op: (typeof OPS)[number];
  pick: number;
  value: number;
}

const OPS = [
  'add-property',
  'remove-property',
  'rename-property',
  'toggle-required',
  'set-type',
  'enum-add',
  'enum-remove',
  'enum-drop',
  'enum-set',
  'pattern-set',
  'pattern-drop',
  'bound-set',
  'bound-drop',
  'open',
  'close',
  'lifecycle-set',
  'lifecycle-drop',
  'default-set',
  'default-drop',
  'describe',
  'capability-lifecycle',
  'widen',
  'narrow',
  'make-optional',
] as const;

const edit: fc.Arbitrary<Edit> = fc.record({ op: fc.constantFrom(...OPS), pick: fc.nat(), value: fc.nat() });

/** Every property of a version with the map holding it, nested ones included. */
function targets(properties: Properties): { holder: Properties; name: string; top: boolean }[] {
  const out: { holder: Properties; name: string; top: boolean }[] = [];
  const visit = (holder: Properties, top: boolean) => {
    for (const name of Object.keys(holder)) {
      out.push({ holder, name, top });
      const nested = holder[name]!['properties'];
      if (holder[name]!['type'] === 'object' && nested) visit(nested as Properties, false);
    }
  };
  visit(properties, true);
  return out;
}

const at = <T>(list: readonly T[], index: number): T => list[index % list.length]!;

const NEW_DECLARATIONS: Declaration[] = [
  { type: 'string' },
  { type: 'integer', default: 1 },
  {},
  { type: 'string', required: true },
  { type: 'boolean', default: false, description: 'new' },
  { type: 'object', properties: { p: { type: 'string' } } },
];

/** The bound keywords of a type; numbers (and untyped declarations) use `minimum`/`maximum`. */
const BOUNDS_OF_TYPE: Record<string, string[]> = { string: ['minLength', 'maxLength'], array: ['minItems', 'maxItems'] };

function applyEdit(from: Version, { op, pick, value }: Edit): Version {
  const next: Version = structuredClone(from);
  if (op === 'capability-lifecycle') {
    const keyword = at(BOUNDS, value);
    if (next.spec[keyword] !== undefined && value % 3 === 0) delete next.spec[keyword];
    else next.spec[keyword] = at(VERSIONS, pick);
    return next;
  }
  const all = targets(next.properties);
  if (all.length === 0) {
    if (op === 'add-property') next.properties['n1'] = structuredClone(at(NEW_DECLARATIONS, value));
    return next;
  }
  const { holder, name, top } = at(all, pick);
  const d = holder[name]!;
  const type = d['type'];
  switch (op) {
    case 'add-property': {
      let parent = holder;
      if (value % 2 === 1 && d['type'] === 'object') {
        d['properties'] ??= {};
        parent = d['properties'] as Properties;
      }
      const fresh = ['n1', 'n2', 'n3'].find((n) => !Object.hasOwn(parent, n));
      if (fresh) parent[fresh] = structuredClone(at(NEW_DECLARATIONS, value));
      break;
    }
    case 'remove-property':
      delete holder[name];
      break;
    case 'rename-property':
      if (!Object.hasOwn(holder, 'renamed')) {
        delete holder[name];
        holder['renamed'] = { ...d, renamedFrom: name };
      }
      break;
    case 'toggle-required':
      if (d['required'] === true) delete d['required'];
      else d['required'] = true;
      break;
    case 'set-type': {
      const kept: Declaration = { type: at(['string', 'integer', 'number', 'boolean', 'array', 'object', undefined], value) };
      if (kept['type'] === undefined) delete kept['type'];
      for (const keyword of ['required', 'description', ...(top ? BOUNDS : [])]) if (d[keyword] !== undefined) kept[keyword] = d[keyword];
      holder[name] = kept;
      break;
    }
    case 'enum-add':
    case 'enum-set': {
      const pools: Record<string, unknown[]> = { string: ['a', 'b', 'c', 'zz'], boolean: [true, false] };
      const pool = pools[String(type)] ?? [0, 1, 3, 7];
      if (op === 'enum-set') d['enum'] = [at(pool, value)];
      else if (Array.isArray(d['enum'])) d['enum'] = [...new Set([...d['enum'], at(pool, value)])];
      break;
    }
    case 'enum-remove':
      if (Array.isArray(d['enum']) && d['enum'].length > 1) d['enum'] = d['enum'].filter((_, i) => i !== value % (d['enum'] as unknown[]).length);
      break;
    case 'enum-drop':
      delete d['enum'];
      break;
    case 'pattern-set':
      d['pattern'] = at(['^a', '^[ab]+$', 'b$', '^.{0,3}$', '.*'], value);
      break;
    case 'pattern-drop':
      delete d['pattern'];
      break;
    case 'bound-set': {
      const keyword = at(BOUNDS_OF_TYPE[String(type)] ?? ['minimum', 'maximum'], value);
      d[keyword] = pick % 6;
      break;
    }
    case 'bound-drop':
      for (const keyword of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems']) if (value % 2 === 0) delete d[keyword];
      break;
    case 'open':
      d['additionalProperties'] = true;
      break;
    case 'close':
      delete d['additionalProperties'];
      break;
    case 'lifecycle-set':
      if (top) d[at(BOUNDS, value)] = at(VERSIONS, pick);
      break;
    case 'lifecycle-drop':
      delete d[at(BOUNDS, value)];
      if (d['deprecatedIn'] === undefined && d['removedIn'] === undefined) delete d['deprecationNote'];
      break;
    case 'default-set': {
      const values = validValues({ ...d, default: undefined });
      if (values.length > 0) d['default'] = at(values, value);
      break;
    }
    case 'default-drop':
      delete d['default'];
      break;
    case 'describe':
      d['description'] = `changed ${value % 3}`;
      break;
    case 'widen':
      if (type === 'integer') d['type'] = 'number';
      break;
    case 'narrow':
      if (type === 'number') d['type'] = 'integer';
      break;
    case 'make-optional':
      delete d['required'];
      break;
  }
  return next;
}

describe('compat classification against the engine (property)', () => {
  it('never turns a profile valid under the old version invalid when the changes are compatible or patch', () => {
    let exercised = 0;
    fc.assert(
      fc.property(
        version.chain((before) => fc.tuple(fc.constant(before), fc.array(edit, { minLength: 1, maxLength: 3 }), renderings(before), platform)),
        ([before, edits, samples, where]) => {
          const after = edits.reduce(applyEdit, before);
          fc.pre(compiles(after));
          const changes = changesBetween(before, after);
          if (changes.some((c) => c.class === 'breaking')) return;
          for (const rendering of samples) {
            if (!isValidProfile(before, rendering, where)) continue;
            exercised += 1;
            expect({ rendering, platform: where, changes: changes.map((c) => c.message), valid: isValidProfile(after, rendering, where) }).toEqual({
              rendering,
              platform: where,
              changes: changes.map((c) => c.message),
              valid: true,
            });
          }
        },
      ),
      { numRuns: 400 },
    );
    // The property must have judged real profiles, not only skipped cases.
    expect(exercised).toBeGreaterThan(200);
  });
});

// ---- a witness for every breaking kind ----

/** A breaking change and a profile valid before it and invalid after it. */
interface Witness {
  before: Version;
  after: Version;
  rendering: Record<string, unknown>;
  platform?: Record<string, string>;
}

/** A breaking change of a JSON Schema kurel's definitions cannot write (handlers and plugins can), and a value it turns invalid. */
interface SchemaWitness {
  before: JsonSchema;
  after: JsonSchema;
  value: unknown;
}

/** Other optional properties around the one that changes: they must not matter. */
const others: fc.Arbitrary<Properties> = fc.dictionary(fc.constantFrom('x', 'y'), propertyDeclaration(1, true, false), { maxKeys: 2 });

/** A plain optional declaration and a value it accepts. */
const plain: fc.Arbitrary<[Declaration, unknown]> = propertyDeclaration(1, false, false)
  .map((d): [Declaration, unknown] => [d, validValues(d)[0]])
  .filter(([, v]) => v !== undefined);

const withOthers = (o: Properties, properties: Properties, spec: Record<string, unknown> = {}): Version => ({ properties: { ...o, ...properties }, spec });

const pairOfVersions = fc.tuple(fc.integer({ min: 0, max: VERSIONS.length - 2 }), fc.integer({ min: 1, max: VERSIONS.length - 1 })).map(([a, step]) => {
  const low = Math.min(a, VERSIONS.length - 2);
  const high = Math.min(low + step, VERSIONS.length - 1);
  return [VERSIONS[low]!, VERSIONS[high]!] as const;
});

/** The platform version just below a lifecycle version (1.30 → 1.29). */
const justBelow = (v: string) => `1.${Number(v.split('.')[1]) - 1}`;

/** For each bound (without its min/max prefix): the type it applies to and a value of that size. */
const BOUNDED_SHAPES: Record<string, [string, (size: number) => unknown]> = {
  imum: ['integer', (size) => size],
  Length: ['string', (size) => 'a'.repeat(size)],
  Items: ['array', (size) => Array.from({ length: size }, () => 'a')],
};

const DEFINITION_WITNESSES: Partial<Record<ChangeKind, fc.Arbitrary<Witness>>> = {
  'property-removed': fc.tuple(others, plain).map(([o, [d, v]]) => ({ before: withOthers(o, { t: d }), after: withOthers(o, {}), rendering: { t: v } })),
  'property-renamed': fc
    .tuple(others, plain)
    .map(([o, [d, v]]) => ({ before: withOthers(o, { t: d }), after: withOthers(o, { u: { ...d, renamedFrom: 't' } }), rendering: { t: v } })),
  'type-changed': fc
    .tuple(
      others,
      fc.constantFrom<[string, string, unknown]>(
        ['string', 'integer', 'a'],
        ['integer', 'string', 1],
        ['boolean', 'string', true],
        ['array', 'object', []],
        ['object', 'array', {}],
        ['number', 'boolean', 0.5],
      ),
    )
    .map(([o, [from, to, v]]) => ({ before: withOthers(o, { t: { type: from } }), after: withOthers(o, { t: { type: to } }), rendering: { t: v } })),
  'type-added': fc
    .tuple(others, fc.constantFrom<[string, unknown]>(['string', 1], ['integer', 'a'], ['boolean', 'a'], ['object', []]))
    .map(([o, [to, v]]) => ({ before: withOthers(o, { t: {} }), after: withOthers(o, { t: { type: to } }), rendering: { t: v } })),
  'type-narrowed': others.map((o) => ({
    before: withOthers(o, { t: { type: 'number' } }),
    after: withOthers(o, { t: { type: 'integer' } }),
    rendering: { t: 0.5 },
  })),
  'made-required': fc
    .tuple(others, plain)
    .map(([o, [d]]) => ({ before: withOthers(o, { t: d }), after: withOthers(o, { t: { ...d, required: true } }), rendering: {} })),
  'required-property-added': fc
    .tuple(others, plain)
    .map(([o, [d]]) => ({ before: withOthers(o, {}), after: withOthers(o, { n: { ...d, required: true } }), rendering: {} })),
  'enum-added': fc.tuple(others, fc.subarray(['a', 'b'], { minLength: 1 })).map(([o, values]) => ({
    before: withOthers(o, { t: { type: 'string' } }),
    after: withOthers(o, { t: { type: 'string', enum: values } }),
    rendering: { t: 'zz' },
  })),
  'enum-value-removed': fc.tuple(others, fc.subarray(['a', 'b', 'c'], { minLength: 2 }), fc.nat()).map(([o, values, i]) => {
    const gone = at(values, i);
    return {
      before: withOthers(o, { t: { type: 'string', enum: values } }),
      after: withOthers(o, { t: { type: 'string', enum: values.filter((v) => v !== gone) } }),
      rendering: { t: gone },
    };
  }),
  'constraint-added': fc
    .tuple(
      others,
      fc.constantFrom<[Declaration, Declaration, unknown]>(
        [{ type: 'string' }, { type: 'string', pattern: '^a' }, 'b'],
        [{ type: 'integer' }, { type: 'integer', minimum: 5 }, 1],
        [{ type: 'string' }, { type: 'string', maxLength: 2 }, 'abc'],
        [{ type: 'array' }, { type: 'array', minItems: 1 }, []],
        [{ type: 'array' }, { type: 'array', maxItems: 1 }, ['a', 'b']],
      ),
    )
    .map(([o, [d, e, v]]) => ({ before: withOthers(o, { t: d }), after: withOthers(o, { t: e }), rendering: { t: v } })),
  'constraint-tightened': fc
    .tuple(
      others,
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 1, max: 3 }),
      fc.constantFrom('minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'),
    )
    .map(([o, base, step, keyword]) => {
      const isLower = keyword.startsWith('min');
      // The old bound leaves room to move it by `step` without going below zero.
      const bound = isLower ? base : base + step;
      const [type, sized] = BOUNDED_SHAPES[keyword.replace(/^(min|max)/, '')]!;
      // A value right at the old bound: accepted before, beyond the new one.
      const value = sized(bound);
      return {
        before: withOthers(o, { t: { type, [keyword]: bound } }),
        after: withOthers(o, { t: { type, [keyword]: isLower ? bound + step : bound - step } }),
        rendering: { t: value },
      };
    }),
  'constraint-changed': others.map((o) => ({
    before: withOthers(o, { t: { type: 'string', pattern: '^a' } }),
    after: withOthers(o, { t: { type: 'string', pattern: '^b' } }),
    rendering: { t: 'a' },
  })),
  closed: others.map((o) => ({
    before: withOthers(o, { t: { type: 'object', additionalProperties: true } }),
    after: withOthers(o, { t: { type: 'object' } }),
    rendering: { t: { zz: 1 } },
  })),
  'subschema-added': others.map((o) => ({
    before: withOthers(o, { t: { type: 'object', additionalProperties: true } }),
    after: withOthers(o, { t: { type: 'object', additionalProperties: { type: 'string' } } }),
    rendering: { t: { zz: 1 } },
  })),
  'introduced-added': fc.oneof(
    fc.tuple(others, plain, fc.constantFrom(...VERSIONS)).map(([o, [d, v], when]) => ({
      before: withOthers(o, { t: d }),
      after: withOthers(o, { t: { ...d, introducedIn: when } }),
      rendering: { t: v },
      platform: { kubernetes: justBelow(when) },
    })),
    fc.tuple(others, fc.constantFrom(...VERSIONS)).map(([o, when]) => ({
      before: withOthers(o, { t: { type: 'string', enum: ['a', 'b'] } }),
      after: withOthers(o, { t: { type: 'string', enum: ['a', 'b'], enumLifecycle: { b: { introducedIn: when } } } }),
      rendering: { t: 'b' },
      platform: { kubernetes: justBelow(when) },
    })),
  ),
  'introduced-later': fc.tuple(others, plain, pairOfVersions).map(([o, [d, v], [early, late]]) => ({
    before: withOthers(o, { t: { ...d, introducedIn: early } }),
    after: withOthers(o, { t: { ...d, introducedIn: late } }),
    rendering: { t: v },
    platform: { kubernetes: justBelow(late) },
  })),
  'removal-added': fc.oneof(
    fc.tuple(others, plain, fc.constantFrom(...VERSIONS)).map(([o, [d, v], when]) => ({
      before: withOthers(o, { t: d }),
      after: withOthers(o, { t: { ...d, removedIn: when } }),
      rendering: { t: v },
      platform: { kubernetes: when },
    })),
    // The capability's own removedIn: a binding of it at that version is unavailable.
    fc.tuple(others, fc.constantFrom(...VERSIONS)).map(([o, when]) => ({
      before: withOthers(o, {}),
      after: withOthers(o, {}, { removedIn: when }),
      rendering: {},
      platform: { kubernetes: when },
    })),
  ),
  'removal-earlier': fc.tuple(others, plain, pairOfVersions).map(([o, [d, v], [early, late]]) => ({
    before: withOthers(o, { t: { ...d, removedIn: late } }),
    after: withOthers(o, { t: { ...d, removedIn: early } }),
    rendering: { t: v },
    platform: { kubernetes: early },
  })),
  'lifecycle-component-changed': fc.tuple(others, plain).map(([o, [d, v]]) => ({
    before: withOthers(o, { t: { ...d, removedIn: '1.33' } }),
    after: withOthers(o, { t: { ...d, removedIn: 'gateway-api 1.2' } }),
    rendering: { t: v },
    platform: { kubernetes: '1.30', 'gateway-api': '1.2' },
  })),
};

const SCHEMA_WITNESSES: Partial<Record<ChangeKind, fc.Arbitrary<SchemaWitness>>> = {
  'const-added': fc.constantFrom('a', 'b').map((c) => ({ before: { type: 'string' }, after: { type: 'string', const: c }, value: `${c}${c}` })),
  'const-changed': fc.constant({ before: { const: 'a' }, after: { const: 'b' }, value: 'a' }),
  'branch-removed': fc.constantFrom<[JsonSchema, unknown]>([{ type: 'integer' }, 1], [{ type: 'boolean' }, true]).map(([branch, value]) => ({
    before: { anyOf: [{ type: 'string' }, branch] },
    after: { anyOf: [{ type: 'string' }] },
    value,
  })),
};

// A default change alters what a rendering means, not whether it is valid; a difference no rule
// names is breaking to be safe, and may change nothing the engine checks.
const WITHOUT_WITNESS: ReadonlySet<ChangeKind> = new Set(['default-added', 'default-changed', 'default-removed', 'keyword-changed']);

describe('compat classification against the engine: every breaking kind has a witness (property)', () => {
  it('has a witness generator for every breaking kind but a default change and an unnamed difference', () => {
    const breaking = (Object.keys(CHANGE_CLASSES) as ChangeKind[]).filter((k) => CHANGE_CLASSES[k] === 'breaking' && !WITHOUT_WITNESS.has(k));
    expect([...Object.keys(DEFINITION_WITNESSES), ...Object.keys(SCHEMA_WITNESSES)].sort()).toEqual(breaking.sort());
  });

  it.each(Object.entries(DEFINITION_WITNESSES))('%s: some profile is valid before and invalid after', (kind, witness) => {
    fc.assert(
      fc.property(witness, ({ before, after, rendering, platform: where }) => {
        fc.pre(compiles(before) && compiles(after));
        const changes = changesBetween(before, after);
        expect(changes.filter((c) => c.kind === kind).map((c) => c.class)).toContain('breaking');
        expect([isValidProfile(before, rendering, where), isValidProfile(after, rendering, where)]).toEqual([true, false]);
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  it.each(Object.entries(SCHEMA_WITNESSES))('%s: some value is valid before and invalid after', (kind, witness) => {
    fc.assert(
      fc.property(witness, ({ before, after, value }) => {
        expect(compareSchemas(before, after).map((c) => [c.kind, c.class])).toContainEqual([kind, 'breaking']);
        const errors = (schema: JsonSchema) => checkSchema(schema, value).issues.filter((i) => i.severity === 'error').length;
        expect([errors(before), errors(after) > 0]).toEqual([0, true]);
      }),
      { numRuns: propertyRuns(20) },
    );
  });
});

// ---- rules that hold for every definition ----

/** A copy of a JSON value with every map's keys in reverse order: the same data, written otherwise. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((k) => [k, reordered((value as Record<string, unknown>)[k])]),
  );
}

/** Edits that only loosen or reword: docs/compat.md calls each compatible or patch. */
const LOOSENING = ['enum-add', 'enum-drop', 'pattern-drop', 'bound-drop', 'open', 'widen', 'lifecycle-drop', 'describe', 'make-optional'] as const;

describe('compat classification: rules for every definition (property)', () => {
  it('finds no difference between a definition and itself, whatever order its keys are written in', () => {
    fc.assert(
      fc.property(version, (v) => {
        const same = compileDefinition(reordered(documentOf(v))).definition!;
        const original = compileDefinition(documentOf(v)).definition!;
        expect(compareDefinitions(original, same)).toEqual({ changes: [], issues: [] });
        expect(compareSchemas(original.schema, reordered(original.schema) as JsonSchema)).toEqual([]);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('never calls loosening or rewording breaking', () => {
    fc.assert(
      fc.property(
        version,
        fc.array(fc.record({ op: fc.constantFrom(...LOOSENING), pick: fc.nat(), value: fc.nat() }), { minLength: 1, maxLength: 4 }),
        (before, edits) => {
          const after = edits.reduce(applyEdit, before);
          fc.pre(compiles(after));
          const breaking = changesBetween(before, after).filter((c) => c.class === 'breaking');
          expect(breaking.map((c) => c.message)).toEqual([]);
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });
});

// ---- which pairs a run compares ----

const RELEASE_POOL = ['0.9.0', '1.0.0', '1.0.1', '1.1.0-rc.1', '1.1.0', '1.2.0', '2.0.0-rc.1', '2.0.0', '10.0.0'];

const BODIES: Properties[] = [
  { image: { type: 'string', required: true } },
  { image: { type: 'string', required: true }, port: { type: 'integer', minimum: 1 } },
  { image: { type: 'string', required: true }, port: { type: 'integer', minimum: 1024 } },
  { image: { type: 'string' } },
  { image: { type: 'string', required: true }, mode: { type: 'string', enum: ['a', 'b'] } },
];

/** A definition file of `cache` at a version. */
function fileOf(versionText: string, body: Properties) {
  return {
    file: `defs/cache-${versionText}.yaml`,
    content: JSON.stringify({ ...documentOf({ properties: body, spec: { version: versionText } }) }),
    origin: 'definition' as const,
  };
}

describe('compat runs: pairs (property)', () => {
  it('compares consecutive releases and each prerelease with the release before it, whatever the order of the files', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...RELEASE_POOL), { minLength: 1, maxLength: RELEASE_POOL.length }).chain((versions) =>
          fc.tuple(
            fc.constant(versions),
            fc.array(fc.constantFrom(...BODIES), { minLength: versions.length, maxLength: versions.length }),
            fc.shuffledSubarray(
              versions.map((_, i) => i),
              { minLength: versions.length },
            ),
          ),
        ),
        ([versions, bodies, order]) => {
          const files = versions.map((v, i) => fileOf(v, bodies[i]!));
          const run = compatOfDefinitions(files, [], catalogue);
          const shuffled = compatOfDefinitions(
            order.map((i) => files[i]!),
            [],
            catalogue,
          );
          expect(shuffled.pairs).toEqual(run.pairs);
          const sorted = RELEASE_POOL.filter((v) => versions.includes(v));
          const releases = sorted.filter((v) => !v.includes('-'));
          const expected = [
            ...releases.slice(1).map((to, i) => [releases[i]!, to]),
            ...sorted
              .filter((v) => v.includes('-'))
              .flatMap((rc) => {
                const before = releases.filter((r) => RELEASE_POOL.indexOf(r) < RELEASE_POOL.indexOf(rc)).at(-1);
                return before === undefined ? [] : [[before, rc]];
              }),
          ].sort((a, b) => RELEASE_POOL.indexOf(a[1]!) - RELEASE_POOL.indexOf(b[1]!));
          expect(run.pairs.map((p) => [p.from, p.to])).toEqual(expected);
          for (const pair of run.pairs) {
            const isPrerelease = pair.to!.includes('-');
            expect(pair.ok).toBe(isPrerelease || bumpCovers(pair.declared!, pair.needed));
          }
        },
      ),
      { numRuns: propertyRuns(150) },
    );
  });
});
