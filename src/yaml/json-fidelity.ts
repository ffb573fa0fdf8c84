import { LIMITS } from '../core/input-limits.js';
import { SURELY_TOO_DEEP } from './depth.js';

/**
 * True when `data`, the result of `JSON.parse(text)`, is exactly the data the YAML reader
 * gives for the same text (JSON is YAML 1.2), so a validator may judge it without the slow
 * YAML parse. False when only the YAML reader can say: a member name repeated in an object
 * (JSON.parse keeps the last, YAML reports `duplicate-key`), an integer beyond 2^53 (YAML
 * keeps it exact), a number that is not finite or is `-0`, or nesting near the depth limit.
 */
export function isYamlFaithfulJson(text: string, data: unknown): boolean {
  const members = countMembers(data, 0, true);
  return members !== -1 && members === countColons(text);
}

/**
 * What `JSON.parse(text)` (given as `data`) let pass that a reader of JSON documents should
 * refuse: nesting deeper than the depth limit, or an object repeating a member name (only the
 * last was kept).
 */
export function jsonDecodingProblem(text: string, data: unknown): 'too-deep' | 'repeated-name' | undefined {
  const members = countMembers(data, 0, false);
  if (members === -1) return 'too-deep';
  return members === countColons(text) ? undefined : 'repeated-name';
}

/**
 * The offset of the first array or object of a JSON text nested beyond the depth limit, when
 * more than {@link SURELY_TOO_DEEP} of them are: where the YAML reader, which would take
 * seconds and hundreds of MB to get there, refuses the same text. `undefined` otherwise (the
 * YAML reader then reports any nesting beyond the limit itself, with its path). The text must
 * be valid JSON.
 */
export function findSurelyTooDeepJson(text: string): number | undefined {
  let depth = 0;
  let beyond = 0;
  let first: number | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > LIMITS.maxDepth) {
        first ??= i;
        beyond += 1;
        if (beyond > SURELY_TOO_DEEP) return first;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return undefined;
}

// The offset of the quote that closes the string opened at `open` (the text's end if none).
function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
  return end === -1 ? text.length : end;
}

// Every member of a JSON object is written `"name": value`, and a colon outside a string
// appears nowhere else; fewer members than colons means JSON.parse merged a repeated name.
function countColons(text: string): number {
  let colons = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (end === n) return -1;
      i = end + 1;
    } else {
      if (c === 0x3a) colons += 1;
      i += 1;
    }
  }
  return colons;
}

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let j = quote - 1; text.charCodeAt(j) === 0x5c; j--) backslashes += 1;
  return backslashes % 2 === 1;
}

// Members of every object in the data, or -1 past the depth limit; when `faithful`, also -1
// for data YAML reads differently.
function countMembers(value: unknown, depth: number, faithful: boolean): number {
  if (typeof value === 'number') {
    if (!faithful) return 0;
    return Number.isFinite(value) && !Object.is(value, -0) && (!Number.isInteger(value) || Number.isSafeInteger(value)) ? 0 : -1;
  }
  if (typeof value !== 'object' || value === null) return 0;
  // The YAML reader stops at LIMITS.maxDepth; leave anything near it to the reader.
  if (depth >= LIMITS.maxDepth - (faithful ? 1 : 0)) return -1;
  let total = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = countMembers(item, depth + 1, faithful);
      if (inner === -1) return -1;
      total += inner;
    }
    return total;
  }
  const map = value as Record<string, unknown>;
  for (const key of Object.keys(map)) {
    const inner = countMembers(map[key], depth + 1, faithful);
    if (inner === -1) return -1;
    total += inner + 1;
  }
  return total;
}
