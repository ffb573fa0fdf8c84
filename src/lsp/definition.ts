import { resolve } from 'node:path';
import type { Position, Range } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { bindingOf, type Knowledge } from './knowledge.js';
import { placeAt } from './yaml-at.js';

/** Where a binding's CapabilityDefinition is: its file (absolute) and the range of its document. */
export interface DefinitionTarget {
  path: string;
  range: Range;
}

/**
 * Go to definition from a binding's key in a profile: the CapabilityDefinition document of the
 * version the binding resolved to (the one lint judged it with); undefined for a built-in or
 * unknown capability.
 */
export function definitionAt(document: TextDocument, position: Position, knowledge: Knowledge): DefinitionTarget | undefined {
  const place = placeAt(document.getText(), document.offsetAt(position));
  if (!place?.isOnKey || place.path.length !== 3) return undefined;
  const binding = bindingOf(place.path, knowledge);
  const definition = binding ? knowledge.catalogue.definition(binding.type, binding.version) : undefined;
  if (!definition) return undefined;
  const start = { line: 0, character: 0 };
  return { path: resolve(knowledge.cwd, definition.file), range: { start, end: start } };
}
