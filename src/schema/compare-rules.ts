import { sameData } from '../core/canonical-json.js';
import { isMap, truncate } from '../core/data.js';
import type { Path } from '../core/diagnostics.js';
import { isSchemaObject, type JsonSchema, type JsonType } from '../core/json-schema.js';
import { comparePlatformVersions, parseLifecycleVersion } from './platform-version.js';
import { discriminatorKey, literalOf, tellsApart } from './unions.js';

/**
 * How much a difference between two versions of a schema matters to the renderings written
 * for the older one (docs/compat.md): `breaking` may turn a valid rendering invalid or change what
 * it means (a major bump), `compatible` only accepts more (a minor bump), `patch` changes
 * nothing but words.
 */
export type ChangeClass = 'breaking' | 'compatible' | 'patch';

/**
 * Every kind of difference the comparison names, with its class (docs/compat.md): a kind
 * has one class, so a rule says what changed and the class follows.
 */
export const CHANGE_CLASSES = {
  'property-added': 'compatible',
  'required-property-added': 'breaking',
  'property-removed': 'breaking',
  'property-renamed': 'breaking',
  'made-required': 'breaking',
  'made-optional': 'compatible',
  'type-added': 'breaking',
  'type-narrowed': 'breaking',
  'type-changed': 'breaking',
  'type-widened': 'compatible',
  'type-removed': 'compatible',
  'enum-added': 'breaking',
  'enum-removed': 'compatible',
  'enum-value-added': 'compatible',
  'enum-value-removed': 'breaking',
  'const-added': 'breaking',
  'const-changed': 'breaking',
  'const-removed': 'compatible',
  'default-added': 'breaking',
  'default-changed': 'breaking',
  'default-removed': 'breaking',
  'constraint-added': 'breaking',
  'constraint-tightened': 'breaking',
  'constraint-changed': 'breaking',
  'constraint-loosened': 'compatible',
  'constraint-removed': 'compatible',
  closed: 'breaking',
  opened: 'compatible',
  'subschema-added': 'breaking',
  'subschema-removed': 'compatible',
  'branch-added': 'compatible',
  'branch-removed': 'breaking',
  'introduced-added': 'breaking',
  'introduced-later': 'breaking',
  'introduced-earlier': 'compatible',
  'introduced-dropped': 'compatible',
  'removal-added': 'breaking',
  'removal-earlier': 'breaking',
  'removal-later': 'compatible',
  'removal-dropped': 'compatible',
  'deprecation-added': 'compatible',
  'deprecation-moved': 'compatible',
  'deprecation-dropped': 'compatible',
  'lifecycle-component-changed': 'breaking',
  'words-changed': 'patch',
  'keyword-changed': 'breaking',
} as const satisfies Record<string, ChangeClass>;

/** A kind of difference: a key of {@link CHANGE_CLASSES}. */
export type ChangeKind = keyof typeof CHANGE_CLASSES;

/** A difference as a comparison rule reports it. */
export interface ChangeReport {
  kind: ChangeKind;
  message: string;
  /** Where the difference is, relative to the node; defaults to the keyword itself. */
  at?: Path;
  /** Which version holds what the difference is about; defaults to the new one when it has the keyword, else the old one. */
  side?: 'old' | 'new';
}

/** The properties of two versions of an object node, paired by name and by `renamedFrom` (docs/migrate.md). */
export interface PropertyPairing {
  /** New property name → the old property it continues (itself, or the one it renames). */
  readonly continues: ReadonlyMap<string, string>;
  /** Old property name → the new property continuing it. */
  readonly continuedBy: ReadonlyMap<string, string>;
}

/** What a comparison rule sees of one keyword of two versions of one schema node, and how it answers. */
export interface ComparisonContext {
  readonly keyword: string;
  /** The keyword's value in the older node; undefined when it lacks the keyword. */
  readonly before: unknown;
  /** The keyword's value in the newer node; undefined when it lacks the keyword. */
  readonly after: unknown;
  readonly oldNode: JsonSchema;
  readonly newNode: JsonSchema;
  /** The node's name in messages (`tls.port`, `ports[]`, `the capability`). */
  readonly label: string;
  /** The name of a property of the node in messages. */
  childLabel(name: string): string;
  report(change: ChangeReport): void;
  /** Compares two subschemas found at `at` below the node, named `label` in messages. */
  walk(before: JsonSchema, after: JsonSchema, at: Path, label: string): void;
  /** The node's properties paired across the versions (computed once per node). */
  pairing(): PropertyPairing;
}

