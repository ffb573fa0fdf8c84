import type { Diagnostic } from '../core/diagnostics.js';
import { compileDefinition } from '../documents/compile-definition.js';
import type { SourceDocument } from '../yaml/source.js';
import type { CapabilityDefinitionEntry } from './catalogue.js';
import { type DefinitionCandidate, resolveDefinitionConflicts } from './definition-conflicts.js';

/** What loading a set of definition documents gave. */
export interface LoadedDefinitions {
  /** Every name the documents define (valid names only), loaded or not. */
  names: Set<string>;
  /** One definition per name that loaded cleanly. */
  accepted: CapabilityDefinitionEntry[];
  /** Names with an error in any of their documents, or a conflict: none of their definitions applies. */
  broken: Set<string>;
  diagnostics: Diagnostic[];
}

/**
 * Compiles CapabilityDefinition documents and resolves documents that share a name; every
 * problem is positioned in the definition files. A name that shadows a built-in is left to the
 * built-in handler. The outcome does not depend on the order of `documents`.
 */
export function loadDefinitionDocuments(documents: readonly SourceDocument[], isBuiltin: (name: string) => boolean): LoadedDefinitions {
  const diagnostics: Diagnostic[] = [];
  const candidates: DefinitionCandidate[] = [];
  const names = new Set<string>();
  const broken = new Set<string>();
  for (const document of documents) {
    const compiled = compileDefinition(document.data, { isBuiltin, sourceOf: (path) => document.sourceTextAt(path) });
    for (const issue of compiled.issues) diagnostics.push(document.toDiagnostic(issue));
    const name = compiled.name;
    if (name === undefined || isBuiltin(name)) continue;
    names.add(name);
    const unreadable = document.diagnostics.some((d) => d.severity === 'error');
    if (!compiled.definition || unreadable) {
      broken.add(name);
      continue;
    }
    const line = document.source.lineCounter.linePos(document.start).line;
    candidates.push({ definition: compiled.definition, file: document.file, start: document.start, line, document });
  }
  const resolution = resolveDefinitionConflicts(candidates.filter((c) => !broken.has(c.definition.name)));
  for (const d of resolution.diagnostics) diagnostics.push(d);
  for (const name of resolution.conflicted) broken.add(name);
  const accepted = resolution.accepted.map(({ definition, file }) => ({
    name: definition.name,
    description: definition.description,
    file,
    schema: definition.schema,
  }));
  return { names, accepted, broken, diagnostics };
}
