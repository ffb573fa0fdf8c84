import { compareText } from '../core/data.js';
import { type Diagnostic, error } from '../core/diagnostics.js';
import { compareVersions } from '../core/versions.js';
import { compileDefinition } from '../documents/compile-definition.js';
import { definitionDigest } from '../documents/definition-digest.js';
import type { SourceDocument } from '../yaml/source.js';
import type { CapabilityDefinitionEntry } from './catalogue.js';
import { type DefinitionCandidate, resolveDefinitionConflicts } from './definition-conflicts.js';

/** What loading a set of definition documents gave. */
export interface LoadedDefinitions {
  /** Every name the documents define (valid names only), loaded or not. */
  names: Set<string>;
  /** Per name that loaded cleanly, its versions, ascending (one entry without a version for an unversioned name). */
  accepted: Map<string, CapabilityDefinitionEntry[]>;
  /** Names with an error in any of their documents, or a conflict: none of their versions applies. */
  broken: Set<string>;
  diagnostics: Diagnostic[];
}

/**
 * Compiles CapabilityDefinition documents and resolves documents that share a name: several
 * versions side by side, duplicates and conflicts per version, versioned and unversioned
 * documents of one name refused (DESIGN §8.1, §11). Any error in any document of a name breaks
 * every version of it. Every problem is positioned in the definition files. A name that
 * shadows a built-in is left to the built-in handler. The outcome does not depend on the order
 * of `documents`.
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
    candidates.push({ definition: compiled.definition, file: document.file, start: document.start, line, document, digest: definitionDigest(document.data) });
  }
  for (const name of refuseMixedVersions(candidates, diagnostics)) broken.add(name);
  const resolution = resolveDefinitionConflicts(candidates.filter((c) => !broken.has(c.definition.name)));
  for (const d of resolution.diagnostics) diagnostics.push(d);
  for (const name of resolution.conflicted) broken.add(name);
  const accepted = new Map<string, CapabilityDefinitionEntry[]>();
  for (const { kept, all } of resolution.accepted) {
    const { definition } = kept;
    const entry: CapabilityDefinitionEntry = {
      name: definition.name,
      version: definition.version,
      deprecation: definition.deprecation,
      description: definition.description,
      file: kept.file,
      digest: kept.digest,
      schema: definition.schema,
      documents: all.map((c) => ({ file: c.file, digest: c.digest, document: c.document })),
    };
    const list = accepted.get(definition.name) ?? [];
    list.push(entry);
    accepted.set(definition.name, list);
  }
  for (const list of accepted.values()) list.sort((a, b) => (a.version && b.version ? compareVersions(a.version, b.version) : 0));
  return { names, accepted, broken, diagnostics };
}

/**
 * A name with both versioned and unversioned documents: a `definition-conflict` at each
 * unversioned document (a versioned definition cannot also have an unnamed version). Returns
 * the names refused.
 */
function refuseMixedVersions(candidates: readonly DefinitionCandidate[], diagnostics: Diagnostic[]): Set<string> {
  const versionedFiles = new Map<string, Set<string>>();
  for (const c of candidates) {
    if (c.definition.version === undefined) continue;
    const files = versionedFiles.get(c.definition.name) ?? new Set();
    files.add(`${c.file} (${c.definition.version})`);
    versionedFiles.set(c.definition.name, files);
  }
  const refused = new Set<string>();
  for (const c of candidates) {
    const versioned = versionedFiles.get(c.definition.name);
    if (c.definition.version !== undefined || !versioned) continue;
    refused.add(c.definition.name);
    const others = [...versioned].sort(compareText);
    const shown = others.length > 3 ? `${others.slice(0, 3).join(', ')} and ${others.length - 3} more` : others.join(', ');
    const message = `definition "${c.definition.name}" in ${c.file} has no spec.version, but the name has versioned documents (${shown}); none of its versions is used`;
    diagnostics.push(
      c.document.toDiagnostic(
        error('definition-conflict', ['spec', 'version'], message, { part: 'key', hint: 'give this document a spec.version, or remove it' }),
      ),
    );
  }
  return refused;
}
