import { describeValue, isMap } from '../core/data.js';
import { DIAGNOSTIC_CODES, error, type Issue } from '../core/diagnostics.js';
import type { Rendering, RenderingResult } from '../schema/handler.js';

const CODES: ReadonlySet<string> = new Set(DIAGNOSTIC_CODES);
const PARTS: ReadonlySet<unknown> = new Set(['key', 'value', 'parent']);

/**
 * Runs a plugin handler's `validateAndApplyDefaults` and checks what it returns against the
 * handler contract (DESIGN §5.3). A handler that throws, or returns anything but `{rendering,
 * issues}` with well-formed issues, yields one `plugin-error` at the binding's key naming the
 * plugin and what it did; the rendering then passes through unchanged. Never throws.
 */
export function runPluginHandler(plugin: string, run: () => unknown, rendering: Rendering): RenderingResult {
  let reason: string | undefined;
  let result: unknown;
  try {
    result = run();
    reason = malformation(result);
  } catch (err) {
    reason = `validateAndApplyDefaults threw ${thrownText(err)}`;
  }
  if (reason === undefined) return result as RenderingResult;
  return { rendering, issues: [error('plugin-error', [], `plugin ${plugin}: ${reason}`, { part: 'parent' })] };
}

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
