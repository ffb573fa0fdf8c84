import { appendAll, describeKey, describeLiteral, describeLiterals, describeValue, isMap, joinOr, setOwn } from '../core/data.js';
import { describePath, error, type Issue, type Path } from '../core/diagnostics.js';
import { hasType, type JsonSchema, type JsonType } from '../core/json-schema.js';
import { didYouMean } from '../core/suggest.js';
import { equalData } from './equal-data.js';
import { type AssertedKind, type AssertionReport, KEYWORDS } from './keywords.js';
import { isUnavailable, judgeLifecycle, type Lifecycle, lifecycleIssue, readEnumLifecycles, readLifecycle } from './lifecycle.js';
import { currentPatternMatcher } from './pattern-matcher.js';
import { isEmptyPlatform, type Platform } from './platform-version.js';
import { discriminatorKey, literalOf } from './unions.js';
import { chargeWork, VISIT_STEPS } from './work-budget.js';

/** The outcome of a check: a new value with defaults applied, and every issue found. */
export interface CheckResult {
  value: unknown;
  issues: Issue[];
}

interface Discriminated {
  key: string;
  branches: Map<unknown, JsonSchema>;
  /** Every key any branch declares, for telling "not allowed here" from "unknown". */
  allKeys: Set<string>;
  /** Per key, the branches that declare it: what a key is checked against when no branch is chosen. */
  declaring: Map<string, JsonSchema[]>;
  /** Per branch tag, the keys only the other branches declare (filled on first use). */
  siblingKeys: Map<unknown, ReadonlySet<string>>;
}

interface Branch {
  key: string;
  value: unknown;
  /** Keys declared by the other branches. */
  siblingKeys: ReadonlySet<string>;
}

const discriminatedCache = new WeakMap<readonly JsonSchema[], Discriminated | null>();

/** Options of {@link checkSchema}. */
export interface CheckOptions {
  /**
   * The versions of the cluster's platform components (docs/platform.md). A property or enum value
   * outside its lifecycle at the component's version is `field-unavailable`, a deprecated one
   * `field-deprecated`, and a default applies only where its property exists. Components
   * without a version gate nothing.
   */
  platform?: Platform | undefined;
}

// The platform of the check in progress, kept here rather than passed down: it is fixed for a
// whole check, which runs synchronously, so the engine's recursive calls need not each carry
// it. A check started inside another (a handler's own) restores the outer one's when done.
let activePlatform: Platform | undefined;

/**
 * Checks `value` against `schema` and applies defaults. Returns a new value (maps and lists
 * rebuilt, never the input mutated; a map under an open schema with nothing to check or
 * default is returned as it is) and every issue, with paths relative to `value`.
 * `null` for an optional property means absent; for a required one it is missing.
 */
export function checkSchema(schema: JsonSchema, value: unknown, options: CheckOptions = {}): CheckResult {
  const issues: Issue[] = [];
  const path: (string | number)[] = [];
  const outer = activePlatform;
  activePlatform = isEmptyPlatform(options.platform) ? undefined : options.platform;
  try {
    const out = visit(compile(schema), value, path, issues, undefined);
    return { value: out, issues };
  } finally {
    activePlatform = outer;
  }
}

const compiledCache = new WeakMap<JsonSchema, CompiledNode>();
const compiledNodes = new WeakSet<JsonSchema>();

/** One assertion of a node: the keyword's check and the schema's bound for it. */
interface BoundAssertion {
  check(value: unknown, bound: unknown, report: AssertionReport): boolean;
  bound: unknown;
}

/** A schema node as the engine reads it: one fixed shape, assertions grouped by the kind of value they judge. */
interface CompiledNode extends JsonSchema {
  readonly assertions: Readonly<Record<AssertedKind, readonly BoundAssertion[]>>;
  /** When the node exists, read once from its lifecycle keywords (as a property of its parent). */
  readonly lifecycle: Lifecycle | undefined;
  /** When single values of its enum exist. */
  readonly enumLifecycles: ReadonlyMap<string, Lifecycle> | undefined;
  /** True for the boolean schema `false`, which no value satisfies. */
  readonly refusesAll?: boolean;
}

