import { createRequire } from 'node:module';
import type { JsonSchema } from '../core/json-schema.js';
import { ENUM_LIFECYCLE, KEYWORD_TABLE, PROPERTIES_KEYWORD } from './keywords.js';
import { checkLifecycleDeclaration, type EnclosingLifecycle } from './lifecycle.js';
import { checkPattern } from './pattern.js';
import { walkSchema } from './walk.js';

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
 * (docs/platform.md).
 */
export function findSchemaProblem(schema: unknown): string | undefined {
  return metaCheck(schema) ?? unsupportedKeyword(schema as JsonSchema) ?? invalidPattern(schema as JsonSchema) ?? invalidLifecycle(schema as JsonSchema);
}

/** Where a schema node sits: lifecycles bound the rendering itself and its properties, nothing else. */
type Place = 'root' | 'property' | 'other';

/** What the lifecycle rules need to know of a node's place. */
interface LifecyclePlace {
  place: Place;
  isRequired: boolean;
  enclosing: EnclosingLifecycle | undefined;
}

/**
 * The first lifecycle that breaks the load-time rules, with its location: the same rules as a
 * definition's, and lifecycle bounds only where the engine reads them (the rendering and its
 * properties; `enumLifecycle` wherever there is an enum).
 */
function invalidLifecycle(schema: JsonSchema): string | undefined {
  const root: LifecyclePlace = { place: 'root', isRequired: false, enclosing: undefined };
  return walkSchema<LifecyclePlace, string>(schema, root, (node, at, { place, isRequired, enclosing }) => {
    const label = at || 'the rendering';
    if (place === 'other') {
      const misplaced = Object.keys(node).find((key) => KEYWORD_TABLE.get(key)?.role === 'lifecycle' && key !== ENUM_LIFECYCLE);
      if (misplaced) return { found: `keyword "${misplaced}" at ${at || '/'} has no effect there: lifecycles apply to the rendering and to its properties` };
    }
    const checked = checkLifecycleDeclaration(node, label, {
      enclosing,
      isRequired,
      type: typeof node.type === 'string' ? node.type : undefined,
      enumValues: Array.isArray(node.enum) ? node.enum : undefined,
      defaultValue: node.default,
    });
    const first = checked.issues[0];
    if (first) return { found: `${first.message} (at ${at}/${first.path.join('/')})` };
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    // Nested properties, those of union branches included, lie inside this node's window.
    return {
      children: (sub) => {
        const isProperty = sub.keyword === PROPERTIES_KEYWORD && typeof sub.key === 'string';
        return { place: isProperty ? 'property' : 'other', isRequired: isProperty && required.has(sub.key as string), enclosing: checked.enclosingChildren };
      },
    };
  });
}

/** The first `pattern` that is not valid RE2 and ECMAScript (`u`) syntax (docs/definitions.md), with its location. */
function invalidPattern(schema: JsonSchema): string | undefined {
  return walkSchema<undefined, string>(schema, undefined, (node, at) => {
    if (typeof node.pattern !== 'string') return undefined;
    const verdict = checkPattern(node.pattern);
    return verdict.ok ? undefined : { found: `pattern ${JSON.stringify(node.pattern)} at ${at || '/'} ${verdict.reason}` };
  });
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
function unsupportedKeyword(schema: JsonSchema): string | undefined {
  return walkSchema<undefined, string>(schema, undefined, (node, at) => {
    // A keyword only the publisher writes (x-kurel-lifecycle) is no more the plugin's to write than an unknown one.
    const key = Object.keys(node).find((k) => {
      const entry = KEYWORD_TABLE.get(k);
      return entry === undefined || entry.publishedOnly === true;
    });
    return key === undefined ? undefined : { found: `keyword "${key}" at ${at || '/'} is not supported by kurel's validator` };
  });
}
