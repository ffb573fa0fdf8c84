import { setOwn } from '../core/data.js';
import { isSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { KEYWORD_TABLE, subschemasOf } from './keywords.js';

/** A subschema as its parent holds it: under which keyword, at which key or index. */
export interface Subschema {
  readonly keyword: string;
  readonly key: string | number | undefined;
  readonly schema: JsonSchema;
}

/** What a visit of one node says: the answer the walk stops with, or the context of its children. */
export type WalkStep<C, T> = { readonly found: T } | { readonly children: (sub: Subschema) => C } | undefined;

/**
 * Visits a schema and every subschema the keyword table says it holds (`properties`, `items`,
 * the unions, ...), parents before children, in the order written; boolean subschemas hold
 * nothing and are not visited. `at` is the node's location (`/properties/a/items`). A visit
 * returns `{found}` to stop the walk with that answer, `{children}` to give each child its
 * context, or undefined to give the children its own. Iterative: a deep schema cannot overflow
 * the stack.
 */
export function walkSchema<C, T>(schema: JsonSchema, context: C, visit: (node: JsonSchema, at: string, context: C) => WalkStep<C, T>): T | undefined {
  const pending: { node: JsonSchema; at: string; context: C }[] = [{ node: schema, at: '', context }];
  while (pending.length > 0) {
    const { node, at, context: own } = pending.pop()!;
    if (!isSchemaObject(node)) continue;
    const step = visit(node, at, own);
    if (step && 'found' in step) return step.found;
    const children = subschemasOf(node);
    for (let i = children.length - 1; i >= 0; i--) {
      const sub = children[i]!;
      pending.push({ node: sub.schema, at: `${at}/${sub.keyword}${sub.key === undefined ? '' : `/${sub.key}`}`, context: step ? step.children(sub) : own });
    }
  }
  return undefined;
}

/**
 * The value of `keyword` with each subschema it holds (by the keyword table's positions)
 * replaced by `f(subschema)`: a new list or map, never the input changed. Returns undefined
 * when the keyword holds no subschemas (or its value is not of the shape its entry says).
 */
export function mapSubschemas(
  keyword: string,
  value: unknown,
  f: (schema: JsonSchema | boolean, key: string | number | undefined) => JsonSchema | boolean,
): unknown {
  const shape = KEYWORD_TABLE.get(keyword)?.subschemas;
  if (shape === 'list') return Array.isArray(value) ? (value as (JsonSchema | boolean)[]).map((sub, i) => f(sub, i)) : undefined;
  if (shape === 'map') {
    if (!isSchemaObject(value)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(value)) setOwn(out, key, f(sub as JsonSchema | boolean, key));
    return out;
  }
  if (shape === 'one' || shape === 'one-or-boolean') return isSchemaObject(value) || typeof value === 'boolean' ? f(value, undefined) : undefined;
  return undefined;
}
