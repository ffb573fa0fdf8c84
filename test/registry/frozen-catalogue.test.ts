import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { readDefinitionInputs } from '../../src/catalogue/load-catalogue.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { capabilitySchema } from '../../src/operations/capability-schema.js';

const DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: cache
spec:
  description: an in-memory cache
  rendering:
    properties:
      size:
        type: integer
        minimum: 1
`;

describe('a catalogue is immutable in fact', () => {
  it('refuses a change to a built-in handler schema, so the published schema and the verdict stay one', () => {
    const catalogue = createCatalogue();
    const schema = catalogue.handler('configmap')!.handler.renderingSchema!;
    expect(() => {
      schema.additionalProperties = true;
    }).toThrow(TypeError);
    expect(capabilitySchema(catalogue, 'configmap')!.schema.additionalProperties).toBe(false);
    expect(catalogue.validateRendering('configmap', { extra: 1 }).result.issues.map((i) => i.code)).toEqual(['unknown-field']);
  });

  it('refuses a change to a plugin handler, at every depth of its schema', () => {
    const renderingSchema: JsonSchema = { type: 'object', properties: { size: { type: 'integer', enum: [1, 2] } } };
    const plugin = { type: 'sized', description: 'a sized thing', capabilityAware: false, renderingSchema };
    const catalogue = createCatalogue({ builtins: false, handlers: [{ handler: plugin, source: 'plugin:sized' }] });
    const held = catalogue.handler('sized')!;
    expect(() => {
      (held.handler as { description: string }).description = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (renderingSchema.properties!['size']!.enum as unknown[]).push(3);
    }).toThrow(TypeError);
    expect(() => {
      held.source = 'builtin';
    }).toThrow(TypeError);
    expect(held.handler.description).toBe('a sized thing');
  });

  it('refuses a change to a definition schema and to its entry', () => {
    const documents = readDefinitionInputs([{ file: 'cache.yaml', content: DEFINITION, origin: 'definition' }]).documents;
    const { catalogue, diagnostics } = createCatalogue({ builtins: false }).withDefinitions(documents);
    expect(diagnostics).toEqual([]);
    const entry = catalogue.definition('cache')!;
    expect(() => {
      entry.schema.additionalProperties = true;
    }).toThrow(TypeError);
    expect(() => {
      entry.schema.properties!['size']!.minimum = 0;
    }).toThrow(TypeError);
    expect(() => {
      entry.description = 'changed';
    }).toThrow(TypeError);
    expect(catalogue.validateRendering('cache', { size: 0 }).result.issues.map((i) => i.code)).toEqual(['invalid-value']);
  });
});