const ASSERTIONS = KEYWORDS.filter((k) => k.assertion !== undefined);
const NO_ASSERTIONS: readonly BoundAssertion[] = [];

// The boolean schemas: `true` accepts every value, `false` none.
const ANYTHING = compile({});
const NOTHING: CompiledNode = { ...compile({ description: 'no value is allowed here' }), refusesAll: true };
compiledNodes.add(NOTHING);

/**
 * Normalises a schema once into objects of one fixed shape, sub-schemas included. TypeBox
 * schemas come in many shapes; the engine reads a dozen keywords per node, and reads that all
 * hit one hidden class are several times cheaper (docs/performance.md: checks within 0.05x the parse).
 */
function compile(schema: JsonSchema | boolean): CompiledNode {
  if (schema === true) return ANYTHING;
  if (schema === false) return NOTHING;
  if (typeof schema !== 'object' || schema === null || compiledNodes.has(schema)) return schema as CompiledNode;
  const cached = compiledCache.get(schema);
  if (cached) return cached;
  const assertions: Record<AssertedKind, BoundAssertion[]> = { string: [], number: [], array: [], object: [] };
  for (const keyword of ASSERTIONS) {
    const bound = schema[keyword.name];
    if (bound === undefined) continue;
    assertions[keyword.appliesTo!].push({ check: keyword.assertion!.check as BoundAssertion['check'], bound });
  }
  const node: CompiledNode = {
    type: schema.type,
    properties: undefined,
    required: schema.required,
    additionalProperties: undefined,
    propertyNames: undefined,
    dependentRequired: schema.dependentRequired,
    items: undefined,
    enum: schema.enum,
    const: schema.const,
    anyOf: undefined,
    oneOf: undefined,
    allOf: undefined,
    default: schema.default,
    description: schema.description,
    title: schema.title,
    'x-expected': schema['x-expected'],
    'x-bare-number-unit': schema['x-bare-number-unit'],
    assertions: {
      string: assertions.string.length ? assertions.string : NO_ASSERTIONS,
      number: assertions.number.length ? assertions.number : NO_ASSERTIONS,
      array: assertions.array.length ? assertions.array : NO_ASSERTIONS,
      object: assertions.object.length ? assertions.object : NO_ASSERTIONS,
    },
    lifecycle: readLifecycle(schema),
    enumLifecycles: readEnumLifecycles(schema),
  };
  // Cached before the children, so a schema reached again through itself stays finite.
  compiledCache.set(schema, node);
  compiledNodes.add(node);
  if (schema.properties) {
    const properties: Record<string, JsonSchema> = {};
    for (const key of Object.keys(schema.properties)) setOwn(properties, key, compile(schema.properties[key]!));
    node.properties = properties;
  }
  const additional = schema.additionalProperties;
  node.additionalProperties = typeof additional === 'object' && additional !== null ? compile(additional) : additional;
  if (schema.propertyNames !== undefined) node.propertyNames = compile(schema.propertyNames);
  if (schema.items !== undefined) node.items = compile(schema.items);
  if (schema.anyOf) node.anyOf = schema.anyOf.map(compile);
  if (schema.oneOf) node.oneOf = schema.oneOf.map(compile);
  if (schema.allOf) node.allOf = schema.allOf.map(compile);
  return node;
}

/**
 * Runs a node's assertions of one kind on a value. A scalar gets one complaint (the first
 * failing assertion); a list or a map gets every one.
 */
function runAssertions(
  list: readonly BoundAssertion[],
  value: unknown,
  schema: JsonSchema,
  path: (string | number)[],
  issues: Issue[],
  stopAtFirst: boolean,
): boolean {
  if (list.length === 0) return true;
  const report = reportAt(schema, path, issues);
  let ok = true;
  for (const { check, bound } of list) {
    if (check(value, bound, report)) continue;
    ok = false;
    if (stopAtFirst) break;
  }
  return ok;
}

function reportAt(schema: JsonSchema, path: (string | number)[], issues: Issue[]): AssertionReport {
  return new Report(schema, path, issues);
}