/**
 * How a keyword's differences are judged: every entry of the keyword table has one, so a new
 * keyword cannot be left out of `kurel compat`. Called only when the two values differ.
 */
export type ComparisonRule = (context: ComparisonContext) => void;

/** A value in messages, as JSON (strings quoted), cut at 60 characters. */
const show = (value: unknown) => truncate(typeof value === 'bigint' ? String(value) : (JSON.stringify(value) ?? String(value)));

/** What happened to a value between two versions, in one word. */
function verbOf(before: unknown, after: unknown): 'added' | 'removed' | 'changed' {
  if (before === undefined) return 'added';
  return after === undefined ? 'removed' : 'changed';
}

/** A change of words only (descriptions, notes, titles): a patch. */
export const wordsOnly: ComparisonRule = (c) => {
  const verb = verbOf(c.before, c.after);
  c.report({ kind: 'words-changed', message: `${c.label}: ${c.keyword} ${verb}` });
};

/** A marker that only warns (`deprecated: true`): never changes a verdict, so compatible. */
export const warningOnly: ComparisonRule = (c) => {
  const verb = verbOf(c.before, c.after);
  const kind = ({ added: 'deprecation-added', removed: 'deprecation-dropped', changed: 'deprecation-moved' } as const)[verb];
  c.report({ kind, message: `${c.label}: ${c.keyword} ${verb}` });
};

/** `renamedFrom` pairs a property with its old name; the pairing is judged by `properties`, the keyword itself is no difference. */
export const pairingOnly: ComparisonRule = () => {};

function boundRule(tighterWhen: (before: number, after: number) => boolean, raised: string, lowered: string): ComparisonRule {
  return (c) => {
    const { before, after } = c;
    if (typeof after === 'number' && typeof before !== 'number') {
      c.report({ kind: 'constraint-added', message: `${c.label}: ${c.keyword} added (${show(after)})` });
    } else if (typeof before === 'number' && typeof after !== 'number') {
      c.report({ kind: 'constraint-removed', message: `${c.label}: ${c.keyword} removed (was ${show(before)})` });
    } else if (typeof before === 'number' && typeof after === 'number') {
      const tighter = tighterWhen(before, after);
      c.report({
        kind: tighter ? 'constraint-tightened' : 'constraint-loosened',
        message: `${c.label}: ${c.keyword} ${before < after ? raised : lowered} from ${before} to ${after}`,
      });
    } else unnamed(c);
  };
}

/** A lower bound (`minimum`, `minLength`, `minItems`, …): raised or added tightens, lowered or removed loosens. */
export const lowerBound: ComparisonRule = boundRule((before, after) => after > before, 'raised', 'lowered');

/** An upper bound (`maximum`, `maxLength`, `maxItems`, …): lowered or added tightens, raised or removed loosens. */
export const upperBound: ComparisonRule = boundRule((before, after) => after < before, 'raised', 'lowered');

/** A constraint whose two values cannot be ordered (`pattern`): added or changed tightens, removed loosens. */
export const opaqueConstraint: ComparisonRule = (c) => {
  if (c.after === undefined) {
    c.report({ kind: 'constraint-removed', message: `${c.label}: ${c.keyword} removed (was ${show(c.before)})` });
  } else if (c.before === undefined) {
    c.report({ kind: 'constraint-added', message: `${c.label}: ${c.keyword} added (${show(c.after)})` });
  } else {
    c.report({
      kind: 'constraint-changed',
      message: `${c.label}: ${c.keyword} changed from ${show(c.before)} to ${show(c.after)}`,
    });
  }
};

/** `multipleOf`: a new divisor of the old one loosens (every multiple of 4 is one of 2); anything else tightens. */
export const divisor: ComparisonRule = (c) => {
  const { before, after } = c;
  if (typeof before === 'number' && typeof after === 'number') {
    const looser = after !== 0 && Number.isInteger(before / after);
    c.report({
      kind: looser ? 'constraint-loosened' : 'constraint-tightened',
      message: `${c.label}: ${c.keyword} changed from ${before} to ${after}`,
    });
  } else boundPresence(c);
};

