import fc from 'fast-check';
import { stringify, type ToStringOptions } from 'yaml';
import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import type { JsonSchema } from '../../src/core/json-schema.js';

/** Keys that must stay plain data wherever they appear. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Every key a built-in schema declares, so generated maps often hit real fields (and near misses). */
const KNOWN_KEYS = [
  ...new Set(
    BUILTIN_HANDLERS.flatMap((h) => (h.renderingSchema ? keysOf(h.renderingSchema) : [])).concat([
      'apiVersion',
      'kind',
      'metadata',
      'name',
      'spec',
      'gitopsEngine',
      'capabilities',
      'rendering',
    ]),
  ),
].sort();

/** Sets an own property, `__proto__` included, without touching a prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A plain map built from entries; later entries win, as in YAML data after a merge. */
export function mapOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) setOwn(out, key, value);
  return out;
}

/** Map keys: real field names, near misses, prototype names and arbitrary strings. */
export const mapKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KNOWN_KEYS) },
  { weight: 1, arbitrary: fc.constantFrom(...KNOWN_KEYS).map((k) => k.slice(0, -1)) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
);

/** Scalars as the YAML reader produces them: integers beyond 2^53 are bigints. */
export const scalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 16 }),
  fc.constantFrom('', 'ingress', 'gateway', 'nginx', '1h', 'yes', 'true', '0x1f', '1d'),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.tuple(fc.boolean(), fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 80n })).map(([negative, n]) => (negative ? -n : n)),
);

/** Arbitrary data of the shapes YAML gives: maps (with hostile keys), lists and scalars. */
export const data: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(mapKey, tie('value')), { maxLength: 5 }).map(mapOf),
  ),
})).value;

/**
 * Values a schema accepts (when `valid`), or values near them: each node may instead be
 * arbitrary data, a null, or carry an extra key.
 */
export function forSchema(schema: JsonSchema, valid: boolean): fc.Arbitrary<unknown> {
  const exact = exactFor(schema, valid);
  if (valid) return exact;
  return fc.oneof({ weight: 6, arbitrary: exact }, { weight: 1, arbitrary: data }, { weight: 1, arbitrary: fc.constant(null) });
}

function exactFor(schema: JsonSchema, valid: boolean): fc.Arbitrary<unknown> {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => forSchema(b, valid)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'array':
      return fc.array(schema.items ? forSchema(schema.items, valid) : data, { maxLength: 3 });
    case 'object':
      return objectFor(schema, valid);
    default:
      return data;
  }
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const base = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern, 'u'))
    : fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('nginx', 'letsencrypt', 'gp3', 'ClusterIssuer'));
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  return base.filter((s) => [...s].length >= min && [...s].length <= max);
}

function objectFor(schema: JsonSchema, valid: boolean): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const declared = fc.record(Object.fromEntries(Object.keys(properties).map((key) => [key, forSchema(properties[key]!, valid)])), {
    requiredKeys: Object.keys(properties).filter((k) => required.has(k)),
  }) as fc.Arbitrary<Record<string, unknown>>;
  const open = schema.additionalProperties === true || typeof schema.additionalProperties === 'object';
  const extra = valid && !open ? fc.constant([] as [string, unknown][]) : fc.array(fc.tuple(mapKey, data), { maxLength: valid ? 3 : 2 });
  return fc.tuple(declared, extra).map(([known, more]) => {
    const out = mapOf([...more.filter(([k]) => !Object.hasOwn(properties, k) || !valid), ...Object.entries(known)]);
    // A key that needs another (authSigninURL needs authURL) is dropped when that one is absent.
    if (valid) {
      for (const [key, needs] of Object.entries(schema.dependentRequired ?? {})) {
        if (Object.hasOwn(out, key) && needs.some((n) => !Object.hasOwn(out, n))) delete out[key];
      }
    }
    return out;
  });
}

function keysOf(schema: JsonSchema): string[] {
  const own = Object.keys(schema.properties ?? {});
  const nested = [...Object.values(schema.properties ?? {}), ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.items ? [schema.items] : [])].flatMap(
    keysOf,
  );
  return [...own, ...nested];
}

/** A DNS-1123 label: what a capability type or metadata.name may be. */
const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?$/);

