import { canonicalJson } from '../core/canonical-json.js';
import { compareBytes, isMap } from '../core/data.js';
import { type Diagnostic, describePath, error, type Path, warning } from '../core/diagnostics.js';
import type { JsonSchema } from '../core/json-schema.js';
import { PROPERTY_KEYWORDS } from '../documents/capability-definition.js';
import type { CompiledDefinition } from '../documents/compile-definition.js';
import { DEFINITION_SUBSCHEMAS, ENUM_LIFECYCLE, LIFECYCLE_BOUNDS, LIFECYCLE_NOTE } from '../schema/keywords.js';
import type { YamlDocument } from '../yaml/source.js';

/** A definition that loaded cleanly, and where it came from. */
export interface DefinitionCandidate {
  definition: CompiledDefinition;
  /** The file as the user gave it. */
  file: string;
  /**
   * The document, for positioning diagnostics; where it starts orders several documents of one
   * file and tells them apart in messages (asked only then: a document the fast path read is
   * alone in its file, and finding where it starts costs it the full parse).
   */
  document: YamlDocument;
  /** The digest of the document as written (docs/versions.md). */
  digest: string;
}

/** What became of the candidates: one definition per name and version, or none for a conflicted name. */
export interface ConflictResolution<Candidate extends DefinitionCandidate = DefinitionCandidate> {
  /** The definition to use per name and version: the one from the file that sorts first, with every document of that version. */
  accepted: { kept: Candidate; all: Candidate[] }[];
  /** Names defined with differing schemas: no definition of theirs applies. */
  conflicted: Set<string>;
  diagnostics: Diagnostic[];
}

interface Difference {
  path: Path;
  earlier: unknown;
  later: unknown;
}

const KEYWORD_ORDER = new Map(PROPERTY_KEYWORDS.map((keyword, index) => [keyword, index]));
const rank = (keyword: string) => KEYWORD_ORDER.get(keyword) ?? KEYWORD_ORDER.size;

// Keywords the view rebuilds rather than copies (descriptions and deprecation notes it drops:
// like descriptions, notes are text for people).
const NESTING: ReadonlySet<string> = new Set(['description', LIFECYCLE_NOTE, ENUM_LIFECYCLE, 'required', ...DEFINITION_SUBSCHEMAS.keys()]);

// Where the compiled rendering schema sits in a definition document.
const RENDERING: Path = ['spec', 'rendering'];

/**
 * Resolves definitions that share a name and version (docs/definitions.md, docs/versions.md). The same validation
 * schema (types, required, defaults, constraints; descriptions aside) is de-duplicated:
 * silently when the documents are identical, with a `definition-duplicate` warning when only
 * descriptions differ. A differing schema is a `definition-conflict` error naming both files
 * and the first differing path, reported at the file that sorts later byte-wise; it breaks the
 * whole name. Candidates are ordered by file and position first, so the result never depends
 * on load order.
 */
export function resolveDefinitionConflicts<Candidate extends DefinitionCandidate>(candidates: readonly Candidate[]): ConflictResolution<Candidate> {
  const byVersion = new Map<string, Candidate[]>();
  for (const candidate of [...candidates].sort(compareCandidates)) {
    const key = `${candidate.definition.name}@${candidate.definition.version ?? ''}`;
    const list = byVersion.get(key) ?? [];
    list.push(candidate);
    byVersion.set(key, list);
  }
  const accepted: { kept: Candidate; all: Candidate[] }[] = [];
  const conflicted = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const all of byVersion.values()) {
    const [first, ...rest] = all;
    if (!first) continue;
    const name = first.definition.name;
    const version = first.definition.version;
    const label = version === undefined ? `definition "${name}"` : `definition "${name}" ${version}`;
    if (rest.length === 0) {
      accepted.push({ kept: first, all });
      continue;
    }
    const reference = validationView(first.definition.schema);
    for (const later of rest) {
      const [here, there] = placesOf(later, first);
      const difference =
        capabilityLifecycleDifference(first.definition.schema, later.definition.schema) ??
        firstDifference(withoutCapabilityLifecycle(reference), withoutCapabilityLifecycle(validationView(later.definition.schema)), RENDERING);
      if (difference) {
        conflicted.add(name);
        const values = `${describe(difference.later)} in ${here}, ${describe(difference.earlier)} in ${there}`;
        const message = `${label} in ${here} conflicts with the one in ${there}: they first differ at ${describePath(difference.path)} (${values}); neither is used`;
        diagnostics.push(later.document.toDiagnostic(error('definition-conflict', difference.path, message, { part: 'key' })));
      } else if (fullView(first.definition) !== fullView(later.definition)) {
        const message = `${label} in ${here} repeats the one in ${there} with other descriptions; the one in ${there} is used`;
        diagnostics.push(later.document.toDiagnostic(warning('definition-duplicate', ['metadata', 'name'], message)));
      }
    }
    if (!conflicted.has(name)) accepted.push({ kept: first, all });
  }
  return { accepted: accepted.filter(({ kept }) => !conflicted.has(kept.definition.name)), conflicted, diagnostics };
}

