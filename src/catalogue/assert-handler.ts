import { createRequire } from 'node:module';
import { SUPPORTED_KEYWORDS, type JsonSchema } from '../schema/check.js';
import type { Handler } from '../schema/handler.js';
import { RegistryError } from './errors.js';

const TYPE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

type MetaValidator = (schema: unknown) => string | undefined;
let metaValidator: MetaValidator | undefined;

/**
 * The startup assertion for one handler (DESIGN §3): throws {@link RegistryError} naming the
 * handler and the reason when it breaks the contract. `checkSchema` adds the JSON Schema
 * meta-check, needed for plugins (plain JavaScript) and skipped for built-ins.
 */
export function assertHandlerIsSound(candidate: unknown, source: string, options: { checkSchema: boolean }): asserts candidate is Handler {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
    throw new RegistryError('(unnamed)', `a handler must be an object, found ${candidate === null ? 'null' : Array.isArray(candidate) ? 'an array' : typeof candidate}`, source);
  }
  const h = candidate as Record<string, unknown>;
  const type = h['type'];
  if (typeof type !== 'string' || !TYPE_NAME.test(type)) {
    throw new RegistryError(typeof type === 'string' ? type : '(unnamed)', 'type must be a DNS-1123 label (lowercase letters, digits and -)', source);
  }
  const fail = (reason: string): never => {
    throw new RegistryError(type, reason, source);
  };
  if (typeof h['description'] !== 'string') fail('description must be a string');
  if (typeof h['capabilityAware'] !== 'boolean') fail('capabilityAware must be true or false');
  if (h['capabilityRequired'] !== undefined && typeof h['capabilityRequired'] !== 'boolean') fail('capabilityRequired must be true or false');
  if (h['capabilityRequired'] === true && h['capabilityAware'] !== true) fail('capabilityRequired needs capabilityAware: true');
  const vad = h['validateAndApplyDefaults'];
  if (vad !== undefined && typeof vad !== 'function') fail('validateAndApplyDefaults must be a function');
  const schema = h['renderingSchema'];
  if (h['capabilityAware'] === true) {
    if (typeof vad !== 'function') fail('a capability-aware handler must implement validateAndApplyDefaults');
    if (schema === undefined) fail('a capability-aware handler must declare a renderingSchema');
  }
  const reserved = h['platformReserved'];
  if (reserved !== undefined && !(Array.isArray(reserved) && reserved.every((k) => typeof k === 'string'))) {
    fail('platformReserved must be a list of key names');
  }
  if (schema !== undefined) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) fail('renderingSchema must be a JSON Schema object');
    if (options.checkSchema) {
      const problem = metaCheck(schema) ?? unsupportedKeyword(schema as JsonSchema, '');
      if (problem) fail(`renderingSchema is not a valid JSON Schema: ${problem}`);
    }
  }
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

interface AjvLike {
  validateSchema(schema: unknown): boolean;
  compile(schema: unknown): unknown;
  errorsText(errors: unknown): string;
  errors: unknown;
}

const SUBSCHEMA_MAPS = ['properties', 'dependentSchemas', 'patternProperties', '$defs'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'contains'];

/** The first keyword kurel's engine would not evaluate, with its location. */
function unsupportedKeyword(schema: JsonSchema, at: string): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  for (const key of Object.keys(schema)) {
    if (!SUPPORTED_KEYWORDS.has(key)) return `keyword "${key}" at ${at || '/'} is not supported by kurel's validator`;
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key] as Record<string, JsonSchema> | undefined;
    if (map && typeof map === 'object') {
      for (const [name, sub] of Object.entries(map)) {
        const found = unsupportedKeyword(sub, `${at}/${key}/${name}`);
        if (found) return found;
      }
    }
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key] as JsonSchema[] | undefined;
    if (Array.isArray(list)) {
      for (let i = 0; i < list.length; i++) {
        const found = unsupportedKeyword(list[i]!, `${at}/${key}/${i}`);
        if (found) return found;
      }
    }
  }
  for (const key of SUBSCHEMAS) {
    const sub = schema[key];
    if (sub && typeof sub === 'object') {
      const found = unsupportedKeyword(sub as JsonSchema, `${at}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
