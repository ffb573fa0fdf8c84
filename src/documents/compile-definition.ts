import { type TSchema, Type } from '@sinclair/typebox';
import { appendAll, describeValue, isMap, joinOr, setOwn } from '../core/data.js';
import { defaultPart, error, type Issue, type Path, rebase, warning } from '../core/diagnostics.js';
import type { JsonSchema } from '../core/json-schema.js';
import { refuseDefinitionVersion } from '../core/versions.js';
import { checkSchema, matchesType } from '../schema/check.js';
import { ENUM_LIFECYCLE, KEYWORDS, LIFECYCLE_BOUNDS, LIFECYCLE_NOTE, RENAMED_FROM } from '../schema/keywords.js';
import { checkLifecycleDeclaration, type EnclosingLifecycle } from '../schema/lifecycle.js';
import { checkPattern } from '../schema/pattern.js';
import { CapabilityDefinitionSchema, PropertyDeclarationSchema, type PropertyType } from './capability-definition.js';
import { hintQuotedVersion, type SourceTextReader } from './common.js';

/** A CapabilityDefinition compiled to the schema its renderings are checked with. */
export interface CompiledDefinition {
  name: string;
  /** `spec.version` (a valid SemVer version), or undefined for an unversioned definition. */
  version: string | undefined;
  /** `spec.deprecation`: the note of a deprecated version. */
  deprecation: string | undefined;
  description: string;
  /** The rendering's TypeBox schema (plain JSON Schema): closed, with every default. */
  schema: JsonSchema;
}

/** The outcome of compiling one document; issue paths start at the document root. */
export interface DefinitionCompilation {
  /** `metadata.name` when it is valid, even if the rest of the document is not. */
  name: string | undefined;
  /** Present when the document has no errors (warnings allowed). */
  definition: CompiledDefinition | undefined;
  issues: Issue[];
}

/** Options of {@link compileDefinition}. */
export interface CompileDefinitionOptions {
  /** True for the type of a built-in handler, which a definition may not take. */
  isBuiltin?: (name: string) => boolean;
  /** The text of the scalar at a path as written, to quote a version YAML read as a number (`1.30`, not 1.3). */
  sourceOf?: (path: Path) => string | undefined;
}

/** A compiled declaration and whether its key must be written. */
interface Declared {
  schema: TSchema;
  required: boolean;
}

const ANY: Declared = { schema: Type.Unknown(), required: false };

/** Where a declaration sits: a rendering key, or the shape of list items or of undeclared keys. */
type Place = 'property' | 'items' | 'additionalProperties';

/** The types each type-specific keyword applies to (the keyword table's `definitions`); keywords not listed apply to any property. */
const KEYWORD_TYPES: ReadonlyMap<string, readonly PropertyType[]> = new Map(KEYWORDS.flatMap((k) => (k.definitions ? [[k.name, k.definitions] as const] : [])));

/** The bound pairs a definition may write (`minLength` with `maxLength`, ...): they must not cross, and counts not be negative. */
const BOUNDS = KEYWORDS.flatMap((k) => (k.pair ? [{ low: k.name, high: k.pair.upper, counts: k.pair.counts }] : []));

const RENDERING_PROPERTIES: Path = ['spec', 'rendering', 'properties'];

/** The lifecycle keywords a declaration may hold, copied into its compiled schema. */
const LIFECYCLE_KEYWORDS: readonly string[] = [...LIFECYCLE_BOUNDS.map((k) => k.name), LIFECYCLE_NOTE, ENUM_LIFECYCLE];
const BOUND_NAMES: ReadonlySet<string> = new Set(LIFECYCLE_BOUNDS.map((k) => k.name));

/**
 * Checks a CapabilityDefinition document (strict structure, then the rules of docs/definitions.md, docs/profiles.md) and compiles its rendering to a TypeBox schema built with `Type.*`, so one
 * check-and-default engine serves built-ins and definitions. Never throws on bad input.
 */