/** A flag whose `true` is the stricter value (`uniqueItems`): turned on tightens, turned off loosens. */
export const strictFlag: ComparisonRule = (c) => {
  const on = c.after === true;
  if (on === (c.before === true)) return;
  c.report({
    kind: on ? 'constraint-added' : 'constraint-removed',
    message: `${c.label}: ${c.keyword} turned ${on ? 'on' : 'off'}`,
  });
};

function boundPresence(c: ComparisonContext): void {
  if (c.before === undefined) c.report({ kind: 'constraint-added', message: `${c.label}: ${c.keyword} added (${show(c.after)})` });
  else if (c.after === undefined) c.report({ kind: 'constraint-removed', message: `${c.label}: ${c.keyword} removed (was ${show(c.before)})` });
  else unnamed(c);
}

/** A difference no rule names: breaking (docs/compat.md). */
export const unnamed: ComparisonRule = (c) => {
  c.report({ kind: 'keyword-changed', message: `${c.label}: ${c.keyword} changed` });
};

/** The JSON types a `type` value accepts, `integer` included in `number`; undefined for any value. */
function acceptedTypes(value: unknown): Set<JsonType> | undefined {
  if (value === undefined) return undefined;
  const types = new Set((Array.isArray(value) ? value : [value]) as JsonType[]);
  if (types.has('number')) types.add('integer');
  return types;
}

const typeWords = (value: unknown) => (Array.isArray(value) ? value.join(' or ') : String(value));

/** `type`: added or narrowed tightens, removed or widened loosens, anything else changes the type (docs/compat.md). */
export const types: ComparisonRule = (c) => {
  const before = acceptedTypes(c.before);
  const after = acceptedTypes(c.after);
  if (before === undefined) {
    c.report({ kind: 'type-added', message: `${c.label}: type added (${typeWords(c.after)})` });
    return;
  }
  if (after === undefined) {
    c.report({ kind: 'type-removed', message: `${c.label}: type removed (was ${typeWords(c.before)}): any value is accepted` });
    return;
  }
  const narrowed = [...after].every((t) => before.has(t));
  const widened = [...before].every((t) => after.has(t));
  const words = `from ${typeWords(c.before)} to ${typeWords(c.after)}`;
  if (narrowed && widened) return;
  if (widened) c.report({ kind: 'type-widened', message: `${c.label}: type widened ${words}` });
  else if (narrowed) c.report({ kind: 'type-narrowed', message: `${c.label}: type narrowed ${words}` });
  else c.report({ kind: 'type-changed', message: `${c.label}: type changed ${words}` });
};

/** `enum`: added or a value removed tightens; removed or a value added loosens. */
export const choices: ComparisonRule = (c) => {
  const { before, after } = c;
  if (!Array.isArray(before) || !Array.isArray(after)) {
    if (Array.isArray(after)) {
      c.report({ kind: 'enum-added', message: `${c.label}: enum added (${after.map(show).join(', ')})` });
    } else if (Array.isArray(before)) {
      c.report({
        kind: 'enum-removed',
        message: `${c.label}: enum removed (was ${before.map(show).join(', ')}): any value of the type is accepted`,
      });
    } else unnamed(c);
    return;
  }
  before.forEach((value, index) => {
    if (after.some((v) => sameData(v, value))) return;
    c.report({
      kind: 'enum-value-removed',
      message: `${c.label}: enum value ${show(value)} removed`,
      at: [c.keyword, index],
      side: 'old',
    });
  });
  after.forEach((value, index) => {
    if (before.some((v) => sameData(v, value))) return;
    c.report({ kind: 'enum-value-added', message: `${c.label}: enum value ${show(value)} added`, at: [c.keyword, index], side: 'new' });
  });
};

/** `const`: added or changed tightens, removed loosens. */
export const literal: ComparisonRule = (c) => {
  if (c.before === undefined) c.report({ kind: 'const-added', message: `${c.label}: const added (${show(c.after)})` });
  else if (c.after === undefined) c.report({ kind: 'const-removed', message: `${c.label}: const removed (was ${show(c.before)})` });
  else c.report({ kind: 'const-changed', message: `${c.label}: const changed from ${show(c.before)} to ${show(c.after)}` });
};

