import { isMap } from '../core/data.js';

/**
 * True when two plain data values are equal as JSON Schema compares them (`const`, `enum`):
 * deep, key order aside, own keys only, and numbers by their value, so an integer beyond 2^53
 * read as a bigint equals the same integer written as a number in a schema.
 */
export function equalData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isNumeric(a) && isNumeric(b)) return sameNumber(a, b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equalData(item, b[i]));
  if (isMap(a) && isMap(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && equalData(a[key], b[key]));
  }
  return false;
}

function isNumeric(value: unknown): value is number | bigint {
  return typeof value === 'number' || typeof value === 'bigint';
}

function sameNumber(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  // One is a bigint: equal only to an integer of exactly its value.
  const [big, other] = typeof a === 'bigint' ? [a, b] : [b as bigint, a];
  if (typeof other === 'bigint') return big === other;
  return Number.isInteger(other) && BigInt(other) === big;
}