export function compileDefinition(data: unknown, options: CompileDefinitionOptions = {}): DefinitionCompilation {
  const issues: Issue[] = [...checkSchema(CapabilityDefinitionSchema, data).issues];
  const doc = isMap(data) ? data : {};
  const metadata = isMap(doc['metadata']) ? doc['metadata'] : {};
  const nameIsValid = typeof metadata['name'] === 'string' && !issues.some((i) => i.path[0] === 'metadata' && i.path[1] === 'name');
  const name = nameIsValid ? (metadata['name'] as string) : undefined;
  if (name !== undefined && options.isBuiltin?.(name)) {
    issues.push(
      error(
        'definition-shadows-builtin',
        ['metadata', 'name'],
        `definition "${name}" is named like the built-in capability ${name}, whose handler validates ${name} bindings, so it could never apply; choose another name`,
      ),
    );
  }
  const spec = isMap(doc['spec']) ? doc['spec'] : {};
  const version = checkVersion(spec['version'], issues, options.sourceOf);
  const deprecation = typeof spec['deprecation'] === 'string' ? spec['deprecation'] : undefined;
  const rendering = isMap(spec['rendering']) ? spec['rendering'] : {};
  const declared = isMap(rendering['properties']) ? rendering['properties'] : {};
  // The whole capability's lifecycle encloses every property's.
  const capability = checkLifecycleDeclaration(spec, 'the capability', {
    enclosing: undefined,
    isRequired: false,
    type: undefined,
    enumValues: undefined,
    defaultValue: undefined,
  });
  appendAll(issues, rebase(capability.issues, ['spec']));
  const properties = compileProperties(declared, RENDERING_PROPERTIES, '', capability.enclosingChildren, issues);
  const description = typeof spec['description'] === 'string' ? spec['description'] : '';
  quoteVersionsWrittenAsNumbers(issues, options.sourceOf);
  if (name === undefined || !properties || issues.some(isError)) return { name, definition: undefined, issues };
  const schema = Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}), ...pickLifecycle(spec) });
  return { name, definition: { name, version, deprecation, description, schema }, issues };
}

const VERSION_PATH: Path = ['spec', 'version'];

// `spec.version` (docs/versions.md): a string the structure check let through must
// be an exact SemVer version; a number was already refused as `wrong-type`, quoted in a hint.
function checkVersion(value: unknown, issues: Issue[], sourceOf: SourceTextReader | undefined): string | undefined {
  hintQuotedVersion(issues, VERSION_PATH, value, sourceOf);
  if (typeof value !== 'string') return undefined;
  const refusal = refuseDefinitionVersion(value);
  if (!refusal) return value;
  issues.push(error('invalid-value', VERSION_PATH, refusal.reason, refusal.hint ? { hint: refusal.hint } : {}));
  return undefined;
}

function compileProperties(
  declared: Record<string, unknown>,
  at: Path,
  parentLabel: string,
  enclosing: EnclosingLifecycle | undefined,
  issues: Issue[],
): Record<string, TSchema> | undefined {
  const out: Record<string, TSchema> = {};
  let ok = true;
  for (const key of Object.keys(declared)) {
    const label = parentLabel ? `${parentLabel}.${key}` : key;
    const compiled = compileDeclaration(declared[key], [...at, key], label, 'property', enclosing, issues);
    if (compiled) setOwn(out, key, compiled.required ? compiled.schema : Type.Optional(compiled.schema));
    else ok = false;
  }
  if (!checkRenames(declared, at, parentLabel, issues)) ok = false;
  return ok ? out : undefined;
}

/**
 * The load-time rules of `renamedFrom` among the properties of one map (docs/migrate.md): the
 * old name is not also a property of this version, and no two properties rename the same name.
 * Whether the previous version has the old name is judged by migrate, on the versions of its
 * run. Returns false when a rule is broken.
 */
function checkRenames(declared: Record<string, unknown>, at: Path, parentLabel: string, issues: Issue[]): boolean {
  const renamers = new Map<string, string>();
  let ok = true;
  for (const key of Object.keys(declared)) {
    const raw = declared[key];
    const old = isMap(raw) ? raw[RENAMED_FROM] : undefined;
    if (typeof old !== 'string' || old === '') continue;
    const label = parentLabel ? `${parentLabel}.${key}` : key;
    const path = [...at, key, RENAMED_FROM];
    const first = renamers.get(old);
    if (Object.hasOwn(declared, old)) {
      const what = old === key ? 'its own name' : `${JSON.stringify(old)}, which this version also declares`;
      issues.push(
        error('definition-invalid', path, `${label}.renamedFrom names ${what}: the old name of a renamed property is gone from the version that renames it`),
      );
      ok = false;
    } else if (first !== undefined) {
      issues.push(
        error(
          'definition-invalid',
          path,
          `${label}.renamedFrom names ${JSON.stringify(old)}, which ${first} already renames: one old property becomes one new property`,
        ),
      );
      ok = false;
    } else {
      renamers.set(old, label);
    }
  }
  return ok;
}

