import { type Alias, type Document, isAlias, isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import { setOwn } from '../core/data.js';
import type { DiagnosticCode, Path } from '../core/diagnostics.js';
import { LIMITS } from '../core/limits.js';

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
}

class StopConversion extends Error {}

/**
 * Converts a parsed YAML document to plain data the validators read, checking what the
 * parser leaves to us: keys must be strings, duplicate keys, merge keys (`<<`), nesting
 * depth and alias expansion (the same budget rule as the `yaml` package, so an alias bomb
 * stops early). Keys like `__proto__` become ordinary own properties.
 */
export function toData(
  doc: Document.Parsed,
  issues: RangedIssue[],
  lineOf: (offset: number) => number,
  anchorLineOf: (node: Node) => number = (node) => lineOf(rangeOf(node)[0]),
): unknown {
  const anchors = new Map<Node, AnchorState>();
  const byName = new Map<string, Node>();

  const convert = (node: unknown, path: Path, depth: number): unknown => {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return resolveAlias(node, path);
    const n = node as Node;
    let value: unknown;
    if (n.anchor) {
      byName.set(n.anchor, n);
      anchors.set(n, { value: undefined, done: false, count: 0, aliasCount: 0 });
    }
    if (isScalar(n)) value = scalarValue(n.value);
    else if (isMap(n)) value = convertMap(n.items as Pair[], path, depth + 1, n);
    else if (isSeq(n)) value = convertSeq(n.items, path, depth + 1, n);
    else value = null;
    if (n.anchor) {
      const state = anchors.get(n)!;
      state.value = value;
      state.done = true;
    }
    return value;
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
    for (const pair of pairs) {
      const key = pair.key as Node | null;
      if (isScalar(key) && typeof key.value === 'symbol') {
        merges.push(pair.value);
        continue;
      }
      const name = keyName(key);
      if (name === undefined) {
        issues.push({
          code: 'invalid-key',
          message: describeBadKey(key),
          // A scalar key is named as written (`/123`); a missing or complex key has no name.
          path: isScalar(key) && key.value !== null ? [...path, String(key.source ?? key.value)] : path,
          range: key ? rangeOf(key) : rangeOf(node),
        });
        continue;
      }
      if (Object.hasOwn(out, name)) {
        issues.push({
          code: 'duplicate-key',
          message: `duplicate key "${name}" (first defined on line ${lineOf(findKeyOffset(pairs, name))})`,
          path: [...path, name],
          range: rangeOf(key!),
        });
        continue;
      }
      setOwn(out, name, convert(pair.value, [...path, name], depth));
    }
    // Earlier merge sources win over later ones; explicit keys win over all.
    for (const source of merges) applyMerge(out, source, path, depth);
    return out;
  };

  const applyMerge = (out: Record<string, unknown>, source: unknown, path: Path, depth: number): void => {
    const sources = isSeq(source) ? source.items : [source];
    for (const item of sources) {
      const data = convert(item, path, depth - 1);
      // An alias with no anchor is reported once, as itself.
      if (isAlias(item) && !byName.has(item.source)) continue;
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        issues.push({
          code: 'wrong-type',
          message: 'a merge key (<<) takes a map, an alias of a map, or a list of them',
          path,
          range: rangeOf(item as Node),
        });
        continue;
      }
      for (const key of Object.keys(data)) {
        if (!Object.hasOwn(out, key)) setOwn(out, key, (data as Record<string, unknown>)[key]);
      }
    }
  };

  const resolveAlias = (alias: Alias, path: Path): unknown => {
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
    return state.value;
  };

  // The `yaml` package's weight of a node: the heaviest alias inside it, or 1.
  const aliasWeight = (node: unknown): number => {
    if (isAlias(node)) {
      const target = byName.get(node.source);
      const state = target ? anchors.get(target) : undefined;
      return state ? state.count * state.aliasCount : 0;
    }
    if (isMap(node) || isSeq(node)) {
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

function isPairLike(item: unknown): item is Pair {
  return typeof item === 'object' && item !== null && 'key' in item && 'value' in item && !isScalar(item);
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
  if (isScalar(key) && typeof key.value === 'string') return key.value;
  return undefined;
}

function describeBadKey(key: Node | null): string {
  if (key === null) return 'a map key is missing: keys must be non-empty strings';
  if (isScalar(key)) {
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
  if (isMap(node)) return 'map';
  return isSeq(node) ? 'list' : 'alias';
}

function findKeyOffset(pairs: readonly Pair[], name: string): number {
  for (const pair of pairs) {
    const key = pair.key as Node | null;
    if (isScalar(key) && key.value === name) return rangeOf(key)[0];
  }
  return 0;
}

/** The [start, end) source offsets of a node. */
export function rangeOf(node: Node | null | undefined): readonly [number, number] {
  const range = node?.range;
  return range ? [range[0], range[1]] : [0, 0];
}