// Made for every checked value that has assertions, most of which pass: the value's name is
// built only when a message needs it.
class Report implements AssertionReport {
  constructor(
    private readonly schema: JsonSchema,
    private readonly path: (string | number)[],
    private readonly issues: Issue[],
  ) {}

  get name(): string {
    return nameOf(this.path);
  }

  get expected(): string | undefined {
    return this.schema['x-expected'];
  }

  fail(message: string): void {
    this.issues.push(error('invalid-value', this.path.slice(), message));
  }

  nameAt(index: number): string {
    return nameOf([...this.path, index]);
  }

  failAt(index: number, message: string): void {
    this.issues.push(error('invalid-value', [...this.path, index], message));
  }

  matches(pattern: string, value: string): boolean {
    return currentPatternMatcher().test(pattern, value);
  }
}

function visit(schema: JsonSchema, value: unknown, path: (string | number)[], issues: Issue[], branch: Branch | undefined): unknown {
  // Schema nodes × data nodes, counted for a judgement that must stay short (work-budget.ts).
  chargeWork(VISIT_STEPS);
  if ((schema as CompiledNode).refusesAll) {
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} is not allowed here: its schema is false`));
    return value;
  }
  if (schema.allOf) {
    let current = value;
    for (const part of schema.allOf) current = visit(part, current, path, issues, branch);
    value = current;
  }
  if (schema.anyOf || schema.oneOf) {
    // Both unions must hold, and then the node's own keywords (JSON Schema reads them together).
    const sub: Issue[] = [];
    if (schema.anyOf) value = visitUnion(schema.anyOf, false, value, path, sub);
    if (schema.oneOf && countErrors(sub) === 0) value = visitUnion(schema.oneOf, true, value, path, sub);
    appendAll(issues, sub);
    if (countErrors(sub) > 0) return value;
  }
  if (schema.type !== undefined && !matchesType(schema.type, value)) {
    reportType(schema, value, path, issues);
    return value;
  }
  if (schema.const !== undefined && !equalData(schema.const, value)) {
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must be ${describeLiteral(schema.const)}, found ${describeValue(value)}`));
    return value;
  }
  if (schema.enum !== undefined && !inEnum(schema.enum, value)) {
    const hint = typeof value === 'string' ? didYouMean(value, enumIndex(schema.enum).strings) : undefined;
    issues.push(
      error(
        'invalid-value',
        path.slice(),
        `${nameOf(path)} must be one of ${describeLiterals(schema.enum)}, found ${describeValue(value)}`,
        hint ? { hint } : {},
      ),
    );
    return value;
  }
  const { assertions, enumLifecycles } = schema as CompiledNode;
  if (enumLifecycles !== undefined && activePlatform !== undefined && typeof value === 'string') {
    const judgement = judgeLifecycle(enumLifecycles.get(value), activePlatform);
    const issue = lifecycleIssue(judgement, `${nameOf(path)} value ${JSON.stringify(value)}`, path.slice(), 'value');
    if (issue) issues.push(issue);
    if (isUnavailable(judgement)) return value;
  }
  if (typeof value === 'string') runAssertions(assertions.string, value, schema, path, issues, true);
  else if (typeof value === 'number' || typeof value === 'bigint') checkNumber(schema, value, path, issues);
  else if (Array.isArray(value)) return visitArray(schema, value, path, issues);
  // A map's keywords apply whether or not the schema says `type: object`.
  else if (isMap(value)) return visitObject(schema, value, path, issues, branch);
  return value;
}

const NO_KEYS: readonly string[] = [];
const NO_PROPERTIES: Readonly<Record<string, JsonSchema>> = {};

/** What visiting a map under an object schema takes, worked out once per schema. */
interface ObjectPlan {
  /** Declared properties that have a default. */
  defaulted: readonly string[];
  /** Any key and value is accepted as it is: nothing to check, nothing to default. */
  isUnchecked: boolean;
  /** True when a declared property has a lifecycle (it may be gated at a platform). */
  hasLifecycles: boolean;
}

const planCache = new WeakMap<JsonSchema, ObjectPlan>();

