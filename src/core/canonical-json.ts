import { isMap } from './data.js';

/**
 * A canonical JSON text of plain data: map keys sorted by code unit, integers beyond 2^53
 * (bigint) written as `<digits>n` strings, so two values are equal exactly when their texts
 * are. For comparing data, not for publishing it.
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (isMap(v)) {
        const sorted: Record<string, unknown> = {};
        for (const key of Object.keys(v).sort()) Object.defineProperty(sorted, key, { value: v[key], enumerable: true });
        return sorted;
      }
      return v;
    }) ?? 'undefined'
  );
}

/** True when two plain data values are equal (deep, key order aside). */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalJson(a) === canonicalJson(b);
}