/**
 * Where two compiled schemas of one name and version first differ in what decides validation,
 * judged as {@link resolveDefinitionConflicts} judges two files (descriptions aside), with each
 * value described; undefined when they validate alike.
 */
export function definitionSchemaDifference(earlier: JsonSchema, later: JsonSchema): { path: Path; earlier: string; later: string } | undefined {
  const difference =
    capabilityLifecycleDifference(earlier, later) ??
    firstDifference(withoutCapabilityLifecycle(validationView(earlier)), withoutCapabilityLifecycle(validationView(later)), RENDERING);
  return difference && { path: difference.path, earlier: describe(difference.earlier), later: describe(difference.later) };
}

// The rendering schema's root carries the capability's own lifecycle, written in `spec`.
const CAPABILITY_BOUNDS = LIFECYCLE_BOUNDS.map((k) => k.name);

function capabilityLifecycleDifference(earlier: JsonSchema, later: JsonSchema): Difference | undefined {
  for (const keyword of CAPABILITY_BOUNDS) {
    if (earlier[keyword] !== later[keyword]) return { path: ['spec', keyword], earlier: earlier[keyword], later: later[keyword] };
  }
  return undefined;
}

function withoutCapabilityLifecycle(view: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(view).filter(([keyword]) => !CAPABILITY_BOUNDS.includes(keyword)));
}

// Files name the two definitions; two documents of one file are told apart by their lines.
function placesOf(a: DefinitionCandidate, b: DefinitionCandidate): [string, string] {
  if (a.file !== b.file) return [a.file, b.file];
  return [`${a.file} (document on line ${startLine(a.document)})`, `${b.file} (document on line ${startLine(b.document)})`];
}

/**
 * The part of a compiled schema that decides validation, as a tree that mirrors the
 * definition's own keywords, in the vocabulary's order: descriptions dropped, `required`
 * moved onto each property.
 */
function validationView(schema: JsonSchema, required = false): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(schema)) {
    if (!NESTING.has(key)) entries.push([key, schema[key]]);
  }
  if (required) entries.push(['required', true]);
  const perValue = schema[ENUM_LIFECYCLE];
  if (isMap(perValue)) {
    const windows = Object.keys(perValue).map((value): [string, unknown] => {
      const entry = perValue[value];
      return [value, isMap(entry) ? Object.fromEntries(Object.entries(entry).filter(([keyword]) => keyword !== LIFECYCLE_NOTE)) : entry];
    });
    entries.push([ENUM_LIFECYCLE, Object.fromEntries(windows)]);
  }
  // The subschemas, by the keyword table's positions: each property's view says whether it is required.
  for (const [keyword, shape] of DEFINITION_SUBSCHEMAS) {
    const sub = schema[keyword];
    if (sub === undefined) continue;
    if (shape === 'map' && isMap(sub)) {
      const names = Object.keys(sub).map((name): [string, unknown] => [name, validationView(sub[name] as JsonSchema, (schema.required ?? []).includes(name))]);
      entries.push([keyword, Object.fromEntries(names)]);
    } else entries.push([keyword, isMap(sub) ? validationView(sub) : sub]);
  }
  entries.sort(([a], [b]) => rank(a) - rank(b));
  return Object.fromEntries(entries);
}

// Descriptions included: two definitions with equal views are identical.
function fullView(definition: CompiledDefinition): string {
  return canonicalJson({ description: definition.description, schema: definition.schema });
}

/**
 * The first path (in the earlier document's order) where two views differ. `keywords` nodes
 * hold a declaration's keywords; `names` nodes map property names to declarations.
 */
function firstDifference(earlier: unknown, later: unknown, path: Path, node: 'keywords' | 'names' = 'keywords'): Difference | undefined {
  if (!isMap(earlier) || !isMap(later)) return canonicalJson(earlier) === canonicalJson(later) ? undefined : { path, earlier, later };
  const keys = [...Object.keys(earlier), ...Object.keys(later).filter((k) => !Object.hasOwn(earlier, k))];
  for (const key of keys) {
    const a = Object.hasOwn(earlier, key) ? earlier[key] : undefined;
    const b = Object.hasOwn(later, key) ? later[key] : undefined;
    const at = [...path, key];
    let found: Difference | undefined;
    const shape = node === 'keywords' ? DEFINITION_SUBSCHEMAS.get(key) : undefined;
    if (node === 'names') found = firstDifference(a, b, at, 'keywords');
    else if (shape === 'map') found = firstDifference(a, b, at, 'names');
    else if (shape !== undefined) found = firstDifference(a, b, at, 'keywords');
    else found = canonicalJson(a) === canonicalJson(b) ? undefined : { path: at, earlier: a, later: b };
    if (found) return found;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = canonicalJson(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function compareCandidates(a: DefinitionCandidate, b: DefinitionCandidate): number {
  return compareBytes(a.file, b.file) || a.document.start - b.document.start;
}

function startLine(document: YamlDocument): number {
  return document.source.lineCounter.linePos(document.start).line;
}
