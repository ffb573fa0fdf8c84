import { error, type Issue, type Path } from '../core/diagnostics.js';
import { checkRenames, compareSchemas, type SchemaChange } from '../schema/compare.js';
import type { CompiledDefinition } from './compile-definition.js';

/** One difference between two versions of a definition; `path` points into the document of its `side`. */
export type DefinitionChange = SchemaChange;

/** What two versions of one definition differ in (docs/compat.md). */
export interface DefinitionComparison {
  changes: DefinitionChange[];
  /** `definition-invalid` in the newer document: a `renamedFrom` that pairs nothing (docs/compat.md). */
  issues: Issue[];
}

/**
 * Compares two versions of one CapabilityDefinition, older first: every difference of their
 * rendering schemas and of the capability's own lifecycle, with paths into the documents
 * (`/spec/rendering/properties/port/minimum`, `/spec/removedIn`), and the `renamedFrom`
 * keywords of the newer version that name nothing in the older one. `spec.version`,
 * `spec.deprecation` and `renamedFrom` itself are no difference.
 */
export function compareDefinitions(before: CompiledDefinition, after: CompiledDefinition): DefinitionComparison {
  const changes = compareSchemas(before.schema, after.schema, { rootLabel: 'the capability' }).map((change) => ({
    ...change,
    path: documentPath(change.path),
  }));
  const issues = checkRenames(before.schema, after.schema).map((problem) =>
    error('definition-invalid', documentPath(problem.path), problem.message, { part: 'value' }),
  );
  return { changes, issues };
}

/**
 * Where a path of the compiled rendering schema is in the definition document: the rendering's
 * properties under `spec.rendering`, the root's own keywords (description, lifecycle) in `spec`.
 */
export function documentPath(schemaPath: Path): Path {
  return schemaPath[0] === 'properties' ? ['spec', 'rendering', ...schemaPath] : ['spec', ...schemaPath];
}
