import { describeValue, isMap } from '../core/data.js';
import { DIAGNOSTIC_CODES, error, type Issue } from '../core/diagnostics.js';
import { LIMITS } from '../core/input-limits.js';
import type { Rendering, RenderingResult } from '../schema/handler.js';

const CODES: ReadonlySet<string> = new Set(DIAGNOSTIC_CODES);
const PARTS: ReadonlySet<unknown> = new Set(['key', 'value', 'parent']);

/**
 * Runs a plugin handler's `validateAndApplyDefaults` and checks what it returns against the
 * handler contract (docs/codes/plugin-error.md). A handler that throws, calls `process.exit`,
 * or returns anything but `{rendering, issues}` with well-formed issues and a rendering that is
 * JSON data (no cycle, function, bigint, symbol, class instance or non-finite number), yields one
 * `plugin-error` at the binding's key naming the plugin and what it did; the rendering then
 * passes through unchanged. Never throws, and never lets the plugin end the process or thread.
 */
export function runPluginHandler(plugin: string, run: () => unknown, rendering: Rendering): RenderingResult {
  let reason: string | undefined;
  let result: unknown;
  let exitCode: unknown;
  let exited = false;
  const exit = process.exit;
  // process.exit would end the CLI, or the service's worker thread with the request in it.
  process.exit = ((code?: unknown) => {
    exited = true;
    exitCode = code;
    throw new PluginExit();
  }) as typeof process.exit;
  try {
    result = run();
    reason = malformation(result);
  } catch (err) {
    reason = exited ? undefined : `validateAndApplyDefaults threw ${thrownText(err)}`;
  } finally {
    process.exit = exit;
  }
  if (exited) reason = `validateAndApplyDefaults called process.exit(${exitCodeText(exitCode)})`;
  if (reason === undefined) return result as RenderingResult;
  return { rendering, issues: [error('plugin-error', [], `plugin ${plugin}: ${reason}`, { part: 'parent' })] };
}

function exitCodeText(code: unknown): string {
  if (code === undefined) return '';
  return typeof code === 'number' ? String(code) : describeValue(code);
}

/** Thrown in place of a plugin's `process.exit`, to leave the plugin at once. */
class PluginExit extends Error {}

/** What is wrong with a handler's result, or undefined when it keeps the contract. */
function malformation(result: unknown): string | undefined {
  const returned = 'validateAndApplyDefaults returned';
  if (result instanceof Promise) {
    // A rejection nobody awaits would otherwise surface as an unhandled one.
    result.catch(() => undefined);
    return `${returned} a promise; it must return {rendering, issues} synchronously`;
  }
  if (!isMap(result)) return `${returned} ${describeValue(result)}; expected a map {rendering, issues}`;
  if (!isMap(result['rendering'])) return `${returned} a rendering that is ${describeValue(result['rendering'])}; expected a map`;
  const notData = notJsonData(result['rendering']);
  if (notData !== undefined) return `${returned} a rendering that is not JSON data: ${notData}`;
  const issues = result['issues'];
  if (!Array.isArray(issues)) return `${returned} issues that are ${describeValue(issues)}; expected a list`;
  for (let i = 0; i < issues.length; i++) {
    const problem = issueMalformation(issues[i]);
    if (problem !== undefined) return `${returned} issue ${i} ${problem}`;
  }
  return undefined;
}

function issueMalformation(issue: unknown): string | undefined {
  if (!isMap(issue)) return `as ${describeValue(issue)}; expected a map {code, severity, message, path}`;
  const { code, severity, message, path, hint, part, at } = issue as Partial<Record<keyof Issue, unknown>>;
  if (typeof code !== 'string' || !CODES.has(code)) return `with code ${describeValue(code)}, which is not a kurel diagnostic code`;
  if (severity !== 'error' && severity !== 'warning') return `with severity ${describeValue(severity)}; expected error or warning`;
  if (typeof message !== 'string') return `with message ${describeValue(message)}; expected a string`;
  if (!isPath(path)) return `with path ${describeValue(path)}; expected a list of keys and indexes`;
  if (hint !== undefined && typeof hint !== 'string') return `with hint ${describeValue(hint)}; expected a string`;
  if (part !== undefined && !PARTS.has(part)) return `with part ${describeValue(part)}; expected key, value or parent`;
  if (at !== undefined && !(isMap(at) && isPath(at['path']) && PARTS.has(at['part']))) return 'with an "at" that is not {path, part}';
  return undefined;
}

function isPath(path: unknown): boolean {
  return Array.isArray(path) && path.every((segment) => typeof segment === 'string' || (typeof segment === 'number' && Number.isInteger(segment)));
}

function thrownText(err: unknown): string {
  try {
    if (err instanceof Error) return `${err.name}: ${err.message}`;
    return String(err);
  } catch {
    return 'a value that cannot be printed';
  }
}

/**
 * Where a value stops being JSON data, or undefined when it is all data: a cycle, a function,
 * a bigint, a symbol, a non-finite number, an object other than a plain map or list, or more
 * values (a value held twice counts twice, as its JSON text repeats it) than a document may
 * produce (`LIMITS.maxProducedValues`). Walks without recursion, so a deep rendering cannot
 * overflow the stack; its cost is bounded by that limit.
 */
function notJsonData(root: unknown): string | undefined {
  // A value to check, or the end of an object's children (it leaves the path of open objects).
  const stack: ({ value: unknown; path: string } | { leave: object })[] = [{ value: root, path: '' }];
  const open = new Set<object>();
  let values = 0;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if ('leave' in entry) {
      open.delete(entry.leave);
      continue;
    }
    const { value, path } = entry;
    const at = path === '' ? 'the rendering' : path;
    if (++values > LIMITS.maxProducedValues) return `it holds more than ${LIMITS.maxProducedValues} values`;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `${at} is ${String(value)}, which JSON cannot hold`;
      continue;
    }
    if (value === undefined) return `${at} is undefined`;
    if (typeof value !== 'object') return `${at} is a ${typeof value}`;
    if (open.has(value)) return `${at} refers back to an object that holds it (a cycle)`;
    const prototype: unknown = Object.getPrototypeOf(value);
    const isList = Array.isArray(value);
    if (!isList && prototype !== Object.prototype && prototype !== null) return `${at} is ${describeObject(value)}, not a plain map`;
    open.add(value);
    stack.push({ leave: value });
    const keys = Object.keys(value);
    // Pushed in reverse, so the first key is checked first and named first.
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const child = (value as Record<string, unknown>)[key];
      if (child === undefined && !isList) continue;
      stack.push({ value: child, path: `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` });
    }
  }
  return undefined;
}

function describeObject(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a prototype';
}