function objectPlan(schema: JsonSchema): ObjectPlan {
  let plan = planCache.get(schema);
  if (!plan) {
    const properties = schema.properties ?? NO_PROPERTIES;
    const additional = schema.additionalProperties;
    plan = {
      defaulted: Object.keys(properties).filter((key) => properties[key]!.default !== undefined),
      isUnchecked:
        Object.keys(properties).length === 0 &&
        (additional === undefined || additional === true) &&
        (schema.required ?? NO_KEYS).length === 0 &&
        schema.propertyNames === undefined &&
        (schema as CompiledNode).assertions.object.length === 0 &&
        schema.dependentRequired === undefined,
      hasLifecycles: Object.keys(properties).some((key) => (properties[key] as CompiledNode).lifecycle !== undefined),
    };
    planCache.set(schema, plan);
  }
  return plan;
}

function visitObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  path: (string | number)[],
  issues: Issue[],
  branch: Branch | undefined,
): Record<string, unknown> {
  const plan = objectPlan(schema);
  // A copy would hold the same keys and values; on a large profile every copy that outlives a
  // minor collection costs the collector more than the check itself (open renderings, podSelector).
  if (plan.isUnchecked) return value;
  const properties = schema.properties ?? NO_PROPERTIES;
  const required = schema.required ?? NO_KEYS;
  const additional = schema.additionalProperties;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  const gates = plan.hasLifecycles && activePlatform !== undefined;
  runAssertions((schema as CompiledNode).assertions.object, value, schema, path, issues, false);
  for (const key of keys) {
    const item = value[key];
    path.push(key);
    if (schema.propertyNames) checkPropertyName(schema.propertyNames, key, path, issues);
    if (Object.hasOwn(properties, key)) {
      if (gates && !isWrittenAvailable(properties[key] as CompiledNode, path, issues)) {
        // Like an unknown key, a key the platform lacks is reported even as null; what is
        // inside it is not looked at: only the outermost is reported.
        setOwn(out, key, item);
      } else if (item === null) {
        // null means absent: an optional key is dropped, a required one is reported below
      } else {
        setOwn(out, key, visit(properties[key]!, item, path, issues, undefined));
      }
    } else if (additional === false) {
      reportUnknownKey(key, properties, path, issues, branch);
    } else if (typeof additional === 'object') {
      setOwn(out, key, visit(additional, item, path, issues, undefined));
    } else {
      setOwn(out, key, item);
    }
    path.pop();
  }
  for (const key of required) {
    if (Object.hasOwn(value, key) && value[key] !== null) continue;
    path.push(key);
    const when = branch ? ` when ${branch.key} is ${describeLiteral(branch.value)}` : '';
    issues.push(error('missing-required', path.slice(), `${nameOf(path)} is required${when}`, writtenAsNull(value, key)));
    path.pop();
  }
  if (schema.dependentRequired) {
    for (const [key, needs] of Object.entries(schema.dependentRequired)) {
      if (!Object.hasOwn(out, key)) continue;
      for (const need of needs) {
        if (Object.hasOwn(out, need)) continue;
        issues.push(
          error('missing-required', [...path, need], `${nameOf([...path, need])} is required when ${key} is set`, {
            at: { path: [...path, key], part: 'key' },
          }),
        );
      }
    }
  }
  for (const key of plan.defaulted) {
    // A required key's default never applies: the key must be written; nor does the default of
    // a key the cluster's platform does not have.
    if (gates && isUnavailable(judgeLifecycle((properties[key] as CompiledNode).lifecycle, activePlatform))) continue;
    if (!Object.hasOwn(out, key) && !required.includes(key)) {
      const fallback = properties[key]!.default;
      setOwn(out, key, typeof fallback === 'object' && fallback !== null ? structuredClone(fallback) : fallback);
    }
  }
  return out;
}

/** Gates a key written in a map by its property's lifecycle; false (after reporting) when the key does not exist at the platform. */
function isWrittenAvailable(property: CompiledNode, path: (string | number)[], issues: Issue[]): boolean {
  const judgement = judgeLifecycle(property.lifecycle, activePlatform);
  const issue = lifecycleIssue(judgement, nameOf(path), path.slice(), 'key');
  if (issue) issues.push(issue);
  return !isUnavailable(judgement);
}