/** `default`: added, changed or removed on an existing property changes what existing renderings mean (docs/compat.md). */
export const meaning: ComparisonRule = (c) => {
  if (c.before === undefined) c.report({ kind: 'default-added', message: `${c.label}: default added (${show(c.after)})` });
  else if (c.after === undefined) c.report({ kind: 'default-removed', message: `${c.label}: default removed (was ${show(c.before)})` });
  else c.report({ kind: 'default-changed', message: `${c.label}: default changed from ${show(c.before)} to ${show(c.after)}` });
};

/** A keyword holding one subschema (`items`, `propertyNames`): added tightens, removed loosens, both are compared. */
export const subschema: ComparisonRule = (c) => {
  const { before, after } = c;
  if (isSchemaObject(before) && isSchemaObject(after)) c.walk(before, after, [c.keyword], c.keyword === 'items' ? `${c.label}[]` : c.label);
  else if (after === undefined) c.report({ kind: 'subschema-removed', message: `${c.label}: ${c.keyword} removed` });
  else if (before === undefined) c.report({ kind: 'subschema-added', message: `${c.label}: ${c.keyword} added` });
  else unnamed(c);
};

/** `allOf`: parts compared by position; a part added tightens, a part removed loosens. */
export const everyPart: ComparisonRule = (c) => {
  const before = Array.isArray(c.before) ? (c.before as JsonSchema[]) : [];
  const after = Array.isArray(c.after) ? (c.after as JsonSchema[]) : [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const old = before[i];
    const now = after[i];
    if (old && now) {
      if (!sameData(old, now)) c.walk(old, now, [c.keyword, i], c.label);
    } else if (now) {
      c.report({ kind: 'subschema-added', message: `${c.label}: ${c.keyword} part ${i} added`, at: [c.keyword, i], side: 'new' });
    } else {
      c.report({ kind: 'subschema-removed', message: `${c.label}: ${c.keyword} part ${i} removed`, at: [c.keyword, i], side: 'old' });
    }
  }
};

/** The branches of a node's union (`anyOf`, or `oneOf` without it), with the keyword holding them. */
export function unionOf(node: JsonSchema): { keyword: 'anyOf' | 'oneOf'; branches: JsonSchema[] } | undefined {
  if (Array.isArray(node.anyOf)) return { keyword: 'anyOf', branches: node.anyOf };
  if (Array.isArray(node.oneOf)) return { keyword: 'oneOf', branches: node.oneOf };
  return undefined;
}

/**
 * Pairs the branches of two unions: by their discriminating literal when both versions
 * discriminate on the same property (docs/compat.md), else equal branches first, then branches of
 * the same `type`, then the rest in order.
 */
export function pairBranches(
  before: readonly JsonSchema[],
  after: readonly JsonSchema[],
): { pairs: [number, number][]; name: (i: number, side: 'old' | 'new') => string } {
  // One side may have a single branch: it still carries the literal the other side discriminates on.
  const key = discriminatorKey(before) ?? discriminatorKey(after);
  if (key !== undefined && tellsApart(before, key) && tellsApart(after, key)) {
    const pairs: [number, number][] = [];
    after.forEach((branch, j) => {
      const value = literalOf(branch.properties?.[key]);
      const i = before.findIndex((b) => sameData(literalOf(b.properties?.[key]), value));
      if (i !== -1) pairs.push([i, j]);
    });
    const name = (i: number, side: 'old' | 'new') => `${key} ${show(literalOf((side === 'old' ? before : after)[i]?.properties?.[key]))}`;
    return { pairs, name };
  }
  const freeOld = new Set(before.keys());
  const freeNew = new Set(after.keys());
  const pairs: [number, number][] = [];
  const match = (fits: (a: JsonSchema, b: JsonSchema) => boolean) => {
    for (const j of [...freeNew]) {
      const i = [...freeOld].find((index) => fits(before[index]!, after[j]!));
      if (i === undefined) continue;
      pairs.push([i, j]);
      freeOld.delete(i);
      freeNew.delete(j);
    }
  };
  match((a, b) => sameData(a, b));
  match((a, b) => a.type !== undefined && sameData(a.type, b.type));
  match(() => true);
  return { pairs, name: (i) => `branch ${i}` };
}

