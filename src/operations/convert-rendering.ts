import { isMap, setOwn } from '../core/data.js';
import type { Path } from '../core/diagnostics.js';
import { isSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { compareVersions, isPrerelease } from '../core/versions.js';
import { pairProperties } from '../schema/compare-rules.js';

/** One step down a schema: a property's, the list items', or the undeclared keys' (`additionalProperties`). */
export type SchemaStep = { readonly property: string } | { readonly items: true } | { readonly additional: true };

/** The subschema a step leads to, when the schema has one. */
export function schemaAt(schema: JsonSchema | undefined, step: SchemaStep): JsonSchema | undefined {
  if (!schema) return undefined;
  if ('property' in step) return schema.properties && Object.hasOwn(schema.properties, step.property) ? schema.properties[step.property] : undefined;
  if ('items' in step) return isSchemaObject(schema.items) ? schema.items : undefined;
  return isSchemaObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** True when a map of this schema accepts keys it does not declare. */
function isOpenMap(schema: JsonSchema | undefined): boolean {
  const additional = schema?.additionalProperties;
  return additional === true || isSchemaObject(additional);
}

/**
 * How the properties of one map correspond between an older and a newer version (compat's
 * pairing, docs/migrate.md): each newer property continues the older one of its name, or the one
 * its `renamedFrom` names. Either schema may be missing (a map one version does not declare).
 */
function pairingOf(older: JsonSchema | undefined, newer: JsonSchema | undefined): { olderToNewer: Map<string, string>; newerToOlder: Map<string, string> } {
  if (!older || !newer) return { olderToNewer: new Map(), newerToOlder: new Map() };
  const pairing = pairProperties(older, newer);
  return { olderToNewer: new Map(pairing.continuedBy), newerToOlder: new Map(pairing.continues) };
}

/** One version of a definition and the schema its renderings are checked with. */
export interface VersionSchema {
  readonly version: string;
  readonly schema: JsonSchema;
}

/** A key a step renamed: its path in the rendering before the step and after it. */
export interface RenamedKey {
  readonly from: Path;
  readonly to: Path;
}

/** A key a step dropped (the version it converts to lacks the property), with its value. */
export interface DroppedKey {
  readonly path: Path;
  readonly value: unknown;
}

/** A property new in a step's target version, not set, whose default applies on validation. */
export interface DefaultedKey {
  readonly path: Path;
  readonly value: unknown;
}

/** What one step between consecutive versions did to a rendering. */
export interface ConversionStep {
  readonly from: string;
  readonly to: string;
  readonly renamed: readonly RenamedKey[];
  readonly dropped: readonly DroppedKey[];
  readonly defaulted: readonly DefaultedKey[];
}

/** A key of the rendering as written that the conversion renames, by its path in the rendering as written. */
export interface KeyRename {
  readonly path: Path;
  readonly to: string;
}

/** A key of the rendering as written that the conversion drops, and the step that drops it. */
export interface KeyDrop {
  readonly path: Path;
  /** The value as written. */
  readonly value: unknown;
  /** The step that drops it: `to` is the version that lacks the property. */
  readonly from: string;
  readonly to: string;
}

/** A rendering converted from the first version of a chain to the last. */
export interface RenderingConversion {
  /** The converted rendering (no defaults applied: validation applies them). */
  readonly rendering: Record<string, unknown>;
  readonly steps: readonly ConversionStep[];
  /** The net renames, keys as written: a key renamed and renamed back is not listed. Parents come before their children. */
  readonly renames: readonly KeyRename[];
  /** The net drops, outermost only (a key inside a dropped key goes with it). */
  readonly drops: readonly KeyDrop[];
  /** The path in the rendering as written of a path in the converted rendering (the same where nothing was renamed). */
  originalPath(path: Path): Path;
}

/**
 * The versions a migration steps through (docs/migrate.md): the two ends and every release
 * between them, in the direction of the migration; prereleases between them are not steps.
 * `versions` may be in any order; both ends must be among them.
 */
export function migrationChain(versions: readonly string[], from: string, to: string): string[] {
  if (from === to) return [from];
  const upward = compareVersions(from, to) < 0;
  const [low, high] = upward ? [from, to] : [to, from];
  const between = versions.filter((v) => !isPrerelease(v) && compareVersions(v, low) > 0 && compareVersions(v, high) < 0).sort(compareVersions);
  const chain = [low, ...new Set(between), high];
  return upward ? chain : chain.reverse();
}

/**
 * Converts a rendering along a chain of versions, one step per consecutive pair, upwards or
 * downwards (docs/migrate.md): a property with `renamedFrom` is the previous version's property
 * under a new name (a downward step renames it back); a property the target version of a
 * step lacks is dropped, unless that map accepts undeclared keys; a property new in it is left
 * to its default. Keys no version declares stay as they are. Pure: never mutates its input.
 */
export function convertRendering(rendering: Record<string, unknown>, chain: readonly VersionSchema[]): RenderingConversion {
  const root = track(rendering, []) as TrackedMap;
  const steps: ConversionStep[] = [];
  const drops: KeyDrop[] = [];
  for (let i = 1; i < chain.length; i++) {
    const source = chain[i - 1]!;
    const target = chain[i]!;
    const upward = compareVersions(source.version, target.version) < 0;
    const step = { from: source.version, to: target.version, renamed: [] as RenamedKey[], dropped: [] as DroppedKey[], defaulted: [] as DefaultedKey[] };
    const context: StepContext = { upward, step, drops };
    convertMap(root, upward ? source.schema : target.schema, upward ? target.schema : source.schema, [], [], context);
    steps.push(step);
  }
  const renames: KeyRename[] = [];
  collectRenames(root, renames);
  const outermost = drops.filter((drop) => !drops.some((other) => other !== drop && isPrefix(other.path, drop.path)));
  return { rendering: untrack(root) as Record<string, unknown>, steps, renames, drops: outermost, originalPath: (path) => originalPathOf(root, path) };
}

/**
 * For each property a map of the last version of a chain declares, the property of the first
 * version it comes from, following the renames of every step; `undefined` for a property new
 * somewhere along the chain. `steps` leads from the rendering's root to the map (a property,
 * list items, or undeclared keys).
 */
export function traceToFirst(chain: readonly VersionSchema[], steps: readonly SchemaStep[]): JsonSchema | undefined {
  let current = [...steps];
  for (let i = chain.length - 1; i > 0; i--) {
    const later = chain[i]!;
    const earlier = chain[i - 1]!;
    const upward = compareVersions(earlier.version, later.version) < 0;
    const mapped: SchemaStep[] = [];
    let laterSchema: JsonSchema | undefined = later.schema;
    let earlierSchema: JsonSchema | undefined = earlier.schema;
    for (const step of current) {
      let earlierStep: SchemaStep = step;
      if ('property' in step) {
        const pairing = pairingOf(upward ? earlierSchema : laterSchema, upward ? laterSchema : earlierSchema);
        const name = (upward ? pairing.newerToOlder : pairing.olderToNewer).get(step.property);
        if (name === undefined) return undefined;
        earlierStep = { property: name };
      }
      mapped.push(earlierStep);
      laterSchema = schemaAt(laterSchema, step);
      earlierSchema = schemaAt(earlierSchema, earlierStep);
      if (!laterSchema || !earlierSchema) return undefined;
    }
    current = mapped;
  }
  let schema: JsonSchema | undefined = chain[0]?.schema;
  for (const step of current) schema = schemaAt(schema, step);
  return schema;
}

type Tracked = TrackedMap | { readonly kind: 'list'; readonly items: Tracked[] } | { readonly kind: 'value'; readonly value: unknown };

interface TrackedMap {
  readonly kind: 'map';
  entries: TrackedEntry[];
}

/** A key of a map: its name now, and its path in the rendering as written. */
interface TrackedEntry {
  key: string;
  readonly origin: Path;
  readonly value: Tracked;
  /** The value as written, for messages about dropping it. */
  readonly written: unknown;
}

interface StepContext {
  readonly upward: boolean;
  readonly step: { renamed: RenamedKey[]; dropped: DroppedKey[]; defaulted: DefaultedKey[]; from: string; to: string };
  readonly drops: KeyDrop[];
}

function track(value: unknown, origin: Path): Tracked {
  if (Array.isArray(value)) return { kind: 'list', items: value.map((item, i) => track(item, [...origin, i])) };
  if (!isMap(value)) return { kind: 'value', value };
  return {
    kind: 'map',
    entries: Object.keys(value).map((key) => ({ key, origin: [...origin, key], value: track(value[key], [...origin, key]), written: value[key] })),
  };
}

function untrack(tracked: Tracked): unknown {
  if (tracked.kind === 'value') return tracked.value;
  if (tracked.kind === 'list') return tracked.items.map(untrack);
  const out: Record<string, unknown> = {};
  for (const entry of tracked.entries) setOwn(out, entry.key, untrack(entry.value));
  return out;
}

// One step on one map. `older` and `newer` are the map's schemas in the step's two versions;
// the data is in the older one's shape on an upward step, in the newer one's on a downward step.
function convertMap(map: TrackedMap, older: JsonSchema | undefined, newer: JsonSchema | undefined, before: Path, after: Path, context: StepContext): void {
  const { upward, step } = context;
  const [source, target] = upward ? [older, newer] : [newer, older];
  const pairing = pairingOf(older, newer);
  const targetOf = upward ? pairing.olderToNewer : pairing.newerToOlder;
  const declared = source?.properties ?? {};
  const kept: TrackedEntry[] = [];
  for (const entry of map.entries) {
    const name = entry.key;
    const from = [...before, name];
    if (!Object.hasOwn(declared, name)) {
      // A key the source version does not declare: data of an open map, or a mistake validation reports.
      const olderShape = schemaAt(older, { additional: true });
      const newerShape = schemaAt(newer, { additional: true });
      if (olderShape && newerShape) convertValue(entry.value, olderShape, newerShape, from, [...after, name], context);
      kept.push(entry);
      continue;
    }
    const renamedTo = targetOf.get(name);
    if (renamedTo === undefined) {
      if (isOpenMap(target)) kept.push(entry);
      else {
        step.dropped.push({ path: from, value: untrack(entry.value) });
        context.drops.push({ path: entry.origin, value: entry.written, from: step.from, to: step.to });
      }
      continue;
    }
    const to = [...after, renamedTo];
    if (renamedTo !== name) step.renamed.push({ from, to });
    const olderChild = schemaAt(older, { property: upward ? name : renamedTo });
    const newerChild = schemaAt(newer, { property: upward ? renamedTo : name });
    entry.key = renamedTo;
    convertValue(entry.value, olderChild, newerChild, from, to, context);
    kept.push(entry);
  }
  map.entries = kept;
  const present = new Set(kept.map((e) => e.key));
  const continued = upward ? pairing.newerToOlder : pairing.olderToNewer;
  for (const name of Object.keys(target?.properties ?? {})) {
    if (continued.has(name)) continue;
    // New in the step's target version: the rendering goes without it, and its default applies.
    const fallback = schemaAt(target, { property: name })?.default;
    if (fallback !== undefined && !present.has(name)) step.defaulted.push({ path: [...after, name], value: fallback });
  }
}

function convertValue(value: Tracked, older: JsonSchema | undefined, newer: JsonSchema | undefined, before: Path, after: Path, context: StepContext): void {
  if (value.kind === 'map') convertMap(value, older, newer, before, after, context);
  else if (value.kind === 'list') {
    const olderItems = schemaAt(older, { items: true });
    const newerItems = schemaAt(newer, { items: true });
    if (!olderItems || !newerItems) return;
    for (const [i, item] of value.items.entries()) convertValue(item, olderItems, newerItems, [...before, i], [...after, i], context);
  }
}

function collectRenames(tracked: Tracked, out: KeyRename[]): void {
  if (tracked.kind === 'list') for (const item of tracked.items) collectRenames(item, out);
  if (tracked.kind !== 'map') return;
  for (const entry of tracked.entries) {
    if (entry.origin[entry.origin.length - 1] !== entry.key) out.push({ path: entry.origin, to: entry.key });
    collectRenames(entry.value, out);
  }
}

function originalPathOf(root: TrackedMap, path: Path): Path {
  let node: Tracked | undefined = root;
  let origin: Path = [];
  for (const [depth, segment] of path.entries()) {
    if (node?.kind === 'map') {
      const entry: TrackedEntry | undefined = node.entries.find((e) => e.key === String(segment));
      if (!entry) return [...origin, ...path.slice(depth)];
      origin = entry.origin;
      node = entry.value;
    } else if (node?.kind === 'list' && Number.isInteger(Number(segment)) && node.items[Number(segment)]) {
      origin = [...origin, Number(segment)];
      node = node.items[Number(segment)];
    } else {
      return [...origin, ...path.slice(depth)];
    }
  }
  return origin;
}

function isPrefix(prefix: Path, path: Path): boolean {
  return prefix.length < path.length && prefix.every((segment, i) => segment === path[i]);
}
