import { canonicalJson } from '../core/canonical-json.js';
import { describeValue } from '../core/data.js';
import type { JsonSchema } from '../core/json-schema.js';
import type { ComparisonRule } from './compare-rules.js';
import * as compare from './compare-rules.js';

/** What the engine does with a keyword. */
export type KeywordRole =
  /** Walked by the engine itself: types, maps, lists, unions, defaults. */
  | 'structure'
  /** A check of one value of one type, declared here with its message. */
  | 'assertion'
  /** Kept for people and tools; never changes a verdict. */
  | 'annotation'
  /**
   * Says at which platform versions a property, an enum value or a capability exists (docs/platform.md): changes a verdict only when a run knows the component's version.
   */
  | 'lifecycle';

/** Where a keyword's value holds subschemas, so every walk over schemas finds them the same way. */
export type Subschemas = 'one' | 'list' | 'map' | 'one-or-boolean';

/**
 * The publisher's rewrites (`src/schema/publish.ts` holds one function per name), each making a
 * keyword's standard meaning equal kurel's or saying kurel's own keywords in standard terms.
 */
export type PublishRule =
  /** `properties`: an optional property also accepts `null` (absent), a required one refuses it. */
  | 'null-as-absent'
  /** `required`: kept; a required key no property declares must not be `null` either. */
  | 'required-not-null'
  /** `dependentRequired`: an `if`/`then` per key, in which a key set to `null` is absent. */
  | 'dependencies-ignore-null'
  /** `pattern`: the RE2 syntax the engine reads, written as ECMAScript (`u`) the standard reads. */
  | 're2-pattern'
  /** `type`: an integer must be exact, within 2^53 (`minimum`/`maximum` added or narrowed). */
  | 'exact-integers'
  /** `x-expected`: what a pattern means, joined to the description. */
  | 'expected-in-description'
  /** The lifecycle keywords: said in the description and given whole in `x-kurel-lifecycle` (docs/json-schema.md). */
  | 'lifecycle-annotation';

/** How a keyword appears in the JSON Schema 2020-12 kurel publishes. */
export type Publication =
  /** Copied as it is (its subschemas published in turn). */
  | 'keep'
  /** kurel's own keyword, with nothing to say in the published schema. */
  | 'omit'
  | PublishRule;

/** How the verdicts of a list of subschemas combine (`allOf`, `anyOf`, `oneOf`): every one, at least one, exactly one. */
export type Combination = 'all' | 'any' | 'one';

/** A keyword the console states beside a field as a limit on its value ("from 1 to 9", "not empty"). */
export type ShownLimit = (node: Readonly<Record<string, unknown>>) => string | undefined;

/** For the lower bound of a pair (`minLength` with `maxLength`): its upper bound, and whether both count something (so may not be negative). */
export interface BoundPair {
  readonly upper: string;
  readonly counts: boolean;
}

/** How `kurel types` (json-schema-to-typescript) reads a keyword. */
export type TypeUse = 'shape' | 'comment' | 'none';

/** The bounds of a lifecycle, in the order they must come. */
export type LifecycleBound = 'introduced' | 'deprecated' | 'removed';

/**
 * What a lifecycle keyword is to gating (check), narrowing (publish at a platform version) and
 * the load-time rules: one bound of the window in which the value exists, the note shown with
 * a deprecation, or the lifecycles of single enum values.
 */
export type LifecycleUse =
  | {
      readonly part: 'bound';
      readonly bound: LifecycleBound;
      /** How descriptions name it: `introduced in` Kubernetes 1.29. */
      readonly phrase: string;
      /** True when the property cannot be written outside this bound (a required property may not have it). */
      readonly isWindowEdge: boolean;
    }
  | { readonly part: 'note' }
  | { readonly part: 'per-value' };

/** Reports a failed assertion: a message about the value, or about an item of it. */
export interface AssertionReport {
  /** The value's name in messages (`issuerRef.name`, `the value`). */
  readonly name: string;
  /** What a `pattern` means, when the schema says (`x-expected`). */
  readonly expected: string | undefined;
  fail(message: string): void;
  /** The name of an item of the value in messages (`ports[2]`). */
  nameAt(index: number): string;
  failAt(index: number, message: string): void;
  /** Matches a pattern with the engine's matcher (linear time for definitions' patterns). */
  matches(pattern: string, value: string): boolean;
}

/** The kinds of value an assertion can judge (an integer is a number). */
export type AssertedKind = 'string' | 'number' | 'array' | 'object';

