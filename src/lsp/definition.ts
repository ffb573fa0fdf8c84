import { resolve } from 'node:path';
import type { Range } from 'vscode-languageserver/node';
import { bindingOf, type Knowledge } from './knowledge.js';
import type { PlaceInText } from './yaml-at.js';

const NAME_PATH = ['metadata', 'name'];

/** Where a binding's CapabilityDefinition is: its file (absolute) and the range of its `metadata.name`. */
export interface DefinitionTarget {
  path: string;
  range: Range;
}

/**
 * Go to definition from a binding's key in a profile: the name of the CapabilityDefinition of the
 * version the binding resolved to (the one lint judged it with); undefined for a built-in or
 * unknown capability. `place` is the key at the cursor, as the reading thread found it.
 */
export function definitionAt(place: PlaceInText | undefined, knowledge: Knowledge): DefinitionTarget | undefined {
  if (!place?.isOnKey || place.path.length !== 3) return undefined;
  const binding = bindingOf(place.path, knowledge);
  const definition = binding ? knowledge.catalogue.definition(binding.type, binding.version) : undefined;
  if (!definition) return undefined;
  // The definition's name, positioned as a diagnostic about it would be.
  const source = definition.documents.find((d) => d.file === definition.file) ?? definition.documents[0];
  const at = source?.document.toDiagnostic({ code: 'usage', severity: 'warning', message: '', path: NAME_PATH, part: 'value' });
  const range = at
    ? { start: { line: at.line - 1, character: at.column - 1 }, end: { line: at.endLine - 1, character: at.endColumn - 1 } }
    : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return { path: resolve(knowledge.cwd, definition.file), range };
}