interface EnumIndex {
  /** The options that are not maps, lists or numbers, for a lookup that costs the same however many there are. */
  scalars: ReadonlySet<unknown>;
  /** The numeric options by their value as a double; equal values share a key. */
  numbers: ReadonlyMap<number, readonly (number | bigint)[]>;
  /** The string options, the same list each time, so a did-you-mean prepares it once. */
  strings: readonly string[];
}

const enumIndexes = new WeakMap<readonly unknown[], EnumIndex>();

// An enum is indexed once, not read whole for every value checked against it.
function enumIndex(options: readonly unknown[]): EnumIndex {
  let index = enumIndexes.get(options);
  if (!index) {
    const numbers = new Map<number, (number | bigint)[]>();
    for (const option of options) {
      if (typeof option !== 'number' && typeof option !== 'bigint') continue;
      const key = Number(option);
      const same = numbers.get(key);
      if (same) same.push(option);
      else numbers.set(key, [option]);
    }
    index = {
      scalars: new Set(options.filter((o) => (typeof o !== 'object' || o === null) && typeof o !== 'number' && typeof o !== 'bigint')),
      numbers,
      strings: options.filter((o): o is string => typeof o === 'string'),
    };
    enumIndexes.set(options, index);
  }
  return index;
}

// Membership as equalData decides it, looked up rather than scanned: a number is compared only
// with the options of the same value as a double (an integer beyond 2^53 and a bigint among them).
function inEnum(options: readonly unknown[], value: unknown): boolean {
  if (typeof value === 'number' && Number.isNaN(value)) return false;
  if (typeof value === 'number' || typeof value === 'bigint')
    return (
      enumIndex(options)
        .numbers.get(Number(value))
        ?.some((option) => equalData(option, value)) ?? false
    );
  if (typeof value !== 'object' || value === null) return enumIndex(options).scalars.has(value);
  return options.some((option) => equalData(option, value));
}

// A required key written with no value is there to point at; a key not written at all is
// positioned at its parent.
function writtenAsNull(value: Record<string, unknown>, key: string): Partial<Issue> {
  return Object.hasOwn(value, key) && value[key] === null ? { part: 'key' } : {};
}

function reportUnknownKey(key: string, properties: Record<string, JsonSchema>, path: (string | number)[], issues: Issue[], branch: Branch | undefined): void {
  if (branch?.siblingKeys.has(key)) {
    issues.push(error('field-not-allowed', path.slice(), `${nameOf(path)} is not allowed when ${branch.key} is ${describeLiteral(branch.value)}`));
    return;
  }
  const known = Object.keys(properties);
  const hint = didYouMean(key, known);
  const where = path.length > 1 ? ` in ${nameOf(path.slice(0, -1))}` : '';
  const allowed = allowedKeys(known);
  issues.push(error('unknown-field', path.slice(), `unknown field ${describeKey(key)}${where}${allowed}`, hint ? { hint } : {}));
}

// The keys a closed map takes, for an unknown-field message; a long list would drown the message.
function allowedKeys(known: readonly string[]): string {
  if (known.length === 0) return ' (no fields are allowed here)';
  return known.length <= 24 ? ` (allowed: ${known.join(', ')})` : '';
}

function checkPropertyName(schema: JsonSchema, key: string, path: (string | number)[], issues: Issue[]): void {
  const sub: Issue[] = [];
  visit(schema, key, path, sub, undefined);
  if (sub.length === 0) return;
  const expected = schema['x-expected'] ? `: expected ${schema['x-expected']}` : '';
  issues.push(error('invalid-key', path.slice(), `invalid key ${describeKey(key)}${expected}`));
}

function visitArray(schema: JsonSchema, value: unknown[], path: (string | number)[], issues: Issue[]): unknown[] {
  runAssertions((schema as CompiledNode).assertions.array, value, schema, path, issues, false);
  if (!schema.items) return value.slice();
  const out: unknown[] = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i++) {
    path.push(i);
    out[i] = visit(schema.items, value[i], path, issues, undefined);
    path.pop();
  }
  return out;
}

