import { sameData } from '../core/canonical-json.js';
import { compareText } from '../core/data.js';
import type { Path } from '../core/diagnostics.js';
import { isSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { isPrerelease, semver } from '../core/versions.js';
import {
  CHANGE_CLASSES,
  type ChangeClass,
  type ChangeKind,
  type ChangeReport,
  type ComparisonContext,
  type PropertyPairing,
  pairBranches,
  pairProperties,
  renamedFromOf,
  unionOf,
  unnamed,
} from './compare-rules.js';
import { COMBINING, KEYWORD_TABLE, KEYWORDS, PROPERTIES_KEYWORD, RENAMED_FROM, SINGLE_SUBSCHEMA } from './keywords.js';

export type { ChangeClass, ChangeKind } from './compare-rules.js';

/** One difference between two versions of a schema, classed by docs/compat.md. */
export interface SchemaChange {
  class: ChangeClass;
  kind: ChangeKind;
  message: string;
  /**
   * Where the difference is, from the root schema. A property's `required` is named as a
   * definition writes it (`properties/<name>/required`), not as the parent's list.
   */
  path: Path;
  /** Which version the path points into: the new one, or the old one for what the new one lacks. */
  side: 'old' | 'new';
}

/** Options of {@link compareSchemas}. */
export interface CompareOptions {
  /** The root's name in messages; `the rendering` unless given (`the capability` for a definition). */
  rootLabel?: string;
}

const TABLE_ORDER = new Map(KEYWORDS.map((k, i) => [k.name, i]));

/**
 * Compares two versions of a schema of the engine's subset, walking both in parallel (every
 * keyword by its rule in the keyword table; properties at any depth, `items`,
 * `additionalProperties`, union branches paired by their discriminating literal), and lists
 * every difference with its class. A keyword the table does not know is breaking whenever it
 * differs. Pure; never mutates its inputs.
 */
export function compareSchemas(before: JsonSchema, after: JsonSchema, options: CompareOptions = {}): SchemaChange[] {
  const changes: SchemaChange[] = [];
  walk(before, after, [], options.rootLabel ?? 'the rendering', true, changes);
  return changes;
}

function walk(oldNode: JsonSchema, newNode: JsonSchema, at: Path, label: string, isRoot: boolean, changes: SchemaChange[]): void {
  let pairing: PropertyPairing | undefined;
  const keywords = [...new Set([...Object.keys(oldNode), ...Object.keys(newNode)])].sort(
    (a, b) => (TABLE_ORDER.get(a) ?? KEYWORDS.length) - (TABLE_ORDER.get(b) ?? KEYWORDS.length) || compareText(a, b),
  );
  for (const keyword of keywords) {
    const before = oldNode[keyword];
    const after = newNode[keyword];
    if (sameData(before, after)) continue;
    const context: ComparisonContext = {
      keyword,
      before,
      after,
      oldNode,
      newNode,
      label,
      childLabel: (name) => (isRoot ? name : `${label}.${name}`),
      report: (change: ChangeReport) =>
        changes.push({
          class: CHANGE_CLASSES[change.kind],
          kind: change.kind,
          message: change.message,
          path: [...at, ...(change.at ?? [keyword])],
          side: change.side ?? (after === undefined ? 'old' : 'new'),
        }),
      walk: (b, a, below, name) => walk(b, a, [...at, ...below], name, false, changes),
      pairing: () => {
        pairing ??= pairProperties(oldNode, newNode);
        return pairing;
      },
    };
    (KEYWORD_TABLE.get(keyword)?.compare ?? unnamed)(context);
  }
}

/** A `renamedFrom` that pairs nothing, found by {@link checkRenames}. */
export interface RenameProblem {
  /** The path of the `renamedFrom` keyword in the newer schema. */
  path: Path;
  message: string;
}

/**
 * Checks each `renamedFrom` of the newer schema against the older one (docs/migrate.md): the
 * property it names must exist in the previous version, at the same parent, and the renamed
 * property must not. The rules that need only one version (the old name is not also a
 * property of this version, no two properties rename one name) are checked at load.
 */
export function checkRenames(before: JsonSchema | undefined, after: JsonSchema, at: Path = []): RenameProblem[] {
  const problems: RenameProblem[] = [];
  const oldProperties = before?.properties ?? {};
  const newProperties = after.properties ?? {};
  const continues = before ? pairProperties(before, after).continues : new Map<string, string>();
  for (const name of Object.keys(newProperties)) {
    const property = newProperties[name]!;
    const from = renamedFromOf(property);
    const path = [...at, PROPERTIES_KEYWORD, name, RENAMED_FROM];
    if (from !== undefined && !Object.hasOwn(oldProperties, from)) {
      problems.push({
        path,
        message: `${name}.renamedFrom names ${from}, which the previous version does not have here; renamedFrom pairs a property with its name in the version just before, so remove it once that version has the new name`,
      });
    } else if (from !== undefined && from !== name && Object.hasOwn(oldProperties, name)) {
      problems.push({ path, message: `${name}.renamedFrom names ${from}, but the previous version already has ${name}: nothing is renamed` });
    }
    const previous = continues.get(name);
    if (isSchemaObject(property))
      problems.push(...checkRenames(previous === undefined ? undefined : oldProperties[previous], property, [...at, PROPERTIES_KEYWORD, name]));
  }
  // Each subschema the keyword table places: one under items or additionalProperties, the paired
  // branches of a union, the parts of allOf by position.
  for (const keyword of SINGLE_SUBSCHEMA) {
    const sub = after[keyword];
    if (!isSchemaObject(sub)) continue;
    const old = before?.[keyword];
    problems.push(...checkRenames(isSchemaObject(old) ? old : undefined, sub, [...at, keyword]));
  }
  const newUnion = unionOf(after);
  if (newUnion) {
    const oldUnion = before ? unionOf(before) : undefined;
    const pairs = oldUnion ? pairBranches(oldUnion.branches, newUnion.branches).pairs : [];
    newUnion.branches.forEach((branch, j) => {
      const i = pairs.find(([, now]) => now === j)?.[0];
      problems.push(...checkRenames(i === undefined ? undefined : oldUnion?.branches[i], branch, [...at, newUnion.keyword, j]));
    });
  }
  (after.allOf ?? []).forEach((part, i) => {
    problems.push(...checkRenames(before?.allOf?.[i], part, [...at, COMBINING.all, i]));
  });
  return problems;
}

/** A SemVer bump, from none to major. */
export type Bump = 'none' | 'patch' | 'minor' | 'major';

const BUMP_ORDER: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

/**
 * The smallest bump a list of changes needs (docs/compat.md): a breaking change a major one, a
 * compatible change a minor one, words a patch. From a major version 0 (`from` is `0.y.z`)
 * anything may break: a breaking change needs a minor bump and anything else a patch (docs/compat.md).
 */
export function neededBump(changes: readonly { class: ChangeClass }[], from?: string): Bump {
  const isInitialDevelopment = from !== undefined && semver().major(from) === 0;
  if (changes.some((c) => c.class === 'breaking')) return isInitialDevelopment ? 'minor' : 'major';
  if (changes.some((c) => c.class === 'compatible')) return isInitialDevelopment ? 'patch' : 'minor';
  return changes.length > 0 ? 'patch' : 'none';
}

/**
 * The bump between two versions, read from their MAJOR.MINOR.PATCH (a prerelease counts as the
 * release it leads to): `2.1.0 → 2.2.0-rc.1` declares minor. `none` when the cores are equal.
 */
export function declaredBump(from: string, to: string): Bump {
  if (semver().major(from) !== semver().major(to)) return 'major';
  if (semver().minor(from) !== semver().minor(to)) return 'minor';
  return semver().patch(from) !== semver().patch(to) ? 'patch' : 'none';
}

/** True when the declared bump is at least the needed one. */
export function bumpCovers(declared: Bump, needed: Bump): boolean {
  return BUMP_ORDER.indexOf(declared) >= BUMP_ORDER.indexOf(needed);
}

/**
 * The lowest version after `from` that declares `bump` (`2.1.0` and major: `3.0.0`): what to
 * release a change as. After a prerelease, a patch is the next prerelease (`2.1.0-rc.1`:
 * `2.1.0-rc.2`), since the release it leads to is not out yet; `none` is `from` itself.
 */
export function versionDeclaring(from: string, bump: Bump): string {
  if (bump === 'none') return from;
  return semver().inc(from, bump === 'patch' && isPrerelease(from) ? 'prerelease' : bump) ?? from;
}