/** The value an assertion of each kind judges. */
type Judged<K extends AssertedKind> = K extends 'string'
  ? string
  : K extends 'number'
    ? number | bigint
    : K extends 'array'
      ? readonly unknown[]
      : Readonly<Record<string, unknown>>;

/** An assertion on values of the kind its keyword applies to: returns false (after reporting) when the value fails. */
export interface Assertion {
  check(value: never, bound: never, report: AssertionReport): boolean;
}

/** The property types a CapabilityDefinition declares (`spec.rendering`). */
export type DefinitionType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/** One keyword kurel supports, with everything each operation on schemas needs to know of it. */
export interface KeywordDefinition {
  readonly name: string;
  readonly role: KeywordRole;
  /**
   * The kind of value the keyword judges, whether or not the schema writes `type` (JSON Schema
   * 2020-12): other values pass it. Undefined for a keyword that judges every value (`enum`,
   * `const`, `type`, the unions) or none (annotations, lifecycles).
   */
  readonly appliesTo?: AssertedKind;
  /**
   * The property types on which a CapabilityDefinition may write the keyword; undefined: any
   * property whose declaration admits it (the declaration schema says which keywords exist).
   */
  readonly definitions?: readonly DefinitionType[];
  /** True when `kurel crd` copies the keyword into a CustomResourceDefinition's structural schema. */
  readonly crd?: boolean;
  readonly subschemas?: Subschemas;
  /** For a list of subschemas that all judge the value: how their verdicts combine (read by the console and the language server). */
  readonly combines?: Combination;
  /** For a lower bound: the keyword of the upper bound and whether they count (a definition's bounds must not cross, counts not be negative). */
  readonly pair?: BoundPair;
  /** How the console states the keyword under a field, from the published node; undefined when it says nothing there. */
  readonly shown?: ShownLimit;
  /** True for a keyword only the publisher writes (`x-kurel-lifecycle`): a schema given to kurel may not hold it. */
  readonly publishedOnly?: boolean;
  /** For an assertion: how a value is judged. */
  readonly assertion?: Assertion;
  readonly publish: Publication;
  readonly types: TypeUse;
  /** For a lifecycle keyword: what it says about when the value exists. */
  readonly lifecycle?: LifecycleUse;
  /** How a difference in it between two versions of a schema is classed (`kurel compat`, docs/compat.md). */
  readonly compare: ComparisonRule;
}

/** An assertion with the kind of value it judges. */
interface Judge {
  readonly appliesTo: AssertedKind;
  readonly assertion: Assertion;
}

function assertion<K extends AssertedKind, B>(on: K, check: (value: Judged<K>, bound: B, report: AssertionReport) => boolean): Judge {
  return { appliesTo: on, assertion: { check } as unknown as Assertion };
}

// Lengths count code points, as JSON Schema does; counted without building an array.
function codePointLength(value: string): number {
  let length = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        i += 1;
      }
    }
  }
  return length;
}

// An integer beyond 2^53 arrives as a bigint (where the schema writes no type): compared exactly.
function compareToBound(value: number | bigint, bound: number): number {
  if (typeof value === 'number') return Math.sign(value - bound);
  // A fractional bound lies strictly between two integers.
  if (!Number.isInteger(bound)) return value <= BigInt(Math.floor(bound)) ? -1 : 1;
  const exact = BigInt(bound);
  if (value === exact) return 0;
  return value < exact ? -1 : 1;
}