/**
 * `anyOf`/`oneOf` (the engine reads both as "some branch matches"): a branch added loosens, a
 * branch removed tightens, paired branches are compared; a union added tightens, removed loosens.
 */
export const union: ComparisonRule = (c) => {
  const before = unionOf(c.oldNode);
  const after = unionOf(c.newNode);
  // Judged once per node, under the keyword the newer version uses (or the older, when only it has one).
  if (c.keyword !== (after ?? before)?.keyword) return;
  if (!before || !after) {
    if (after) c.report({ kind: 'subschema-added', message: `${c.label}: ${after.keyword} added` });
    else if (before) c.report({ kind: 'subschema-removed', message: `${c.label}: ${before.keyword} removed`, at: [before.keyword], side: 'old' });
    return;
  }
  const { pairs, name } = pairBranches(before.branches, after.branches);
  for (const [i, j] of pairs)
    if (!sameData(before.branches[i], after.branches[j])) c.walk(before.branches[i]!, after.branches[j]!, [after.keyword, j], c.label);
  before.branches.forEach((_, i) => {
    if (pairs.some(([old]) => old === i)) return;
    c.report({ kind: 'branch-removed', message: `${c.label}: ${name(i, 'old')} removed`, at: [before.keyword, i], side: 'old' });
  });
  after.branches.forEach((_, j) => {
    if (pairs.some(([, now]) => now === j)) return;
    c.report({ kind: 'branch-added', message: `${c.label}: ${name(j, 'new')} added`, at: [after.keyword, j], side: 'new' });
  });
};

/** The schema of keys a map accepts beyond its declared properties: `false` for none, `{}` for any value. */
function undeclaredKeys(node: JsonSchema): JsonSchema | false {
  const additional = node.additionalProperties;
  if (additional === false) return false;
  return isSchemaObject(additional) ? additional : {};
}

/**
 * Pairs the properties of two versions of an object node: a new property continues the old
 * one of the same name, or the one its `renamedFrom` names when the older version has it and
 * the newer one no longer does (docs/migrate.md).
 */
export function pairProperties(oldNode: JsonSchema, newNode: JsonSchema): PropertyPairing {
  const before = oldNode.properties ?? {};
  const after = newNode.properties ?? {};
  const continues = new Map<string, string>();
  const continuedBy = new Map<string, string>();
  for (const name of Object.keys(after).sort()) {
    const from = Object.hasOwn(before, name) ? name : renamedFromOf(after[name]);
    // Two properties renaming one old name is a load-time error; the first (by name) takes it here.
    if (from === undefined || !Object.hasOwn(before, from) || (from !== name && Object.hasOwn(after, from)) || continuedBy.has(from)) continue;
    continues.set(name, from);
    continuedBy.set(from, name);
  }
  return { continues, continuedBy };
}

/** The `renamedFrom` of a property declaration, when it names one. */
export function renamedFromOf(schema: JsonSchema | undefined): string | undefined {
  const value = isSchemaObject(schema) ? schema['renamedFrom'] : undefined;
  return typeof value === 'string' ? value : undefined;
}

const requiredOf = (node: JsonSchema): readonly string[] => (Array.isArray(node.required) ? node.required : []);

/**
 * `properties`: a property removed or renamed breaks; a new one is compatible in a closed map
 * (no rendering could hold it) unless required; in an open map its declaration is compared
 * with what the map accepted there before. Continuing properties are compared.
 */
