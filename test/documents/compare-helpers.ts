import { toPointer } from '../../src/core/diagnostics.js';
import { type CompiledDefinition, compileDefinition } from '../../src/documents/compile-definition.js';

/** A CapabilityDefinition document named `cache` with these rendering properties and further `spec` members. */
export function definitionDocument(properties: Record<string, unknown>, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'launcher.gokure.dev/v1alpha1',
    kind: 'CapabilityDefinition',
    metadata: { name: 'cache' },
    spec: { ...spec, rendering: { properties } },
  };
}

/** Compiles a definition document that must be valid. */
export function compiled(document: unknown): CompiledDefinition {
  const result = compileDefinition(document);
  if (!result.definition) throw new Error(`test definition does not compile: ${JSON.stringify(result.issues)}`);
  return result.definition;
}

/** A change reduced to what the tests pin: class, kind, JSON Pointer and side. */
export interface BriefChange {
  class: string;
  kind: string;
  path: string;
  side: 'old' | 'new';
}

/** Reduces changes to {@link BriefChange}s. */
export function brief(changes: readonly { class: string; kind: string; path: readonly (string | number)[]; side: 'old' | 'new' }[]): BriefChange[] {
  return changes.map((c) => ({ class: c.class, kind: c.kind, path: toPointer(c.path), side: c.side }));
}
