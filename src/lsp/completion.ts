import type { CompletionItem, Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { ClusterProfileSchema } from '../documents/cluster-profile.js';
import { capabilitySchema } from '../operations/capability-schema.js';
import { narrowSchema } from '../schema/narrow.js';
import { bindingOf, isProfileText, type Knowledge, platformOfProfile, renderingSchemas, schemasAt } from './knowledge.js';
import { parentKeys } from './yaml-at.js';

/** Kinds of completion items (LSP numbers): a property, a value, a module. */
const KIND = { property: 10, value: 12, module: 9 } as const;

/**
 * Completion in a profile (docs/editors.md), read from the lines above the cursor so that a
 * half-written file still completes: capability names under `spec.capabilities`, the keys of a
 * rendering and of the profile itself, and the allowed values of a key, each narrowed to the profile's platform (what the
 * platform lacks is not offered); a binding's `version` offers the capability's versions.
 */
export function completionsAt(document: TextDocument, position: Position, knowledge: Knowledge): CompletionItem[] {
  const line = document.getText({ start: { line: position.line, character: 0 }, end: position });
  const asKey = /^([ \t]*)([A-Za-z0-9_.-]*)$/.exec(line);
  const asValue = /^([ \t]*)([A-Za-z0-9_.-]+):[ \t]*([^\s#]*)$/.exec(line);
  const text = document.getText();
  if (!isProfileText(text)) return [];
  if (asKey) return keyCompletions(parentPath(document, position.line, asKey[1]!.length), knowledge);
  if (asValue) return valueCompletions([...parentPath(document, position.line, asValue[1]!.length), asValue[2]!], knowledge);
  return [];
}

function keyCompletions(parent: string[], knowledge: Knowledge): CompletionItem[] {
  const { catalogue } = knowledge;
  if (parent.length === 2 && parent[0] === 'spec' && parent[1] === 'capabilities') {
    const platform = platformOfProfile(knowledge);
    return catalogue
      .knownTypes()
      .map((type) => capabilitySchema(catalogue, type, { platform }))
      .filter((c) => c !== undefined && c.availability !== 'unavailable')
      .map((c) => ({ label: c!.type, kind: KIND.module, detail: c!.description, ...(c!.availability === 'deprecated' ? { tags: [1] as 1[] } : {}) }));
  }
  const binding = bindingOf(parent, knowledge);
  const isRendering = binding !== undefined && parent[3] === 'rendering';
  const platform = platformOfProfile(knowledge);
  // Inside a rendering, its schemas at the platform; elsewhere, the ClusterProfile schema's own keys.
  const schemas = isRendering ? renderingSchemas(catalogue, binding).map((schema) => narrowSchema(schema, platform)) : [ClusterProfileSchema as JsonSchema];
  const path = isRendering ? parent.slice(4) : parent;
  const items = new Map<string, CompletionItem>();
  for (const schema of schemas) {
    for (const node of schemasAt(schema, path)) {
      if (!isSchemaObject(node.properties)) continue;
      for (const [name, property] of Object.entries(node.properties as Record<string, JsonSchema>)) {
        if (items.has(name)) continue;
        const description = typeof property.description === 'string' ? property.description : undefined;
        items.set(name, {
          label: name,
          kind: KIND.property,
          insertText: `${name}: `,
          ...(description ? { detail: description } : {}),
          ...(property.deprecated === true ? { tags: [1] as 1[] } : {}),
        });
      }
    }
  }
  return [...items.values()];
}

function valueCompletions(path: string[], knowledge: Knowledge): CompletionItem[] {
  const binding = bindingOf(path, knowledge);
  if (!binding) return [];
  if (path.length === 4 && path[3] === 'version')
    return knowledge.catalogue.versionsOf(binding.type).map((v) => ({ label: JSON.stringify(v), kind: KIND.value }));
  if (path[3] !== 'rendering' || path.length < 5) return [];
  const platform = platformOfProfile(knowledge);
  const values = new Set<string>();
  for (const schema of renderingSchemas(knowledge.catalogue, binding)) {
    for (const node of schemasAt(narrowSchema(schema, platform), path.slice(4))) {
      if (Array.isArray(node.enum)) for (const v of node.enum) values.add(typeof v === 'string' ? v : JSON.stringify(v));
      if (node.const !== undefined) values.add(typeof node.const === 'string' ? node.const : JSON.stringify(node.const));
      if (node.type === 'boolean') for (const v of ['true', 'false']) values.add(v);
    }
  }
  return [...values].map((label) => ({ label, kind: KIND.value }));
}

// The keys above a line of the document, by indentation.
function parentPath(document: TextDocument, line: number, indent: number): string[] {
  return parentKeys(
    (back) =>
      back > line
        ? undefined
        : document.getText({ start: { line: line - back, character: 0 }, end: { line: line - back + 1, character: 0 } }).replace(/\r?\n$/, ''),
    indent,
  );
}