/** Compiles one declaration, or returns undefined after reporting why it cannot be. */
function compileDeclaration(
  raw: unknown,
  path: Path,
  label: string,
  place: Place,
  enclosing: EnclosingLifecycle | undefined,
  issues: Issue[],
): Declared | undefined {
  // `name:` with no value declares a key that accepts any value.
  if (raw === null) return { schema: Type.Unknown(), required: false };
  if (!isMap(raw)) {
    issues.push(error('wrong-type', path, `${label} must be a map of keywords (type, required, default, …), found ${describeValue(raw)}`));
    return undefined;
  }
  const errorsBefore = errorCount(issues);
  const structural = checkNamed(PropertyDeclarationSchema, raw, label, path);
  appendAll(issues, structural);
  const bad = new Set(structural.map((i) => String(i.path[path.length])));
  const type = typeof raw['type'] === 'string' && !bad.has('type') ? (raw['type'] as PropertyType) : undefined;
  if (!bad.has('type')) for (const keyword of checkKeywordsFit(raw, type, path, label, place, issues)) bad.add(keyword);
  if (type && !bad.has('enum')) checkEnum(raw['enum'], type, path, label, issues);
  checkBounds(raw, bad, path, label, issues);
  if (typeof raw['pattern'] === 'string' && !bad.has('pattern')) {
    const verdict = checkPattern(raw['pattern']);
    if (!verdict.ok) {
      const code = verdict.tooComplex ? 'pattern-too-complex' : 'definition-invalid';
      issues.push(error(code, [...path, 'pattern'], `${label}.pattern ${JSON.stringify(raw['pattern'])} ${verdict.reason}`));
    }
  }
  const lifecycle = checkLifecycleDeclaration(without(raw, bad), label, {
    enclosing,
    isRequired: raw['required'] === true,
    type,
    enumValues: Array.isArray(raw['enum']) && !bad.has('enum') ? raw['enum'] : undefined,
    defaultValue: raw['default'],
  });
  appendAll(issues, rebase(lifecycle.issues, path));
  const inner = lifecycle.enclosingChildren;

  const children = type === 'object' && isMap(raw['properties']) ? compileProperties(raw['properties'], [...path, 'properties'], label, inner, issues) : {};
  const items = type === 'array' && isMap(raw['items']) ? compileDeclaration(raw['items'], [...path, 'items'], `${label}[]`, 'items', inner, issues) : ANY;
  const additionalRaw = raw['additionalProperties'];
  const additional =
    type === 'object' && isMap(additionalRaw)
      ? compileDeclaration(additionalRaw, [...path, 'additionalProperties'], `${label}.*`, 'additionalProperties', inner, issues)?.schema
      : additionalRaw === true;
  if (errorCount(issues) > errorsBefore || !children || !items || additional === undefined) return undefined;

  const fallback = raw['default'];
  const schema = buildSchema(type, raw, children, items.schema, additional);
  if (fallback !== undefined && fallback !== null) {
    for (const issue of checkNamed(schema, fallback, `${label}.default`, [...path, 'default'])) {
      issues.push({ ...issue, code: 'definition-invalid', part: issue.part ?? defaultPart(issue.code) });
    }
    if (raw['required'] === true) {
      issues.push(
        warning('required-with-default', [...path, 'default'], `${label} is required, so its default never applies: a required key must always be written`, {
          part: 'key',
        }),
      );
    }
  }
  if (errorCount(issues) > errorsBefore) return undefined;
  return { schema, required: raw['required'] === true };
}