/**
 * Checks a value against the branches of `anyOf` (some branch holds) or of `oneOf` (exactly one
 * holds: `exactlyOne`). The issues are those of the branch the value fits best.
 */
function visitUnion(branches: readonly JsonSchema[], exactlyOne: boolean, value: unknown, path: (string | number)[], issues: Issue[]): unknown {
  const discriminated = discriminatorOf(branches);
  if (discriminated) return visitDiscriminated(discriminated, value, path, issues);
  let only: JsonSchema | undefined;
  let candidates = 0;
  for (const candidate of branches) {
    if (candidate.type === undefined || candidate.anyOf || candidate.oneOf || matchesType(candidate.type, value)) {
      candidates += 1;
      only = candidate;
    }
  }
  // A single branch of the value's type decides alone: its issues are the union's.
  if (candidates === 1 && only && (only.type === undefined || matchesType(only.type, value))) return visit(only, value, path, issues, undefined);
  let best: { issues: Issue[]; value: unknown } | undefined;
  let typeMatches = 0;
  for (const [index, candidate] of branches.entries()) {
    const typed = candidate.type === undefined || matchesType(candidate.type, value);
    // A branch of another type can only fail with a wrong type: skip it without building that
    // message (every nullable binding would otherwise pay for one).
    if (!typed && !candidate.anyOf && !candidate.oneOf) continue;
    const sub: Issue[] = [];
    const result = visit(candidate, value, path, sub, undefined);
    // A warning (a deprecated key) does not make a branch fail; it comes along with it.
    const errors = countErrors(sub);
    if (errors === 0) {
      const second = exactlyOne ? nextMatch(branches, index + 1, value, path) : undefined;
      if (second !== undefined) {
        issues.push(
          error('invalid-value', path.slice(), `${nameOf(path)} matches both form ${index + 1} and form ${second + 1} of a oneOf; it must match exactly one`),
        );
        return value;
      }
      for (const issue of sub) issues.push(issue);
      return result;
    }
    if (typed) {
      typeMatches += 1;
      if (!best || errors < countErrors(best.issues)) best = { issues: sub, value: result };
    }
  }
  if (best && typeMatches > 0) {
    appendAll(issues, best.issues);
    return best.value;
  }
  const expected = branches.map(describeExpected).filter((e, i, all) => all.indexOf(e) === i);
  issues.push(error('wrong-type', path.slice(), `${nameOf(path)} must be ${joinOr(expected)}, found ${describeValue(value)}`));
  return value;
}

/** The index of the first branch from `from` on that `value` satisfies, if any. */
function nextMatch(branches: readonly JsonSchema[], from: number, value: unknown, path: (string | number)[]): number | undefined {
  for (let i = from; i < branches.length; i++) {
    const candidate = branches[i]!;
    // A branch of another type fails; no need to run it.
    if (candidate.type !== undefined && !candidate.anyOf && !candidate.oneOf && !matchesType(candidate.type, value)) continue;
    const sub: Issue[] = [];
    visit(candidate, value, path, sub, undefined);
    if (countErrors(sub) === 0) return i;
  }
  return undefined;
}