// Decided on the numbers as written in decimal (0.0075 is a multiple of 0.0001), which binary
// division gets wrong; integers beyond 2^53 (bigints) exactly.
function isMultipleOf(value: number | bigint, divisor: number): boolean {
  if (typeof value === 'number' && Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const v = decimalOf(value);
  const d = decimalOf(divisor);
  const exponent = Math.min(v.exponent, d.exponent);
  const scaled = (n: { digits: bigint; exponent: number }) => n.digits * 10n ** BigInt(n.exponent - exponent);
  return scaled(v) % scaled(d) === 0n;
}

/** A finite number as `digits × 10^exponent`, from its shortest decimal form. */
function decimalOf(value: number | bigint): { digits: bigint; exponent: number } {
  if (typeof value === 'bigint') return { digits: value, exponent: 0 };
  const [mantissa = '0', power = '0'] = String(value).toLowerCase().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  return { digits: BigInt(whole + fraction), exponent: Number(power) - fraction.length };
}

const numberBound = (holds: (value: number | bigint, bound: number) => boolean, words: string) =>
  assertion<'number', number>('number', (value, bound, report) => {
    if (holds(value, bound)) return true;
    report.fail(`${report.name} must be ${words} ${bound}, found ${value}`);
    return false;
  });

const structure = (name: string, types: TypeUse, compare: ComparisonRule, subschemas?: Subschemas, publish: Publication = 'keep'): KeywordDefinition => ({
  name,
  role: 'structure',
  publish,
  types,
  compare,
  ...(subschemas ? { subschemas } : {}),
});

const annotation = (name: string, types: TypeUse = 'comment', publish: Publication = 'keep', compare: ComparisonRule = wordsOnly): KeywordDefinition => ({
  name,
  role: 'annotation',
  publish,
  types,
  compare,
});

/** A count's unit, as one and as many: `['item', 'items']`, `['character long', 'characters long']`. */
type CountUnit = readonly [one: string, many: string];

// "1 item", "2 items": a bound of 1 takes the singular.
const counted = (bound: number, [one, many]: CountUnit) => `${bound} ${bound === 1 ? one : many}`;

// "must have at least 2 items", "must be at least 3 characters long": a lower bound on a count.
const minimumCount = <K extends AssertedKind>(
  on: K,
  count: (value: Judged<K>) => number,
  verb: 'be' | 'have',
  unit: CountUnit,
  ofOne?: (name: string) => string,
) =>
  assertion<K, number>(on, (value, bound, report) => {
    const found = count(value);
    if (found >= bound) return true;
    report.fail(bound === 1 && ofOne ? ofOne(report.name) : `${report.name} must ${verb} at least ${counted(bound, unit)}, found ${found}`);
    return false;
  });

const maximumCount = <K extends AssertedKind>(on: K, count: (value: Judged<K>) => number, verb: 'be' | 'have', unit: CountUnit) =>
  assertion<K, number>(on, (value, bound, report) => {
    const found = count(value);
    if (found <= bound) return true;
    report.fail(`${report.name} must ${verb} at most ${counted(bound, unit)}, found ${found}`);
    return false;
  });

const check = (
  name: string,
  judge: Judge,
  compare: ComparisonRule,
  publish: Publication = 'keep',
  definitions?: readonly DefinitionType[],
): KeywordDefinition => ({
  name,
  ...(definitions ? { definitions } : {}),
  role: 'assertion',
  publish,
  types: 'none',
  appliesTo: judge.appliesTo,
  assertion: judge.assertion,
  compare,
});

/** An entry with the kind of value it judges and the definition property types that may write it. */
const typed = (entry: KeywordDefinition, appliesTo: AssertedKind | undefined, definitions?: readonly DefinitionType[]): KeywordDefinition => ({
  ...entry,
  ...(appliesTo ? { appliesTo } : {}),
  ...(definitions ? { definitions } : {}),
});

/** An entry a CustomResourceDefinition's structural schema keeps: Kubernetes reads the keyword as kurel does. */
const inCrd = (entry: KeywordDefinition): KeywordDefinition => ({ ...entry, crd: true });

/** An entry with more of what it is to the operations that read it (how the console shows it, its bound pair, ...). */
const withUse = (entry: KeywordDefinition, use: Pick<KeywordDefinition, 'combines' | 'pair' | 'shown'>): KeywordDefinition => ({ ...entry, ...use });

// A bound as wide as any JSON integer says nothing to a reader.
function shownNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
}

/** The console's phrase for a lower bound with its upper one (`from 1 to 9`, `at least 1`); the upper alone says `at most 9`. */
const shownRange = (low: string, high: string): { lower: ShownLimit; upper: ShownLimit } => ({
  lower: (node) => {
    const min = shownNumber(node[low]);
    const max = shownNumber(node[high]);
    if (min === undefined) return undefined;
    return max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  },
  upper: (node) => {
    const max = shownNumber(node[high]);
    return shownNumber(node[low]) === undefined && max !== undefined ? `at most ${max}` : undefined;
  },
});

/** The console's phrase for a count between two bounds (`3 to 63 characters`, `not empty`, `exactly 2 items`). */
const shownCount = (low: string, high: string, unit: string): { lower: ShownLimit; upper: ShownLimit } => {
  const plural = (n: number) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  return {
    lower: (node) => {
      const min = shownNumber(node[low]);
      const max = shownNumber(node[high]);
      if (min === undefined) return undefined;
      if (min === 1 && max === undefined) return unit === 'character' ? 'not empty' : `at least ${plural(1)}`;
      if (max !== undefined) return min === max ? `exactly ${plural(min)}` : `${min} to ${plural(max)}`;
      return min > 0 ? `at least ${plural(min)}` : undefined;
    },
    upper: (node) => {
      const max = shownNumber(node[high]);
      return shownNumber(node[low]) === undefined && max !== undefined ? `at most ${plural(max)}` : undefined;
    },
  };
};

