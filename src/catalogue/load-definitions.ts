import type { Diagnostic } from '../core/diagnostics.js';
import type { SourceDocument } from '../yaml/source.js';
import { compileDefinition } from '../documents/compile-definition.js';
import { resolveDefinitionConflicts, type DefinitionCandidate } from './definition-conflicts.js';
import type { Registry } from './registry.js';

/**
 * Compiles CapabilityDefinition documents, resolves documents that share a name, and adds
 * the result to the registry; returns every problem, positioned in the definition files.
 * A name with any error (in any of its documents) or a conflict gets no definition and is
 * marked failed, so its bindings stay quiet; a name that shadows a built-in is left to the
 * built-in handler. The outcome does not depend on the order of `documents`.
 */
export function loadDefinitionDocuments(documents: readonly SourceDocument[], registry: Registry): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const candidates: DefinitionCandidate[] = [];
  const failed = new Set<string>();
  const isBuiltin = (name: string) => registry.handler(name)?.source === 'builtin';
  for (const document of documents) {
    const compiled = compileDefinition(document.data, { isBuiltin });
    for (const issue of compiled.issues) diagnostics.push(document.toDiagnostic(issue));
    const name = compiled.name;
    if (name === undefined || isBuiltin(name)) continue;
    const unreadable = document.diagnostics.some((d) => d.severity === 'error');
    if (!compiled.definition || unreadable) {
      failed.add(name);
      continue;
    }
    const line = document.source.lineCounter.linePos(document.start).line;
    candidates.push({ definition: compiled.definition, file: document.file, start: document.start, line, document });
  }
  const resolution = resolveDefinitionConflicts(candidates.filter((c) => !failed.has(c.definition.name)));
  diagnostics.push(...resolution.diagnostics);
  for (const { definition, file } of resolution.accepted) {
    registry.addDefinition({ name: definition.name, description: definition.description, file, schema: definition.schema });
  }
  for (const name of [...failed, ...resolution.conflicted]) registry.markDefinitionFailed(name);
  return diagnostics;
}