export const properties: ComparisonRule = (c) => {
  const before = c.oldNode.properties ?? {};
  const after = c.newNode.properties ?? {};
  const { continues, continuedBy } = c.pairing();
  for (const name of Object.keys(before)) {
    if (continuedBy.has(name)) continue;
    c.report({ kind: 'property-removed', message: `property ${c.childLabel(name)} removed`, at: ['properties', name], side: 'old' });
  }
  for (const name of Object.keys(after)) {
    const from = continues.get(name);
    const label = c.childLabel(name);
    if (from !== undefined) {
      if (from !== name) {
        c.report({
          kind: 'property-renamed',
          message: `property ${c.childLabel(from)} renamed to ${label}: renderings must be migrated (kurel migrate)`,
          at: ['properties', name],
        });
      }
      if (!sameData(before[from], after[name])) c.walk(before[from]!, after[name]!, ['properties', name], label);
      continue;
    }
    const required = requiredOf(c.newNode).includes(name);
    if (required) {
      c.report({ kind: 'required-property-added', message: `new required property ${label}`, at: ['properties', name] });
      continue;
    }
    c.report({ kind: 'property-added', message: `new optional property ${label}`, at: ['properties', name] });
    // In an open map the key could already be written; its values now answer to the new declaration.
    const accepted = undeclaredKeys(c.oldNode);
    if (accepted !== false) c.walk(accepted, after[name]!, ['properties', name], label);
  }
};

/**
 * `required`: a continuing property made required breaks, made optional loosens; a required
 * key no property declares is judged the same way. New and removed properties are judged by
 * `properties`.
 */
export const requiredKeys: ComparisonRule = (c) => {
  const before = new Set(requiredOf(c.oldNode));
  const after = new Set(requiredOf(c.newNode));
  const oldDeclared = c.oldNode.properties ?? {};
  const newDeclared = c.newNode.properties ?? {};
  const { continues, continuedBy } = c.pairing();
  // The old name of a new key, and the new name of an old key; undefined for a property that is new, or gone.
  const oldNameOf = (name: string) => (Object.hasOwn(newDeclared, name) ? continues.get(name) : name);
  const newNameOf = (name: string) => (Object.hasOwn(oldDeclared, name) ? continuedBy.get(name) : name);
  for (const name of after) {
    const from = oldNameOf(name);
    if (from === undefined || before.has(from)) continue;
    c.report({ kind: 'made-required', message: `${c.childLabel(name)} made required`, at: ['properties', name, 'required'], side: 'new' });
  }
  for (const name of before) {
    const now = newNameOf(name);
    if (now === undefined || after.has(now)) continue;
    c.report({ kind: 'made-optional', message: `${c.childLabel(now)} made optional`, at: ['properties', now, 'required'], side: 'new' });
  }
};

/**
 * `additionalProperties`: from open (absent, `true`, or a declaration) to closed tightens, from
 * closed to open loosens, a declaration where any value was accepted tightens; two
 * declarations are compared.
 */
export const undeclared: ComparisonRule = (c) => {
  const before = undeclaredKeys(c.oldNode);
  const after = undeclaredKeys(c.newNode);
  const word = (s: JsonSchema | false) => {
    if (s === false) return 'closed';
    return Object.keys(s).length === 0 ? 'open' : 'a declaration';
  };
  const message = `${c.label}: additionalProperties changed from ${word(before)} to ${word(after)}`;
  if (before === false && after === false) return;
  if (after === false) c.report({ kind: 'closed', message });
  else if (before === false) c.report({ kind: 'opened', message });
  else if (Object.keys(before).length === 0 && Object.keys(after).length > 0) c.report({ kind: 'subschema-added', message });
  else if (Object.keys(after).length === 0) c.report({ kind: 'opened', message });
  else c.walk(before, after, ['additionalProperties'], `${c.label}.*`);
};

/** `dependentRequired`: a key newly needed tightens, a key no longer needed loosens. */
export const dependencies: ComparisonRule = (c) => {
  const before = isMap(c.before) ? (c.before as Record<string, string[]>) : {};
  const after = isMap(c.after) ? (c.after as Record<string, string[]>) : {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const old = before[key] ?? [];
    const now = after[key] ?? [];
    for (const need of now) {
      if (old.includes(need)) continue;
      c.report({
        kind: 'constraint-added',
        message: `${c.childLabel(key)} now needs ${c.childLabel(need)}`,
        at: [c.keyword, key],
        side: 'new',
      });
    }
    for (const need of old) {
      if (now.includes(need)) continue;
      c.report({
        kind: 'constraint-removed',
        message: `${c.childLabel(key)} no longer needs ${c.childLabel(need)}`,
        at: [c.keyword, key],
        side: Object.hasOwn(after, key) ? 'new' : 'old',
      });
    }
  }
};