function buildSchema(
  type: PropertyType | undefined,
  raw: Record<string, unknown>,
  children: Record<string, TSchema>,
  items: TSchema,
  additional: boolean | TSchema,
): TSchema {
  // One options object, keys in the order the schema is published in: the common keywords,
  // the lifecycle ones, then those of the type.
  const options: Record<string, unknown> = {};
  pickInto(options, raw, COMMON_KEYWORDS);
  pickInto(options, raw, LIFECYCLE_KEYWORDS);
  switch (type) {
    case 'string':
      return Type.String(pickInto(options, raw, STRING_KEYWORDS));
    case 'integer':
      return Type.Integer(pickInto(options, raw, NUMBER_KEYWORDS));
    case 'number':
      return Type.Number(pickInto(options, raw, NUMBER_KEYWORDS));
    case 'boolean':
      return Type.Boolean(pickInto(options, raw, BOOLEAN_KEYWORDS));
    case 'array':
      return Type.Array(items, pickInto(options, raw, ARRAY_KEYWORDS));
    case 'object':
      options['additionalProperties'] = additional;
      return Type.Object(children, options);
    default:
      return Type.Unknown(options);
  }
}

const COMMON_KEYWORDS = ['description', 'default', RENAMED_FROM];
/** The constraints a definition writes on a property of `type`, copied into its schema: subschemas and lifecycles are built apart. */
function constraintsOf(type: PropertyType): string[] {
  return KEYWORDS.filter((k) => k.definitions?.includes(type) && k.subschemas === undefined && k.role !== 'lifecycle').map((k) => k.name);
}

const STRING_KEYWORDS = constraintsOf('string');
const NUMBER_KEYWORDS = constraintsOf('number');
const BOOLEAN_KEYWORDS = constraintsOf('boolean');
const ARRAY_KEYWORDS = constraintsOf('array');

