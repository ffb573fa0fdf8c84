import { createRequire } from 'node:module';
import type { JsonSchema } from '../core/json-schema.js';
import { isSchemaObject } from '../core/json-schema.js';
import { ENUM_LIFECYCLE, KEYWORD_TABLE, subschemasOf } from './keywords.js';
import { checkLifecycleDeclaration, type EnclosingLifecycle } from './lifecycle.js';
import { checkPattern } from './pattern.js';

type MetaValidator = (schema: unknown) => string | undefined;
let metaValidator: MetaValidator | undefined;

interface AjvLike {
  validateSchema(schema: unknown): boolean;
  compile(schema: unknown): unknown;
  errorsText(errors: unknown): string;
  errors: unknown;
}

/**
 * Why a schema from outside (a plugin's) cannot be used, or undefined when it can: it must be
 * a valid JSON Schema 2020-12 (ajv's meta-schema), use only the keywords kurel's engine
 * evaluates (the keyword table), so nothing a plugin declares is silently ignored, hold only
 * patterns RE2 can match in linear time, and follow the lifecycle rules definitions follow
 * (DESIGN §8.4).
 */
export function findSchemaProblem(schema: unknown): string | undefined {
  return (
    metaCheck(schema) ??
    unsupportedKeyword(schema as JsonSchema, '') ??
    invalidPattern(schema as JsonSchema, '') ??
    invalidLifecycle(schema as JsonSchema, '', 'root', false, undefined)
  );
}

/** Where a schema node sits: lifecycles bound the rendering itself and its properties, nothing else. */
type Place = 'root' | 'property' | 'other';

/**
 * The first lifecycle that breaks the load-time rules, with its location: the same rules as a
 * definition's, and lifecycle bounds only where the engine reads them (the rendering and its
 * properties; `enumLifecycle` wherever there is an enum).
 */
function invalidLifecycle(schema: JsonSchema, at: string, place: Place, isRequired: boolean, enclosing: EnclosingLifecycle | undefined): string | undefined {
  if (!isSchemaObject(schema)) return undefined;
  const label = at || 'the rendering';
  if (place === 'other') {
    const misplaced = Object.keys(schema).find((key) => KEYWORD_TABLE.get(key)?.role === 'lifecycle' && key !== ENUM_LIFECYCLE);
    if (misplaced) return `keyword "${misplaced}" at ${at || '/'} has no effect there: lifecycles apply to the rendering and to its properties`;
  }
  const checked = checkLifecycleDeclaration(schema, label, {
    enclosing,
    isRequired,
    type: typeof schema.type === 'string' ? schema.type : undefined,
    enumValues: Array.isArray(schema.enum) ? schema.enum : undefined,
    defaultValue: schema.default,
  });
  const first = checked.issues[0];
  if (first) return `${first.message} (at ${at}/${first.path.join('/')})`;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const sub of subschemasOf(schema)) {
    const where = `${at}/${sub.keyword}${sub.key === undefined ? '' : `/${sub.key}`}`;
    const isProperty = sub.keyword === 'properties' && typeof sub.key === 'string';
    // Nested properties, those of union branches included, lie inside this node's window.
    const found = invalidLifecycle(
      sub.schema,
      where,
      isProperty ? 'property' : 'other',
      isProperty && required.has(sub.key as string),
      checked.enclosingChildren,
    );
    if (found) return found;
  }
  return undefined;
}

/** The first `pattern` that is not valid RE2 and ECMAScript (`u`) syntax (DESIGN §7.1), with its location. */
function invalidPattern(schema: JsonSchema, at: string): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (typeof schema.pattern === 'string') {
    const verdict = checkPattern(schema.pattern);
    if (!verdict.ok) return `pattern ${JSON.stringify(schema.pattern)} at ${at || '/'} ${verdict.reason}`;
  }
  for (const sub of subschemasOf(schema)) {
    const found = invalidPattern(sub.schema, `${at}/${sub.keyword}${sub.key === undefined ? '' : `/${sub.key}`}`);
    if (found) return found;
  }
  return undefined;
}

function metaCheck(schema: unknown): string | undefined {
  if (!metaValidator) {
    // Loaded on first use: only plugin registration needs ajv, so lint starts without it.
    const require = createRequire(import.meta.url);
    const Ajv2020 = (require('ajv/dist/2020.js') as { default: new (opts: object) => AjvLike }).default;
    const ajv = new Ajv2020({ strict: false, validateSchema: true });
    metaValidator = (candidate) => {
      if (ajv.validateSchema(candidate)) {
        try {
          ajv.compile(candidate);
          return undefined;
        } catch (err) {
          return (err as Error).message;
        }
      }
      return ajv.errorsText(ajv.errors);
    };
  }
  return metaValidator(schema);
}

/** The first keyword kurel's engine would not evaluate, with its location. */
function unsupportedKeyword(schema: JsonSchema, at: string): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  for (const key of Object.keys(schema)) {
    if (!KEYWORD_TABLE.has(key)) return `keyword "${key}" at ${at || '/'} is not supported by kurel's validator`;
  }
  for (const sub of subschemasOf(schema)) {
    const found = unsupportedKeyword(sub.schema, `${at}/${sub.keyword}${sub.key === undefined ? '' : `/${sub.key}`}`);
    if (found) return found;
  }
  return undefined;
}
