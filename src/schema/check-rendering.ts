import { checkSchema, type JsonSchema } from './check.js';
import { isMap } from './check.js';
import { error } from '../core/diagnostics.js';
import type { Rendering, RenderingResult } from './handler.js';

/**
 * The shared check-and-default step of every `validateAndApplyDefaults`: checks a rendering
 * against its schema and applies the schema's defaults. Returns a new map; never mutates its input.
 */
export function checkRendering(schema: JsonSchema, rendering: Readonly<Rendering>): RenderingResult {
  const { value, issues } = checkSchema(schema, rendering);
  if (!isMap(value)) {
    return { rendering: {}, issues: issues.length ? issues : [error('wrong-type', [], 'rendering must be a map')] };
  }
  return { rendering: value, issues };
}
