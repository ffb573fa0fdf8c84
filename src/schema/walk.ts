import { isSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { subschemasOf } from './keywords.js';

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
