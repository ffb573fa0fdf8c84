import { compareText } from '../core/data.js';
import { type Diagnostic, error } from '../core/diagnostics.js';
import type { JsonSchema } from '../core/json-schema.js';
import { compareVersions } from '../core/versions.js';
import { type CompiledDefinition, compileDefinition } from '../documents/compile-definition.js';
import { definitionDigest } from '../documents/definition-digest.js';
import type { YamlDocument } from '../yaml/source.js';
import type { CapabilityDefinitionEntry, DefinitionSource } from './catalogue.js';
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
 * documents of one name refused (docs/versions.md). Any error in any document of a name breaks
 * every version of it. Every problem is positioned in the definition files. A name that
 * shadows a built-in is left to the built-in handler. The outcome does not depend on the order
 * of `documents`.
 */
export function loadDefinitionDocuments(documents: readonly YamlDocument[], isBuiltin: (name: string) => boolean): LoadedDefinitions {
  const diagnostics: Diagnostic[] = [];
  const candidates: LoadedDocument[] = [];
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
    candidates.push(new LoadedDocument(compiled.definition, document));
  }
  for (const name of refuseMixedVersions(candidates, diagnostics)) broken.add(name);
  const resolution = resolveDefinitionConflicts(candidates.filter((c) => !broken.has(c.definition.name)));
  for (const d of resolution.diagnostics) diagnostics.push(d);
  for (const name of resolution.conflicted) broken.add(name);
  const accepted = new Map<string, CapabilityDefinitionEntry[]>();
  for (const { kept, all } of resolution.accepted) {
    const entry = new DefinitionVersion(kept, all);
    const list = accepted.get(entry.name) ?? [];
    list.push(entry);
    accepted.set(entry.name, list);
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

// Digests are asked for by lockfiles, compat and the service's registry digest, never by a
// lint or build without a lockfile; computing one costs as much as checking the definition, so
// each is computed on first use. The data of a document is never changed after it is read.

/** A definition document that compiled, as a candidate and, once accepted, a source of its version. */
class LoadedDocument implements DefinitionCandidate, DefinitionSource {
  #digest: string | undefined;

  constructor(
    readonly definition: CompiledDefinition,
    readonly document: YamlDocument,
  ) {}

  get file(): string {
    return this.document.file;
  }

  get digest(): string {
    this.#digest ??= definitionDigest(this.document.data);
    return this.#digest;
  }
}

/** One accepted version of a definition: the document used and every equal one. */
class DefinitionVersion implements CapabilityDefinitionEntry {
  readonly name: string;
  readonly version: string | undefined;
  readonly deprecation: string | undefined;
  readonly description: string;
  readonly file: string;
  readonly schema: JsonSchema;

  constructor(
    private readonly kept: LoadedDocument,
    readonly documents: readonly LoadedDocument[],
  ) {
    const { definition } = kept;
    this.name = definition.name;
    this.version = definition.version;
    this.deprecation = definition.deprecation;
    this.description = definition.description;
    this.file = kept.file;
    this.schema = definition.schema;
  }

  get digest(): string {
    return this.kept.digest;
  }
}