/** The console's phrase for a keyword holding one number (`greater than 0`). */
const shownWith =
  (name: string, words: string): ShownLimit =>
  (node) => {
    const value = shownNumber(node[name]);
    return value === undefined ? undefined : `${words} ${value}`;
  };

const RANGE = shownRange('minimum', 'maximum');
const LENGTH = shownCount('minLength', 'maxLength', 'character');
const ITEM_COUNT = shownCount('minItems', 'maxItems', 'item');
const KEY_COUNT = shownCount('minProperties', 'maxProperties', 'key');

const STRING: readonly DefinitionType[] = ['string'];
const NUMBERS: readonly DefinitionType[] = ['integer', 'number'];
const ARRAY: readonly DefinitionType[] = ['array'];
const OBJECT: readonly DefinitionType[] = ['object'];

// Folded into the published description by the publisher ("introduced in Kubernetes 1.29"),
// so tools that do not know the keyword still show it; narrowing removes or marks what it gates.
const lifecycle = (name: string, use: LifecycleUse, compare: ComparisonRule): KeywordDefinition => ({
  name,
  role: 'lifecycle',
  publish: 'lifecycle-annotation',
  types: 'none',
  lifecycle: use,
  compare,
});

/** The keyword naming a definition property's name in the previous version (docs/migrate.md). */
export const RENAMED_FROM = 'renamedFrom';

/** The annotation in which the publisher gives a node's lifecycle whole (docs/json-schema.md). */
export const LIFECYCLE_ANNOTATION = 'x-kurel-lifecycle';

const { wordsOnly } = compare;

/**
 * Every keyword kurel's engine knows, in the order its assertions run. A keyword not listed
 * here is refused in a plugin's schema; adding one is adding an entry.
 */