/** Which bound of a lifecycle window a keyword is: where a value starts to exist, starts to warn, or stops (as `LifecycleBound`). */
export type WindowEdge = 'introduced' | 'deprecated' | 'removed';

/** Judges one lifecycle bound; `at` is where the keyword sits below the node, `name` what it belongs to in messages. */
function judgeBound(c: ComparisonContext, edge: WindowEdge, before: unknown, after: unknown, at: Path, name: string): void {
  const keyword = at[at.length - 1];
  const was = typeof before === 'string' ? parseLifecycleVersion(before) : undefined;
  const now = typeof after === 'string' ? parseLifecycleVersion(after) : undefined;
  const side = after === undefined ? 'old' : 'new';
  if (edge === 'deprecated') {
    // A deprecation only warns; the value stays valid wherever it was.
    const verb = verbOf(before, after);
    const kind = ({ added: 'deprecation-added', removed: 'deprecation-dropped', changed: 'deprecation-moved' } as const)[verb];
    const words = { added: `added (${after})`, removed: `removed (was ${before})`, changed: `moved from ${before} to ${after}` }[verb];
    c.report({ kind, message: `${name}: ${keyword} ${words}`, at, side });
    return;
  }
  const start = edge === 'introduced';
  if (before === undefined) {
    c.report({ kind: start ? 'introduced-added' : 'removal-added', message: `${name}: ${keyword} added (${after})`, at, side });
    return;
  }
  if (after === undefined) {
    c.report({ kind: start ? 'introduced-dropped' : 'removal-dropped', message: `${name}: ${keyword} removed (was ${before})`, at, side });
    return;
  }
  if (!was || !now || was.component !== now.component) {
    c.report({ kind: 'lifecycle-component-changed', message: `${name}: ${keyword} changed from ${before} to ${after}`, at, side });
    return;
  }
  const order = comparePlatformVersions(now.version, was.version);
  if (order === 0) return;
  const later = order > 0;
  // A later start or an earlier end shortens the window in which the value exists (CHANGE_CLASSES).
  const kind: ChangeKind = `${start ? 'introduced' : 'removal'}-${later ? 'later' : 'earlier'}`;
  c.report({
    kind,
    message: `${name}: ${keyword} moved ${later ? 'later' : 'earlier'} from ${before} to ${after}`,
    at,
    side,
  });
}

/** A lifecycle bound of a property or capability (`introducedIn`, `removedIn`, `deprecatedIn`). */
export function lifecycleBound(edge: WindowEdge): ComparisonRule {
  return (c) => judgeBound(c, edge, c.before, c.after, [c.keyword], c.label);
}

/** The lifecycle keywords an `enumLifecycle` entry holds: each bound keyword with its edge, and the note's keyword. */
export interface EntryKeywords {
  bounds: ReadonlyMap<string, WindowEdge>;
  note: string;
}

/**
 * `enumLifecycle`: each value's bounds judged like a property's, the note as words. The
 * keywords come from the keyword table, read when a comparison runs.
 */
export function perValueLifecycle(keywords: () => EntryKeywords): ComparisonRule {
  return (c) => {
    const { bounds, note } = keywords();
    const before = isMap(c.before) ? c.before : {};
    const after = isMap(c.after) ? c.after : {};
    for (const value of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const old = isMap(before[value]) ? (before[value] as Record<string, unknown>) : {};
      const now = isMap(after[value]) ? (after[value] as Record<string, unknown>) : {};
      const name = `${c.label} value ${JSON.stringify(value)}`;
      for (const [keyword, edge] of bounds) {
        if (old[keyword] !== now[keyword]) judgeBound(c, edge, old[keyword], now[keyword], [c.keyword, value, keyword], name);
      }
      if (old[note] !== now[note]) {
        const verb = verbOf(old[note], now[note]);
        c.report({
          kind: 'words-changed',
          message: `${name}: ${note} ${verb}`,
          at: [c.keyword, value, note],
          side: now[note] === undefined ? 'old' : 'new',
        });
      }
      for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
        if (bounds.has(key) || key === note || sameData(old[key], now[key])) continue;
        c.report({ kind: 'keyword-changed', message: `${name}: ${key} changed`, at: [c.keyword, value, key] });
      }
    }
  };
}