// Copies the keywords written with a value (null is not written) into `out`; returns `out`.
function pickInto(out: Record<string, unknown>, raw: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  for (const key of keys) {
    const value = raw[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

// A keyword that does not fit the declared type is an error even with a null value: writing
// it at all says the author expects something of it. Returns the keywords that do not fit.
function checkKeywordsFit(raw: Record<string, unknown>, type: PropertyType | undefined, path: Path, label: string, place: Place, issues: Issue[]): Set<string> {
  const misfits = new Set<string>();
  for (const keyword of Object.keys(raw)) {
    const fits = KEYWORD_TYPES.get(keyword);
    // Most keywords fit: the path of a complaint is built only for one that does not.
    if (place === 'property' && (!fits || (type && fits.includes(type)))) continue;
    const at = [...path, keyword];
    if (place !== 'property' && (keyword === 'required' || keyword === 'default')) {
      const where = place === 'items' ? 'list items are never absent' : 'undeclared keys are never filled in';
      issues.push(error('definition-invalid', at, `${keyword} has no meaning in ${label}: ${where}`, { part: 'key' }));
      misfits.add(keyword);
      continue;
    }
    if (place !== 'property' && keyword === RENAMED_FROM) {
      const what = place === 'items' ? 'list items have no name of their own' : 'undeclared keys have no name the definition knows';
      issues.push(error('definition-invalid', at, `${keyword} has no meaning in ${label}: ${what}; put it on the renamed property`, { part: 'key' }));
      misfits.add(keyword);
      continue;
    }
    if (place !== 'property' && keyword !== ENUM_LIFECYCLE && LIFECYCLE_KEYWORDS.includes(keyword)) {
      const what = place === 'items' ? 'list items' : 'undeclared keys';
      issues.push(
        error(
          'definition-invalid',
          at,
          `${keyword} has no meaning in ${label}: ${what} exist whenever their list or map does; put the lifecycle on ${label.replace(/(\[\]|\.\*)$/, '')}`,
          {
            part: 'key',
          },
        ),
      );
      misfits.add(keyword);
      continue;
    }
    if (!fits || (type && fits.includes(type))) continue;
    const message = type
      ? `${keyword} does not fit ${label} of type ${type}: it applies to ${joinOr(fits)}`
      : `${keyword} on ${label} needs a type: it applies to ${joinOr(fits)}`;
    issues.push(error('definition-invalid', at, message, { part: 'key' }));
    misfits.add(keyword);
  }
  return misfits;
}

function checkEnum(values: unknown, type: PropertyType, path: Path, label: string, issues: Issue[]): void {
  if (!Array.isArray(values) || !KEYWORD_TYPES.get('enum')!.includes(type)) return;
  if (values.length === 0) {
    issues.push(error('definition-invalid', [...path, 'enum'], `${label}.enum must list at least one value`));
    return;
  }
  values.forEach((value, index) => {
    if (matchesType(type, value)) return;
    issues.push(
      error('definition-invalid', [...path, 'enum', index], `${label}.enum[${index}] must be ${typeWord(type)} like ${label}, found ${describeValue(value)}`),
    );
  });
}

function checkBounds(raw: Record<string, unknown>, bad: ReadonlySet<string>, path: Path, label: string, issues: Issue[]): void {
  for (const { low, high, counts } of BOUNDS) {
    const min = bad.has(low) ? undefined : raw[low];
    const max = bad.has(high) ? undefined : raw[high];
    for (const [keyword, value] of [
      [low, min],
      [high, max],
    ] as const) {
      if (counts && typeof value === 'number' && value < 0) {
        issues.push(error('definition-invalid', [...path, keyword], `${label}.${keyword} must not be negative, found ${value}`));
      }
    }
    if (typeof min === 'number' && typeof max === 'number' && min > max) {
      issues.push(error('definition-invalid', [...path, low], `${label}.${low} ${min} is greater than ${high} ${max}: no value could pass`));
    }
  }
}

/**
 * Checks `value` under a name, so messages say `tls.port` instead of "the value"; paths are
 * rebased onto `path`. The common case, a clean value, is checked without the wrapper, whose
 * one-off schema the engine would otherwise have to prepare on every call.
 */
function checkNamed(schema: TSchema | JsonSchema, value: unknown, label: string, path: Path): Issue[] {
  if (checkSchema(schema, value).issues.length === 0) return [];
  const wrapper: JsonSchema = { type: 'object', properties: {}, required: [label] };
  setOwn(wrapper.properties as Record<string, unknown>, label, schema);
  const holder: Record<string, unknown> = {};
  setOwn(holder, label, value);
  return checkSchema(wrapper, holder).issues.map((issue) => ({
    ...issue,
    path: [...path, ...issue.path.slice(1)],
    ...(issue.at ? { at: { path: [...path, ...issue.at.path.slice(1)], part: issue.at.part } } : {}),
  }));
}

/** The lifecycle keywords of a declaration or of `spec`, as its compiled schema carries them. */
function pickLifecycle(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const keyword of LIFECYCLE_KEYWORDS) if (raw[keyword] !== undefined && raw[keyword] !== null) out[keyword] = raw[keyword];
  return out;
}

/** The declaration without the keywords already reported as misplaced (they get no further diagnostic). */
function without(raw: Record<string, unknown>, bad: ReadonlySet<string>): Record<string, unknown> {
  if (bad.size === 0) return raw;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) if (!bad.has(key)) setOwn(out, key, raw[key]);
  return out;
}

// YAML reads `introducedIn: 1.30` as the number 1.3; the engine's hint quotes the number it read
// (`quote it: "1.3"`), this one what was written.
function quoteVersionsWrittenAsNumbers(issues: Issue[], sourceOf: ((path: Path) => string | undefined) | undefined): void {
  for (const [index, issue] of issues.entries()) {
    if (issue.code !== 'wrong-type' || !issue.hint?.startsWith('quote it:') || !BOUND_NAMES.has(String(issue.path[issue.path.length - 1]))) continue;
    const written = sourceOf?.(issue.path);
    if (written !== undefined && !/^["']/.test(written)) issues[index] = { ...issue, hint: `quote it: ${JSON.stringify(written)}` };
  }
}

function isError(issue: Issue): boolean {
  return issue.severity === 'error';
}

// Asked two or three times per declaration: counted without building a list.
function errorCount(issues: readonly Issue[]): number {
  let count = 0;
  for (const issue of issues) if (issue.severity === 'error') count += 1;
  return count;
}

function typeWord(type: PropertyType): string {
  return type === 'integer' || type === 'array' ? `an ${type}` : `a ${type}`;
}
