import type { Alias, Document, Node, Pair } from 'yaml';
import { setOwn } from '../core/data.js';
import type { DiagnosticCode, Path } from '../core/diagnostics.js';
import { LIMITS } from '../core/input-limits.js';
import { yaml } from './yaml-lib.js';

/** A problem found while reading the YAML tree, with its source offsets. */
export interface RangedIssue {
  code: DiagnosticCode;
  message: string;
  path: Path;
  range: readonly [number, number];
  hint?: string;
}

interface AnchorState {
  value: unknown;
  done: boolean;
  count: number;
  aliasCount: number;
  /** Values the anchored node produced: what each use of an alias of it adds. */
  size: number;
}

class StopConversion extends Error {}

/**
 * Converts a parsed YAML document to plain data the validators read, checking what the
 * parser leaves to us: keys must be strings, duplicate keys, merge keys (`<<`), nesting
 * depth and alias expansion. Expansion has two limits, so an alias bomb stops early: the
 * `yaml` package's count of alias uses, and a budget of produced values (keys and values of
 * the data as a tree: an alias adds its whole value each time it is used, a merge key each
 * key it copies) of {@link expansionBudget} for the document's source nodes.
 * Keys like `__proto__` become ordinary own properties.
 */
export function toData(
  doc: Document.Parsed,
  issues: RangedIssue[],
  lineOf: (offset: number) => number,
  anchorLineOf: (node: Node) => number = (node) => lineOf(rangeOf(node)[0]),
): unknown {
  const anchors = new Map<Node, AnchorState>();
  const byName = new Map<string, Node>();
  // Values produced so far, against the budget of the document's source nodes.
  let produced = 0;
  let sourceNodes: number | undefined;
  let budget: number | undefined;
  const sizes = new WeakMap<object, number>();

  const convert = (node: unknown, path: Path, depth: number): unknown => {
    if (yaml().isAlias(node)) return resolveAlias(node, path);
    produced += 1;
    if (node === null || node === undefined) return null;
    const n = node as Node;
    let value: unknown;
    const before = produced - 1;
    if (n.anchor) {
      byName.set(n.anchor, n);
      anchors.set(n, { value: undefined, done: false, count: 0, aliasCount: 0, size: 1 });
    }
    if (yaml().isScalar(n)) value = scalarValue(n.value);
    else if (yaml().isMap(n)) value = convertMap(n.items as Pair[], path, depth + 1, n);
    else if (yaml().isSeq(n)) value = convertSeq(n.items, path, depth + 1, n);
    else value = null;
    if (n.anchor) {
      const state = anchors.get(n)!;
      state.value = value;
      state.done = true;
      state.size = produced - before;
      if (typeof value === 'object' && value !== null) sizes.set(value, state.size);
    }
    return value;
  };

  // The document's budget, counted when an alias or a merge first needs it.
  const documentBudget = (): number => {
    sourceNodes ??= countSourceNodes(doc.contents);
    budget ??= expansionBudget(sourceNodes);
    return budget;
  };

  // Stops the conversion when `more` values would take the document past its budget.
  const spend = (more: number, at: Node, path: Path, culprit: string): void => {
    if (produced + more <= documentBudget()) {
      produced += more;
      return;
    }
    issues.push({
      code: 'alias-limit',
      message: `${culprit} expands the document beyond ${budget} values, the limit for a document of ${sourceNodes} nodes${
        yaml().isAlias(at) && byName.has(at.source) ? ` (anchor on line ${anchorLineOf(byName.get(at.source)!)})` : ''
      }`,
      path,
      range: rangeOf(at),
    });
    throw new StopConversion();
  };

  // How many values a value copied by a merge adds: itself, and every key and value under it,
  // counted only as far as the budget could still allow.
  const sizeOf = (value: unknown): number => {
    if (typeof value !== 'object' || value === null) return 1;
    const known = sizes.get(value);
    if (known !== undefined) return known;
    const cap = documentBudget() - produced + 1;
    let count = 0;
    const stack: unknown[] = [value];
    while (stack.length > 0 && count <= cap) {
      const item = stack.pop();
      count += 1;
      if (typeof item !== 'object' || item === null) continue;
      if (Array.isArray(item)) {
        for (const element of item) stack.push(element);
      } else {
        const map = item as Record<string, unknown>;
        for (const key of Object.keys(map)) {
          count += 1;
          stack.push(map[key]);
        }
      }
    }
    if (stack.length === 0) sizes.set(value, count);
    return count;
  };

  const checkDepth = (depth: number, node: Node, path: Path): boolean => {
    if (depth <= LIMITS.maxDepth) return true;
    issues.push({
      code: 'too-deep',
      message: `nesting deeper than ${LIMITS.maxDepth} levels is not accepted`,
      path,
      range: rangeOf(node),
    });
    throw new StopConversion();
  };

  const convertSeq = (items: readonly unknown[], path: Path, depth: number, node: Node): unknown[] => {
    checkDepth(depth, node, path);
    const out: unknown[] = [];
    for (let i = 0; i < items.length; i++) out.push(convert(items[i], [...path, i], depth));
    return out;
  };

  const convertMap = (pairs: readonly Pair[], path: Path, depth: number, node: Node): Record<string, unknown> => {
    checkDepth(depth, node, path);
    const out: Record<string, unknown> = {};
    const merges: unknown[] = [];
    // Where each key is first written, indexed at the first repeat only, so that every repeat
    // after it is named in constant time.
    let firstKeys: Map<string, number> | undefined;
    for (const pair of pairs) {
      const key = pair.key as Node | null;
      if (yaml().isScalar(key) && typeof key.value === 'symbol') {
        merges.push(pair.value);
        continue;
      }
      const name = keyName(key);
      if (name === undefined) {
        issues.push({
          code: 'invalid-key',
          message: describeBadKey(key),
          // A scalar key is named as written (`/123`); a missing or complex key has no name.
          path: yaml().isScalar(key) && key.value !== null ? [...path, String(key.source ?? key.value)] : path,
          range: key ? rangeOf(key) : rangeOf(node),
        });
        continue;
      }
      if (Object.hasOwn(out, name)) {
        firstKeys ??= indexFirstKeys(pairs);
        issues.push({
          code: 'duplicate-key',
          message: `duplicate key "${name}" (first defined on line ${lineOf(firstKeys.get(name) ?? 0)})`,
          path: [...path, name],
          range: rangeOf(key!),
        });
        continue;
      }
      produced += 1;
      setOwn(out, name, convert(pair.value, [...path, name], depth));
    }
    // Earlier merge sources win over later ones; explicit keys win over all.
    for (const source of merges) applyMerge(out, source, path, depth);
    return out;
  };

  const applyMerge = (out: Record<string, unknown>, source: unknown, path: Path, depth: number): void => {
    const sources = yaml().isSeq(source) ? source.items : [source];
    for (const item of sources) {
      const data = yaml().isAlias(item) ? resolveAlias(item, path, true) : convert(item, path, depth - 1);
      // An alias with no anchor is reported once, as itself.
      if (yaml().isAlias(item) && !byName.has(item.source)) continue;
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        issues.push({
          code: 'wrong-type',
          message: 'a merge key (<<) takes a map, an alias of a map, or a list of them',
          path,
          range: rangeOf(item as Node),
        });
        continue;
      }
      const source = data as Record<string, unknown>;
      const copied = Object.keys(source).filter((key) => !Object.hasOwn(out, key));
      // Counted before copying, so a merge past the budget builds nothing.
      const room = documentBudget() - produced;
      let cost = 0;
      for (const key of copied) {
        cost += 1 + sizeOf(source[key]);
        if (cost > room) break;
      }
      spend(cost, item as Node, path, yaml().isAlias(item) ? `alias *${item.source}` : 'a merge key (<<)');
      for (const key of copied) setOwn(out, key, source[key]);
    }
  };

  // A merge counts the keys it copies, not the alias it copies them from.
  const resolveAlias = (alias: Alias, path: Path, merged = false): unknown => {
    const target = byName.get(alias.source);
    if (!target) {
      issues.push({
        code: 'yaml-syntax',
        message: `alias *${alias.source} has no anchor before it`,
        path,
        range: rangeOf(alias),
        // `*.apps.example.com` was meant as text far more often than as an alias.
        hint: `a value starting with * is an alias; if it is text, quote it: ${JSON.stringify(`*${alias.source}`)}`,
      });
      if (!merged) produced += 1;
      return null;
    }
    const state = anchors.get(target)!;
    if (!state.done) {
      issues.push({
        code: 'alias-limit',
        message: `alias *${alias.source} refers to the node that contains it (anchor on line ${anchorLineOf(target)})`,
        path,
        range: rangeOf(alias),
      });
      throw new StopConversion();
    }
    state.count += 1;
    if (state.aliasCount === 0) state.aliasCount = aliasWeight(target);
    if (state.count * state.aliasCount > LIMITS.maxAliasCount) {
      issues.push({
        code: 'alias-limit',
        message: `alias *${alias.source} expands beyond the limit of ${LIMITS.maxAliasCount} alias uses (anchor on line ${anchorLineOf(target)})`,
        path,
        range: rangeOf(alias),
      });
      throw new StopConversion();
    }
    if (!merged) spend(state.size, alias, path, `alias *${alias.source}`);
    return state.value;
  };

  // The `yaml` package's weight of a node: the heaviest alias inside it, or 1.
  const aliasWeight = (node: unknown): number => {
    if (yaml().isAlias(node)) {
      const target = byName.get(node.source);
      const state = target ? anchors.get(target) : undefined;
      return state ? state.count * state.aliasCount : 0;
    }
    if (yaml().isMap(node) || yaml().isSeq(node)) {
      let weight = 0;
      for (const item of node.items as unknown[]) {
        const w = isPairLike(item) ? Math.max(aliasWeight(item.key), aliasWeight(item.value)) : aliasWeight(item);
        if (w > weight) weight = w;
      }
      return weight;
    }
    return 1;
  };

  try {
    return convert(doc.contents, [], 0);
  } catch (err) {
    if (err instanceof StopConversion) return undefined;
    if (err instanceof RangeError) {
      issues.push({
        code: 'too-deep',
        message: `nesting deeper than ${LIMITS.maxDepth} levels is not accepted`,
        path: [],
        range: [0, 0],
      });
      return undefined;
    }
    throw err;
  }
}