export const KEYWORDS: readonly KeywordDefinition[] = [
  structure('type', 'shape', compare.types, undefined, 'exact-integers'),
  typed(structure('properties', 'shape', compare.properties, 'map', 'null-as-absent'), 'object', OBJECT),
  typed(structure('required', 'shape', compare.requiredKeys, undefined, 'required-not-null'), 'object'),
  typed(structure('additionalProperties', 'shape', compare.undeclared, 'one-or-boolean'), 'object', OBJECT),
  typed(structure('propertyNames', 'none', compare.subschema, 'one'), 'object'),
  typed(structure('dependentRequired', 'none', compare.dependencies, undefined, 'dependencies-ignore-null'), 'object'),
  typed(structure('items', 'shape', compare.subschema, 'one'), 'array', ARRAY),
  typed(structure('enum', 'shape', compare.choices), undefined, ['string', 'integer', 'number', 'boolean']),
  structure('const', 'shape', compare.literal),
  withUse(structure('anyOf', 'shape', compare.union, 'list'), { combines: 'any' }),
  withUse(structure('oneOf', 'shape', compare.union, 'list'), { combines: 'one' }),
  withUse(structure('allOf', 'shape', compare.everyPart, 'list'), { combines: 'all' }),
  structure('default', 'comment', compare.meaning),
  withUse(
    inCrd(
      check(
        'minLength',
        minimumCount('string', codePointLength, 'be', ['character long', 'characters long'], (name) => `${name} must not be empty`),
        compare.lowerBound,
        'keep',
        STRING,
      ),
    ),
    { pair: { upper: 'maxLength', counts: true }, shown: LENGTH.lower },
  ),
  withUse(inCrd(check('maxLength', maximumCount('string', codePointLength, 'be', ['character long', 'characters long']), compare.upperBound, 'keep', STRING)), {
    shown: LENGTH.upper,
  }),
  withUse(
    inCrd(
      check(
        'pattern',
        assertion<'string', string>('string', (value, pattern, report) => {
          if (report.matches(pattern, value)) return true;
          report.fail(`${report.name} must be ${report.expected ?? `a string matching ${pattern}`}, found ${describeValue(value)}`);
          return false;
        }),
        compare.opaqueConstraint,
        're2-pattern',
        STRING,
      ),
    ),
    { shown: (node) => (typeof node['pattern'] === 'string' ? `matches ${node['pattern']}` : undefined) },
  ),
  withUse(
    inCrd(
      check(
        'minimum',
        numberBound((v, b) => compareToBound(v, b) >= 0, 'at least'),
        compare.lowerBound,
        'keep',
        NUMBERS,
      ),
    ),
    { pair: { upper: 'maximum', counts: false }, shown: RANGE.lower },
  ),
  withUse(
    inCrd(
      check(
        'maximum',
        numberBound((v, b) => compareToBound(v, b) <= 0, 'at most'),
        compare.upperBound,
        'keep',
        NUMBERS,
      ),
    ),
    { shown: RANGE.upper },
  ),
  withUse(
    check(
      'exclusiveMinimum',
      numberBound((v, b) => compareToBound(v, b) > 0, 'greater than'),
      compare.lowerBound,
    ),
    { shown: shownWith('exclusiveMinimum', 'greater than') },
  ),
  withUse(
    check(
      'exclusiveMaximum',
      numberBound((v, b) => compareToBound(v, b) < 0, 'less than'),
      compare.upperBound,
    ),
    { shown: shownWith('exclusiveMaximum', 'less than') },
  ),
  withUse(check('multipleOf', numberBound(isMultipleOf, 'a multiple of'), compare.divisor), { shown: shownWith('multipleOf', 'a multiple of') }),
  withUse(
    inCrd(
      check(
        'minItems',
        minimumCount('array', (list) => list.length, 'have', ['item', 'items']),
        compare.lowerBound,
        'keep',
        ARRAY,
      ),
    ),
    { pair: { upper: 'maxItems', counts: true }, shown: ITEM_COUNT.lower },
  ),
  withUse(
    inCrd(
      check(
        'maxItems',
        maximumCount('array', (list) => list.length, 'have', ['item', 'items']),
        compare.upperBound,
        'keep',
        ARRAY,
      ),
    ),
    { shown: ITEM_COUNT.upper },
  ),
  withUse(
    check(
      'uniqueItems',
      assertion<'array', boolean>('array', (value, unique, report) => {
        if (!unique) return true;
        const seen = new Set<string>();
        let ok = true;
        for (const [index, item] of value.entries()) {
          const key = canonicalJson(item);
          if (seen.has(key)) {
            report.failAt(index, `${report.nameAt(index)} repeats an earlier item; items must be unique`);
            ok = false;
          }
          seen.add(key);
        }
        return ok;
      }),
      compare.strictFlag,
    ),
    { shown: (node) => (node['uniqueItems'] === true ? 'no repeated items' : undefined) },
  ),
  withUse(
    check(
      'minProperties',
      minimumCount('object', (map) => Object.keys(map).length, 'have', ['entry', 'entries']),
      compare.lowerBound,
    ),
    { shown: KEY_COUNT.lower },
  ),
  withUse(
    check(
      'maxProperties',
      maximumCount('object', (map) => Object.keys(map).length, 'have', ['entry', 'entries']),
      compare.upperBound,
    ),
    { shown: KEY_COUNT.upper },
  ),
  annotation('description'),
  annotation('title'),
  annotation('examples'),
  annotation('deprecated', 'comment', 'keep', compare.warningOnly),
  annotation('readOnly'),
  annotation('writeOnly'),
  annotation('$comment', 'none'),
  annotation('$schema', 'none'),
  annotation('$id', 'none'),
  annotation('x-expected', 'none', 'expected-in-description'),
  annotation('x-bare-number-unit', 'none', 'omit'),
  lifecycle('introducedIn', { part: 'bound', bound: 'introduced', phrase: 'introduced in', isWindowEdge: true }, compare.lifecycleBound('introduced')),
  lifecycle('deprecatedIn', { part: 'bound', bound: 'deprecated', phrase: 'deprecated in', isWindowEdge: false }, compare.lifecycleBound('deprecated')),
  lifecycle('removedIn', { part: 'bound', bound: 'removed', phrase: 'removed in', isWindowEdge: true }, compare.lifecycleBound('removed')),
  lifecycle('deprecationNote', { part: 'note' }, wordsOnly),
  typed(
    lifecycle(
      'enumLifecycle',
      { part: 'per-value' },
      // Read when a comparison runs: the bounds are the entries above.
      compare.perValueLifecycle(() => ({ bounds: new Map(LIFECYCLE_BOUNDS.map((k) => [k.name, k.lifecycle.bound])), note: LIFECYCLE_NOTE })),
    ),
    undefined,
    STRING,
  ),
  // docs/migrate.md: the property is the previous version's <old> under a new name. Pairs properties
  // for migrate and compat; never changes a verdict.
  annotation(RENAMED_FROM, 'none', 'omit', compare.pairingOnly),
  // Written by the publisher from the lifecycle keywords above, for tools to read without parsing
  // descriptions (the console); Kubernetes does not know it, so `kurel crd` leaves it out.
  { ...annotation(LIFECYCLE_ANNOTATION, 'none', 'lifecycle-annotation'), publishedOnly: true },
];

