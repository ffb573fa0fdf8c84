import type { Diagnostic } from '../validate/diagnostic.js';
import { isMap, type JsonSchema } from '../validate/check-schema.js';
import type { SourceDocument } from '../yaml/source.js';
import type { Registry } from './registry.js';

/**
 * Compiles CapabilityDefinition documents and adds them to the registry; returns the
 * problems, positioned in the definition files.
 */
export function loadDefinitionDocuments(documents: readonly SourceDocument[], registry: Registry): Diagnostic[] {
  for (const document of documents) {
    const data = document.data;
    if (!isMap(data) || !isMap(data['metadata']) || typeof data['metadata']['name'] !== 'string') continue;
    const name = data['metadata']['name'];
    const spec = isMap(data['spec']) ? data['spec'] : {};
    const rendering = isMap(spec['rendering']) ? spec['rendering'] : {};
    const props = isMap(rendering['properties']) ? rendering['properties'] : {};
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, raw] of Object.entries(props)) {
      const p = isMap(raw) ? raw : {};
      const schema: JsonSchema = {};
      if (typeof p['type'] === 'string') schema.type = p['type'] as JsonSchema['type'];
      if (p['default'] !== undefined) schema.default = p['default'];
      properties[key] = schema;
      if (p['required'] === true) required.push(key);
    }
    registry.addDefinition({
      name,
      description: typeof spec['description'] === 'string' ? spec['description'] : '',
      file: document.file,
      schema: { type: 'object', properties, required, additionalProperties: false },
    });
  }
  return [];
}