/** The most values a document of `sourceNodes` parsed nodes may expand to (docs/profiles.md). */
export function expansionBudget(sourceNodes: number): number {
  return Math.min(Math.max(LIMITS.expansionFactor * sourceNodes, LIMITS.minProducedValues), LIMITS.maxProducedValues);
}

// The nodes the parser built: scalars (keys too), maps, sequences and aliases.
function countSourceNodes(root: unknown): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined) continue;
    if (yaml().isMap(node)) {
      for (const pair of node.items as Pair[]) stack.push(pair.key, pair.value);
    } else if (yaml().isSeq(node)) {
      for (const item of node.items) stack.push(item);
    } else if (!yaml().isScalar(node) && !yaml().isAlias(node)) {
      continue;
    }
    count += 1;
  }
  return count;
}

function isPairLike(item: unknown): item is Pair {
  return typeof item === 'object' && item !== null && 'key' in item && 'value' in item && !yaml().isScalar(item);
}

function scalarValue(value: unknown): unknown {
  if (typeof value === 'bigint') {
    // Only integers beyond 2^53 stay exact as bigint; the rest are ordinary numbers.
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  if (typeof value === 'symbol') return value.description ?? '';
  return value;
}

function keyName(key: Node | null): string | undefined {
  if (yaml().isScalar(key) && typeof key.value === 'string') return key.value;
  return undefined;
}

function describeBadKey(key: Node | null): string {
  if (key === null) return 'a map key is missing: keys must be non-empty strings';
  if (yaml().isScalar(key)) {
    const v = key.value;
    return `keys must be strings, found ${scalarKind(key.value)} ${String(key.source ?? v)}; quote it to use it as a name`;
  }
  return `keys must be scalars (strings), found a ${collectionKind(key)}`;
}

function scalarKind(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return 'integer';
  return typeof v;
}

function collectionKind(node: Node): string {
  if (yaml().isMap(node)) return 'map';
  return yaml().isSeq(node) ? 'list' : 'alias';
}

// The offset of each string key's first occurrence in a map.
function indexFirstKeys(pairs: readonly Pair[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const pair of pairs) {
    const key = pair.key as Node | null;
    if (yaml().isScalar(key) && typeof key.value === 'string' && !first.has(key.value)) first.set(key.value, rangeOf(key)[0]);
  }
  return first;
}

/** The [start, end) source offsets of a node. */
export function rangeOf(node: Node | null | undefined): readonly [number, number] {
  const range = node?.range;
  return range ? [range[0], range[1]] : [0, 0];
}