function visitDiscriminated(d: Discriminated, value: unknown, path: (string | number)[], issues: Issue[]): unknown {
  if (!isMap(value)) {
    issues.push(error('wrong-type', path.slice(), `${nameOf(path)} must be a map, found ${describeValue(value)}`));
    return value;
  }
  const tag = Object.hasOwn(value, d.key) ? value[d.key] : undefined;
  const chosen = tag === undefined || tag === null ? undefined : d.branches.get(tag);
  if (!chosen) {
    const options = [...d.branches.keys()];
    path.push(d.key);
    if (tag === undefined || tag === null) {
      issues.push(error('missing-required', path.slice(), `${nameOf(path)} is required (one of ${describeLiterals(options)})`, writtenAsNull(value, d.key)));
    } else if (options.every((o) => typeof o === 'string') && typeof tag !== 'string') {
      issues.push(error('wrong-type', path.slice(), `${nameOf(path)} must be a string, found ${describeValue(tag)}`));
    } else {
      const hint =
        typeof tag === 'string'
          ? didYouMean(
              tag,
              options.filter((o): o is string => typeof o === 'string'),
            )
          : undefined;
      issues.push(
        error('invalid-value', path.slice(), `${nameOf(path)} must be one of ${describeLiterals(options)}, found ${describeValue(tag)}`, hint ? { hint } : {}),
      );
    }
    path.pop();
    // One mistake must not hide the next: judge every other key without a branch.
    checkWithoutBranch(d, value, path, issues);
    return value;
  }
  let siblingKeys = d.siblingKeys.get(tag);
  if (!siblingKeys) {
    const keys = new Set<string>();
    for (const [option, branch] of d.branches) {
      if (option === tag) continue;
      for (const key of Object.keys(branch.properties ?? {})) if (!Object.hasOwn(chosen.properties ?? {}, key)) keys.add(key);
    }
    d.siblingKeys.set(tag, keys);
    siblingKeys = keys;
  }
  return visit(chosen, value, path, issues, { key: d.key, value: tag, siblingKeys });
}

/**
 * Checks a map whose discriminator names no branch: each key against every branch that
 * declares it (an issue only when it fails in all of them, those of the branch it fails least
 * in), `unknown-field` for a key no branch declares, and the `dependentRequired` rules that
 * every branch declaring the key has. Nothing is defaulted: no branch is known.
 */
function checkWithoutBranch(d: Discriminated, value: Record<string, unknown>, path: (string | number)[], issues: Issue[]): void {
  for (const key of Object.keys(value)) {
    if (key === d.key) continue;
    const declaring = d.declaring.get(key);
    path.push(key);
    if (!declaring) {
      const hint = didYouMean(key, d.allKeys);
      issues.push(error('unknown-field', path.slice(), `unknown field ${describeKey(key)}`, hint ? { hint } : {}));
    } else if (value[key] !== null) {
      let fewest: Issue[] | undefined;
      for (const branch of declaring) {
        const sub: Issue[] = [];
        visit(branch.properties![key]!, value[key], path, sub, undefined);
        if (sub.length === 0) {
          fewest = undefined;
          break;
        }
        if (!fewest || sub.length < fewest.length) fewest = sub;
      }
      if (fewest) issues.push(...fewest);
    }
    path.pop();
  }
  for (const key of Object.keys(value)) {
    const declaring = d.declaring.get(key);
    if (!declaring || value[key] === null || key === d.key) continue;
    const needs = declaring.map((branch) => branch.dependentRequired?.[key] ?? NO_KEYS);
    for (const need of needs[0]!) {
      if (!needs.every((list) => list.includes(need))) continue;
      if (Object.hasOwn(value, need) && value[need] !== null) continue;
      issues.push(
        error('missing-required', [...path, need], `${nameOf([...path, need])} is required when ${key} is set`, {
          at: { path: [...path, key], part: 'key' },
        }),
      );
    }
  }
}

/** The discriminator of a union (see unions.ts), with what checking by it needs, if there is one. */
function discriminatorOf(branches: readonly JsonSchema[]): Discriminated | undefined {
  const cached = discriminatedCache.get(branches);
  if (cached !== undefined) return cached ?? undefined;
  let result: Discriminated | null = null;
  const key = discriminatorKey(branches);
  if (key !== undefined) {
    const map = new Map<unknown, JsonSchema>();
    const allKeys = new Set<string>();
    const declaring = new Map<string, JsonSchema[]>();
    for (const b of branches) {
      map.set(literalOf(b.properties![key]), b);
      for (const k of Object.keys(b.properties!)) {
        allKeys.add(k);
        const list = declaring.get(k);
        if (list) list.push(b);
        else declaring.set(k, [b]);
      }
    }
    result = { key, branches: map, allKeys, declaring, siblingKeys: new Map() };
  }
  discriminatedCache.set(branches, result);
  return result ?? undefined;
}

// 2^53: the largest integer a double holds exactly; the readers give larger ones (and 2^53 itself) as bigints.
const MAX_EXACT = 2 ** 53;