/**
 * The order of keys in a published schema (`kurel schema`): readers see what a value is before
 * how it is checked; other keys follow in the order written. `patternProperties` is TypeBox's
 * for a record (the ClusterProfile's maps), published as it is.
 */
export const PUBLISHED_ORDER: readonly string[] = [
  '$schema',
  '$id',
  'title',
  'description',
  'type',
  'const',
  'enum',
  'default',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'required',
];

/** The keyword definitions by name. */
export const KEYWORD_TABLE: ReadonlyMap<string, KeywordDefinition> = new Map(KEYWORDS.map((k) => [k.name, k]));

/** The keywords that hold subschemas, by how they hold them. */
export function subschemasOf(schema: JsonSchema): { keyword: string; key: string | number | undefined; schema: JsonSchema }[] {
  const out: { keyword: string; key: string | number | undefined; schema: JsonSchema }[] = [];
  for (const keyword of Object.keys(schema)) {
    const shape = KEYWORD_TABLE.get(keyword)?.subschemas;
    const value = schema[keyword];
    if (!shape || typeof value !== 'object' || value === null) continue;
    if (shape === 'map') for (const [key, sub] of Object.entries(value as Record<string, JsonSchema>)) out.push({ keyword, key, schema: sub });
    else if (shape === 'list' && Array.isArray(value)) {
      for (const [i, sub] of (value as JsonSchema[]).entries()) out.push({ keyword, key: i, schema: sub });
    } else if (!Array.isArray(value)) out.push({ keyword, key: undefined, schema: value as JsonSchema });
  }
  return out;
}

/** The lifecycle keywords that bound a window (`introducedIn`, `deprecatedIn`, `removedIn`), in bound order. */
export const LIFECYCLE_BOUNDS: readonly (KeywordDefinition & { lifecycle: Extract<LifecycleUse, { part: 'bound' }> })[] = KEYWORDS.filter(
  (k): k is KeywordDefinition & { lifecycle: Extract<LifecycleUse, { part: 'bound' }> } => k.lifecycle?.part === 'bound',
);

/** The keyword holding a lifecycle's note (`deprecationNote`). */
export const LIFECYCLE_NOTE = KEYWORDS.find((k) => k.lifecycle?.part === 'note')!.name;

/** The keyword holding the lifecycles of single enum values (`enumLifecycle`). */
export const ENUM_LIFECYCLE = KEYWORDS.find((k) => k.lifecycle?.part === 'per-value')!.name;

/** The keyword holding the schemas of named properties (`properties`): the one whose subschemas are a map. */
export const PROPERTIES_KEYWORD = KEYWORDS.find((k) => k.subschemas === 'map')!.name;

/** The keywords whose lists of subschemas combine, by how their verdicts do (`allOf`, `anyOf`, `oneOf`). */
export const COMBINING: Readonly<Record<Combination, string>> = {
  all: KEYWORDS.find((k) => k.combines === 'all')!.name,
  any: KEYWORDS.find((k) => k.combines === 'any')!.name,
  one: KEYWORDS.find((k) => k.combines === 'one')!.name,
};

/** The keywords holding one subschema (`additionalProperties`, `propertyNames`, `items`), in table order. */
export const SINGLE_SUBSCHEMA: readonly string[] = KEYWORDS.filter((k) => k.subschemas === 'one' || k.subschemas === 'one-or-boolean').map((k) => k.name);

/** The keywords holding subschemas that a CapabilityDefinition may write (`properties`, `additionalProperties`, `items`), with how they hold them. */
export const DEFINITION_SUBSCHEMAS: ReadonlyMap<string, Subschemas> = new Map(
  KEYWORDS.flatMap((k) => (k.subschemas !== undefined && k.definitions !== undefined ? [[k.name, k.subschemas] as const] : [])),
);

/** The names of every supported keyword. */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set(KEYWORD_TABLE.keys());