/** A rendering a built-in handler accepts, keyed by its type (pass-through types take open maps). */
export const validBinding: fc.Arbitrary<[type: string, rendering: unknown]> = fc.oneof(
  ...BUILTIN_HANDLERS.map((handler) =>
    (handler.renderingSchema ? forSchema(handler.renderingSchema, true) : fc.array(fc.tuple(mapKey, data), { maxLength: 4 }).map(mapOf)).map(
      (rendering) => [handler.type, rendering] as [string, unknown],
    ),
  ),
);

/** A ClusterProfile (as data) that lints without errors with the built-in handlers (a pass-through rendering warns). */
export const validProfile: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      name: label,
      gitopsEngine: fc.constant('fluxcd'),
      bindings: fc.array(fc.tuple(validBinding, fc.option(label, { nil: undefined }), fc.boolean()), { maxLength: 6 }),
    },
    { requiredKeys: ['name', 'bindings'] },
  )
  .map(({ name, gitopsEngine, bindings }) => {
    const capabilities: Record<string, unknown> = {};
    for (const [[type, rendering], scope, bare] of bindings) {
      const key = scope ? `${type}.${scope}` : type;
      // A binding with an empty rendering may be written with none at all.
      setOwn(capabilities, key, bare && isEmptyMap(rendering) ? null : { rendering });
    }
    const spec: Record<string, unknown> = { capabilities };
    if (gitopsEngine) spec['gitopsEngine'] = gitopsEngine;
    return { apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfile', metadata: { name }, spec };
  });

/**
 * Serialisation options of the `yaml` package worth varying: flow or block, quoting, width.
 * (`indentSeq: false` is left out: the package then writes an empty `[]` value on the line
 * after its key, at the key's indentation, which no YAML reader accepts.)
 */
export const stringifyOptions: fc.Arbitrary<ToStringOptions> = fc.record({
  collectionStyle: fc.constantFrom('any', 'block', 'flow'),
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'),
  defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE'),
  indent: fc.constantFrom(2, 4),
  lineWidth: fc.constantFrom(0, 40, 80),
}) as fc.Arbitrary<ToStringOptions>;

/** Pieces of YAML syntax and near-valid content that edits splice into a text. */
const TOKENS = [
  ':',
  ': ',
  '- ',
  '\n',
  '\n  ',
  '  ',
  '\t',
  '[',
  ']',
  '{',
  '}',
  ', ',
  '&a ',
  '*a',
  '<<: *a',
  '"',
  "'",
  '# x',
  '---\n',
  '...\n',
  '? ',
  '|',
  '>',
  '!',
  '!!str ',
  '%YAML 1.2\n',
  '@',
  '`',
  '~',
  'null',
  '123',
  '1.5',
  '9007199254740993',
  'yes',
  '\r\n',
  'é',
  '\u{1F600}',
  ...KNOWN_KEYS.map((k) => `${k}: `),
  ...PROTOTYPE_KEYS.map((k) => `${k}: `),
];

/** One edit of a text: insert a token, delete a span, or repeat a line (a duplicate key). */
type Edit = { at: number; kind: 'insert'; token: string } | { at: number; kind: 'delete'; length: number } | { at: number; kind: 'repeat-line' };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ at: fc.nat(), kind: fc.constant('insert' as const), token: fc.constantFrom(...TOKENS) }),
  fc.record({ at: fc.nat(), kind: fc.constant('delete' as const), length: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ at: fc.nat(), kind: fc.constant('repeat-line' as const) }),
);

function applyEdit(text: string, e: Edit): string {
  const at = text.length === 0 ? 0 : e.at % (text.length + 1);
  if (e.kind === 'insert') return text.slice(0, at) + e.token + text.slice(at);
  if (e.kind === 'delete') return text.slice(0, at) + text.slice(at + e.length);
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const end = text.indexOf('\n', at);
  const line = text.slice(start, end === -1 ? text.length : end + 1);
  return text.slice(0, start) + line + (line.endsWith('\n') ? '' : '\n') + text.slice(start);
}

/** Profile texts near valid ones: a valid profile serialised, then edited a few times. */
export const editedProfileText: fc.Arbitrary<string> = fc
  .tuple(validProfile, stringifyOptions, fc.array(edit, { minLength: 1, maxLength: 4 }))
  .map(([profile, options, edits]) => edits.reduce(applyEdit, stringify(profile, options)));

/** Texts made of YAML syntax pieces in any order. */
export const yamlishText: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 6 })), { maxLength: 40 })
  .map((parts) => parts.join(''));

function isEmptyMap(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