function checkNumber(schema: JsonSchema, given: number | bigint, path: (string | number)[], issues: Issue[]): void {
  // ±2^53 is held exactly as a number: judged as one, under any type (docs/json-schema.md).
  const value = typeof given === 'bigint' && (given === BigInt(MAX_EXACT) || given === -BigInt(MAX_EXACT)) ? Number(given) : given;
  if (typeof value === 'bigint' || (hasType(schema, 'integer') && Number.isInteger(value) && Math.abs(value) > MAX_EXACT)) {
    if (schema.type !== undefined) {
      issues.push(error('invalid-value', path.slice(), `${nameOf(path)} is ${String(value)}, beyond 2^53: it cannot be represented exactly`));
      return;
    }
    // Without a type the value is judged as it is: the number keywords compare it exactly.
    if (typeof value === 'bigint') runAssertions((schema as CompiledNode).assertions.number, value, schema, path, issues, true);
    return;
  }
  if (!Number.isFinite(value)) {
    if (schema.type !== undefined) issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must be a finite number, found ${String(value)}`));
    return;
  }
  runAssertions((schema as CompiledNode).assertions.number, value, schema, path, issues, true);
}

function reportType(schema: JsonSchema, value: unknown, path: (string | number)[], issues: Issue[]): void {
  const expected = describeExpected(schema);
  issues.push(error('wrong-type', path.slice(), `${nameOf(path)} must be ${expected}, found ${describeValue(value)}`, typeHint(schema, value)));
}

// YAML 1.2 core schema booleans: written in quotes they are strings.
const QUOTED_BOOLEAN = /^(true|True|TRUE|false|False|FALSE)$/;

function typeHint(schema: JsonSchema, value: unknown): Partial<Issue> {
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (hasType(schema, 'boolean')) {
      // The quotes made it a string; other spellings are strings in YAML 1.2 with or without them.
      if (QUOTED_BOOLEAN.test(value)) return { hint: `remove the quotes: ${value}` };
      if (['yes', 'y', 'on'].includes(lower)) return { hint: `write true (YAML 1.2 reads ${JSON.stringify(value)} as a string)` };
      if (['no', 'n', 'off'].includes(lower)) return { hint: `write false (YAML 1.2 reads ${JSON.stringify(value)} as a string)` };
    }
    if ((hasType(schema, 'integer') || hasType(schema, 'number')) && value.trim() !== '' && Number.isFinite(Number(value))) {
      return { hint: `write ${value.trim()} without quotes` };
    }
  }
  if (hasType(schema, 'string') && (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')) {
    // A bare number where a unit is needed (a duration) would fail again once quoted.
    const unit = typeof value === 'boolean' ? '' : (schema['x-bare-number-unit'] ?? '');
    const lead = unit ? 'quote it with a unit' : 'quote it';
    return { hint: `${lead}: ${JSON.stringify(String(value) + unit)}`, quote: { lead, suffix: unit } };
  }
  return {};
}

/** True when `value` has one of the JSON Schema types (bigints count as integers). */
export function matchesType(type: JsonType | JsonType[], value: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => matchesType(t, value));
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isMap(value);
    case 'integer':
      return typeof value === 'bigint' || (typeof value === 'number' && (Number.isInteger(value) || !Number.isFinite(value)));
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint';
    default:
      return false;
  }
}

const TYPE_WORDS: Record<JsonType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  object: 'a map',
  array: 'a list',
  null: 'null',
};

function describeExpected(schema: JsonSchema): string {
  if (schema.const !== undefined) return describeLiteral(schema.const);
  if (schema.type === undefined) return schema.anyOf ? joinOr(schema.anyOf.map(describeExpected)) : 'a value';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return joinOr(types.map((t) => TYPE_WORDS[t]));
}

function countErrors(issues: readonly Issue[]): number {
  let count = 0;
  for (const issue of issues) if (issue.severity === 'error') count += 1;
  return count;
}

/** The name of the node at `path` in messages; the root is "the rendering". */
function nameOf(path: Path): string {
  return path.length === 0 ? 'the value' : describePath(path);
}
