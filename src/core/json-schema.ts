/**
 * The JSON Schema subset kurel's engine evaluates (what TypeBox's `Type.*` builders emit for
 * the shapes handlers and definitions use). Every keyword is declared once, in
 * `src/schema/keywords.ts`; plugin schemas are checked against that table at registration.
 */
export interface JsonSchema {
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  dependentRequired?: Record<string, string[]>;
  minProperties?: number;
  maxProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  enum?: readonly unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  description?: string;
  title?: string;
  /** What a `pattern` means, for messages ("a duration such as 1h or 30m"). */
  'x-expected'?: string;
  /** The unit a bare number most likely meant where a string is expected (`s` for a duration): the hint adds it. */
  'x-bare-number-unit'?: string;
  [keyword: string]: unknown;
}

/** JSON Schema type names. */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** True when the schema's `type` names `type`. */
export function hasType(schema: JsonSchema, type: JsonType): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

/** True for a schema object (not a boolean schema, not a list). */
export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
