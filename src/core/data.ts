/** True for a plain mapping (not null, not a list). */
export function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets an own property, also for `__proto__`, without touching any prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * Appends every item to `target`, in order. `target.push(...items)` passes each item as an
 * argument, which overflows the stack for a few hundred thousand of them.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/**
 * A deep copy of plain data for code kurel does not trust to read it carefully (a plugin): its
 * maps have a null prototype and no own `__proto__` key, so copying them with `Object.assign`
 * or a `for … in` loop cannot set a prototype the data chose, and nothing is inherited at all.
 */
export function untrustedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untrustedCopy);
  if (!isMap(value)) return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) if (key !== '__proto__') out[key] = untrustedCopy(value[key]);
  return out;
}

/** A deep copy of plain data (maps and lists rebuilt, own `__proto__` keys kept as data). */
export function cloneData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneData);
  if (!isMap(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneData(value[key]));
  return out;
}

/** Describes a found value for messages: `integer 42`, `string "nginx"`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  // Only the shown start is quoted: a 15 MB value is not copied to be cut.
  if (typeof value === 'string') return `string ${truncate(JSON.stringify(value.length > SHOWN ? value.slice(0, SHOWN) : value))}`;
  if (typeof value === 'bigint') return `integer ${value}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer ${value}` : `number ${value}`;
  if (typeof value === 'boolean') return `boolean ${value}`;
  if (Array.isArray(value)) return 'a list';
  return 'a map';
}

/** Describes an expected literal for messages: strings bare (the empty string as ""), anything else as JSON. */
export function describeLiteral(value: unknown): string {
  if (value === '') return '""';
  return typeof value === 'string' ? truncate(value) : truncate(JSON.stringify(value) ?? String(value));
}

/**
 * Describes expected literals for messages, `a, b, c`, the first few only (`… and 120 more`),
 * so a message about an enum of thousands of values stays short and quick to build.
 */
export function describeLiterals(values: readonly unknown[]): string {
  const shown = values.slice(0, LISTED).map(describeLiteral).join(', ');
  return values.length > LISTED ? `${shown}, … and ${values.length - LISTED} more` : shown;
}

/**
 * Quotes a key for messages, `"replicas"`; one over 256 characters (longer than any Kubernetes
 * name) is cut and ends in `...` (README.md, "Limits").
 */
export function describeKey(key: string): string {
  return key.length > KEY_SHOWN ? `"${keepPairs(key, KEY_SHOWN - 3)}..."` : `"${key}"`;
}

// How much of a key a message shows.
const KEY_SHOWN = 256;

// How much of a value a message shows; anything longer ends in `...`.
const SHOWN = 60;
// How many expected values a message lists.
const LISTED = 20;

/** Cuts text for a message at 60 characters. */
export function truncate(text: string): string {
  return text.length > SHOWN ? `${keepPairs(text, SHOWN - 3)}...` : text;
}

/** The most characters a diagnostic's message or hint has (README.md, "Limits"). */
export const MAX_MESSAGE_LENGTH = 1000;

/** Cuts a diagnostic's message or hint at {@link MAX_MESSAGE_LENGTH} characters, ending it with `…`. */
export function boundMessage(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${keepPairs(text, MAX_MESSAGE_LENGTH - 1)}…` : text;
}

// The first `length` code units of `text`, one fewer when that would split a surrogate pair.
function keepPairs(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** Joins words as a list for messages: `a, b or c`. */
export function joinOr(words: readonly string[], empty = ''): string {
  if (words.length <= 1) return words[0] ?? empty;
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** Orders two strings by code unit: -1, 0 or 1. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Names the JSON type of a value for messages: `null`, `an array`, or its typeof. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

/** Orders strings byte-wise (UTF-8), as file paths are ordered (docs/profiles.md), not by UTF-16 code units. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  // Below the surrogates UTF-16 code units order as UTF-8 bytes do; the rest is encoded (a lone
  // surrogate as U+FFFD), with TextEncoder, which browsers have too (the console reads this module).
  if (!HIGH_UNITS.test(a) && !HIGH_UNITS.test(b)) return a < b ? -1 : 1;
  const x = UTF8.encode(a);
  const y = UTF8.encode(b);
  for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return Math.sign(x.length - y.length);
}

const HIGH_UNITS = /[\uD800-\uFFFF]/;
const UTF8 = new TextEncoder();
