import { isMap } from '../core/data.js';
import { hasType, isSchemaObject, type JsonSchema } from '../core/json-schema.js';

/**
 * How the engine reads a union (`anyOf`, `oneOf`): the one place that says when its branches
 * are told apart by a property's literal (a discriminator), for the checker, which picks the
 * branch by it, and for compat, which pairs the branches of two versions by it.
 */

/** The value a schema allows alone: its `const`, or the one value of its `enum`; undefined otherwise. */
export function literalOf(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length === 1) return schema.enum[0];
  return undefined;
}

// A tag is looked up by value in data: only scalars compare so.
function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** True when every branch is a map schema requiring `key` with a scalar literal no other branch has. */
export function tellsApart(branches: readonly JsonSchema[], key: string): boolean {
  const seen = new Set<unknown>();
  return branches.every((branch) => {
    if (!isSchemaObject(branch) || !isMap(branch.properties) || !hasType(branch, 'object')) return false;
    const literal = literalOf(branch.properties[key]);
    if (literal === undefined || !isScalar(literal) || seen.has(literal) || !(branch.required ?? []).includes(key)) return false;
    seen.add(literal);
    return true;
  });
}

/** The first property of the first branch that tells two or more branches apart; undefined when none does. */
export function discriminatorKey(branches: readonly JsonSchema[]): string | undefined {
  const first = branches[0];
  if (branches.length < 2 || !isSchemaObject(first) || !isMap(first.properties)) return undefined;
  return Object.keys(first.properties).find((key) => tellsApart(branches, key));
}
