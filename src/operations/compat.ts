import type { Catalogue } from '../catalogue/catalogue.js';
import { appendAll, compareBytes, compareText, isMap } from '../core/data.js';
import { type Diagnostic, error, fileDiagnostic, hasErrors, toPointer } from '../core/diagnostics.js';
import type { InputFile } from '../core/input.js';
import { compareVersions, isDefinitionVersion, isPrerelease } from '../core/versions.js';
import { compareDefinitions } from '../documents/compare-definitions.js';
import { type CompiledDefinition, compileDefinition } from '../documents/compile-definition.js';
import { definitionDigest } from '../documents/definition-digest.js';
import { DEFINITION, readInput } from '../documents/read-input.js';
import { type Bump, bumpCovers, type ChangeClass, declaredBump, neededBump, versionDeclaring } from '../schema/compare.js';
import type { SourceText, YamlDocument } from '../yaml/source.js';

/** One difference of a compared pair, positioned in the document it is about (docs/compat.md). */
export interface CompatFinding {
  class: ChangeClass;
  /** A JSON Pointer into the definition document. */
  path: string;
  message: string;
  /** The newer document's file, or the older one's for what the newer one lacks. */
  file: string;
  /** Where that property's key (or the keyword's key) is. */
  line: number;
  column: number;
}

/** Two versions of one definition compared: the bump they declare, the bump they need, and every difference. */
export interface CompatPair {
  name: string;
  /** The older version; null when that document is unversioned. */
  from: string | null;
  /** The newer version; null when that document is unversioned. */
  to: string | null;
  /** The bump the versions declare; null when a side is unversioned. */
  declared: Bump | null;
  needed: Bump;
  /** False when the declared bump is smaller than the needed one, or two different documents share a version. */
  ok: boolean;
  /** For a failing pair with a versioned older side: the version to release the newer document as, the first of the needed bump no document of the name declares. */
  releaseAs?: string;
  findings: CompatFinding[];
}

/** What a compat run found: the pairs, sorted by name then version, and the problems of the documents. */
export interface CompatRun {
  pairs: CompatPair[];
  diagnostics: Diagnostic[];
  /** The files read, for printing source lines under diagnostics. */
  sources: Map<string, SourceText>;
  /** True when the run cannot go on (bad usage: documents of two names, a name no definition has): exit 2. */
  fatal: boolean;
}

/** One definition document as compat reads it: compiled when it is valid. */
interface VersionDocument {
  name: string;
  version: string | undefined;
  document: YamlDocument;
  definition: CompiledDefinition | undefined;
  digest: string;
}

/** How a pair counts: a release pair may fail; a prerelease or unversioned pair is reported and never fails. */
type PairRole = 'release' | 'reported';

const COMMAND_LINE = '<command line>';

/**
 * `kurel compat <old> <new>` (docs/compat.md): the two files each hold one
 * CapabilityDefinition of the same name. Versioned documents are compared in SemVer order,
 * whatever the argument order; when either is unversioned, in argument order, reporting only
 * the bump needed. A prerelease on either side is reported and never fails; one version in
 * two documents of different content fails.
 */
export function compatOfFiles(first: InputFile, second: InputFile, catalogue: Catalogue): CompatRun {
  const run: CompatRun = { pairs: [], diagnostics: [], sources: new Map(), fatal: false };
  const sides: VersionDocument[] = [];
  for (const input of [first, second]) {
    const read = readInput({ file: input.file, content: input.content, origin: 'document', kind: DEFINITION });
    run.sources.set(input.file, read.source);
    appendAll(run.diagnostics, read.diagnostics);
    if (!read.document) continue;
    const side = readVersion(read.document, catalogue);
    appendAll(run.diagnostics, side.diagnostics);
    if (side.version) sides.push(side.version);
  }
  const [a, b] = sides;
  // A document with errors is compared with nothing: its own problems say what to fix first.
  if (!a?.definition || !b?.definition) return run;
  if (a.name !== b.name) {
    const message = `kurel compat compares two versions of one definition; ${a.document.file} defines "${a.name}" and ${b.document.file} defines "${b.name}"`;
    run.diagnostics.push(fileDiagnostic(COMMAND_LINE, 'usage', message));
    run.fatal = true;
    return run;
  }
  const taken = new Set([a.version, b.version].filter((v): v is string => v !== undefined));
  if (a.version === undefined || b.version === undefined) {
    addPair(run, a, b, 'reported', taken);
    return run;
  }
  const [older, newer] = compareVersions(a.version, b.version) <= 0 ? [a, b] : [b, a];
  if (older.version === newer.version) {
    if (older.digest !== newer.digest) addSameVersionPair(run, older, newer, taken);
    else addPair(run, older, newer, 'release', taken);
    return run;
  }
  addPair(run, older, newer, isPrerelease(older.version!) || isPrerelease(newer.version!) ? 'reported' : 'release', taken);
  return run;
}

/**
 * `kurel compat --definitions DIR [NAME...]` (docs/compat.md): for each name (all when none
 * is given), consecutive releases compared in SemVer order (prereleases left out of the
 * chain), each prerelease also compared with the release before it (reported, never failing),
 * and every document that declares a version another document of different content declares.
 * Every document read is seen, a broken name's too: its own problems are reported with the
 * pairs its valid documents still make. A name no document has is bad usage.
 */
export function compatOfDefinitions(inputs: readonly InputFile[], names: readonly string[], catalogue: Catalogue): CompatRun {
  const run: CompatRun = { pairs: [], diagnostics: [], sources: new Map(), fatal: false };
  const documents: YamlDocument[] = [];
  for (const input of inputs) {
    const read = readInput({ ...input, origin: 'definition' });
    run.sources.set(input.file, read.source);
    appendAll(run.diagnostics, read.diagnostics);
    appendAll(documents, read.definitions);
  }
  if (documents.length === 0 && !hasErrors(run.diagnostics)) {
    run.diagnostics.push(fileDiagnostic(COMMAND_LINE, 'io-error', 'no CapabilityDefinition found in the definitions given'));
    run.fatal = true;
    return run;
  }
  const known = [...new Set(documents.map(nameOf).filter((n): n is string => n !== undefined))].sort(compareText);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const found = known.length > 0 ? `the definitions given hold ${known.join(', ')}` : 'the definitions given hold none';
    const quoted = unknown.map((name) => `"${name}"`).join(', ');
    run.diagnostics.push(fileDiagnostic(COMMAND_LINE, 'usage', `no definition named ${quoted}: ${found}`));
    run.fatal = true;
    return run;
  }
  const wanted = new Set(names.length > 0 ? names : known);
  const selected = documents.filter((d) => wanted.has(nameOf(d) ?? ''));
  // The loader's own problems (invalid documents, conflicts, mixed versions), before it drops a broken name.
  appendAll(run.diagnostics, catalogue.withDefinitions(selected).diagnostics);
  const byName = new Map<string, VersionDocument[]>();
  for (const document of selected.sort((x, y) => compareBytes(x.file, y.file) || x.start - y.start)) {
    const read = readVersion(document, catalogue).version;
    if (!read) continue;
    const list = byName.get(read.name) ?? [];
    list.push(read);
    byName.set(read.name, list);
  }
  for (const name of [...byName.keys()].sort(compareText)) compareVersionsOf(run, byName.get(name)!);
  run.pairs.sort(comparePairs);
  return run;
}

/** The pairs of one name's documents: same-version differences, the release chain, and each prerelease against the release before it. */
function compareVersionsOf(run: CompatRun, documents: readonly VersionDocument[]): void {
  const byVersion = new Map<string, VersionDocument[]>();
  for (const d of documents) {
    if (d.version === undefined) continue;
    const list = byVersion.get(d.version) ?? [];
    list.push(d);
    byVersion.set(d.version, list);
  }
  const versions = [...byVersion.keys()].sort(compareVersions);
  const taken = new Set(versions);
  // The document that sorts first stands for its version, as the loader keeps it.
  const standing = new Map(versions.map((v) => [v, byVersion.get(v)![0]!]));
  for (const version of versions) {
    const [kept, ...others] = byVersion.get(version)!;
    for (const other of others) if (other.digest !== kept!.digest) addSameVersionPair(run, kept!, other, taken);
  }
  const releases = versions.filter((v) => !isPrerelease(v));
  releases.forEach((version, i) => {
    if (i > 0) addPair(run, standing.get(releases[i - 1]!)!, standing.get(version)!, 'release', taken);
  });
  for (const version of versions.filter(isPrerelease)) {
    const before = releases.filter((r) => compareVersions(r, version) < 0).at(-1);
    if (before !== undefined) addPair(run, standing.get(before)!, standing.get(version)!, 'reported', taken);
  }
}

/** Compiles one document: its name and version even when it is invalid, and its problems. */
function readVersion(document: YamlDocument, catalogue: Catalogue): { version: VersionDocument | undefined; diagnostics: Diagnostic[] } {
  const compiled = compileDefinition(document.data, {
    isBuiltin: (name) => catalogue.handler(name)?.source === 'builtin',
    sourceOf: (path) => document.sourceTextAt(path),
  });
  const diagnostics = compiled.issues.map((issue) => document.toDiagnostic(issue));
  const name = compiled.name ?? nameOf(document);
  if (name === undefined) return { version: undefined, diagnostics };
  const spec = isMap(document.data) && isMap(document.data['spec']) ? document.data['spec'] : {};
  const written = typeof spec['version'] === 'string' && isDefinitionVersion(spec['version']) ? spec['version'] : undefined;
  const version = compiled.definition ? compiled.definition.version : written;
  return { version: { name, version, document, definition: compiled.definition, digest: definitionDigest(document.data) }, diagnostics };
}

/** Compares two documents and adds their pair; a side that does not compile makes no pair (its problems say why). */
function addPair(run: CompatRun, older: VersionDocument, newer: VersionDocument, role: PairRole, taken: ReadonlySet<string>): void {
  const compared = comparePair(run, older, newer);
  if (!compared) return;
  const { findings, needed } = compared;
  const isVersioned = older.version !== undefined && newer.version !== undefined;
  const declared = isVersioned ? declaredBump(older.version!, newer.version!) : null;
  const ok = role === 'reported' || declared === null || bumpCovers(declared, needed);
  const pair: CompatPair = { name: older.name, from: older.version ?? null, to: newer.version ?? null, declared, needed, ok, findings };
  if (!ok && older.version !== undefined) pair.releaseAs = freeVersion(older.version, needed, taken);
  run.pairs.push(pair);
}

/**
 * Two documents of different content that declare one version: the pair fails whatever they
 * differ in (a published version is immutable: every lockfile holding it breaks), and a
 * `definition-changed` error at the later document names the version to publish instead.
 */
function addSameVersionPair(run: CompatRun, kept: VersionDocument, other: VersionDocument, taken: ReadonlySet<string>): void {
  const version = kept.version!;
  const compared = comparePair(run, kept, other);
  const needed: Bump = compared && compared.needed !== 'none' ? compared.needed : 'patch';
  const next = freeVersion(version, needed, taken);
  const message = `definition "${kept.name}" ${version} in ${other.document.file} differs from the one in ${placeOf(kept, other)} (${short(kept.digest)} there, ${short(other.digest)} here): a published version is immutable`;
  run.diagnostics.push(
    other.document.toDiagnostic(error('definition-changed', ['spec', 'version'], message, { part: 'value', hint: `publish the change as ${next}` })),
  );
  if (!compared) return;
  run.pairs.push({ name: kept.name, from: version, to: version, declared: 'none', needed, ok: false, findings: compared.findings, releaseAs: next });
}

/** The findings of two compiled documents and the bump they need; undefined when either does not compile. */
function comparePair(run: CompatRun, older: VersionDocument, newer: VersionDocument): { findings: CompatFinding[]; needed: Bump } | undefined {
  if (!older.definition || !newer.definition) return undefined;
  const comparison = compareDefinitions(older.definition, newer.definition);
  for (const issue of comparison.issues) run.diagnostics.push(newer.document.toDiagnostic(issue));
  const findings = comparison.changes.map((change): CompatFinding => {
    const document = change.side === 'old' ? older.document : newer.document;
    const at = document.locate(change.path, 'key');
    return { class: change.class, path: toPointer(change.path), message: change.message, file: document.file, line: at.line, column: at.column };
  });
  // From a 0.y.z release anything may break (SemVer): the older side's major decides.
  return { findings, needed: neededBump(comparison.changes, older.version) };
}

/**
 * The first version after `from` that declares `bump` and that no document of the name has:
 * 1.1.0 needing major is 2.0.0, or 3.0.0 when 2.0.0 is released. Each step raises the
 * version, so the walk ends within as many steps as there are versions taken.
 */
export function freeVersion(from: string, bump: Bump, taken: ReadonlySet<string>): string {
  let version = versionDeclaring(from, bump);
  if (version === from) return version;
  while (taken.has(version)) version = versionDeclaring(version, bump);
  return version;
}

function nameOf(document: YamlDocument): string | undefined {
  const data = document.data;
  const metadata = isMap(data) && isMap(data['metadata']) ? data['metadata'] : {};
  return typeof metadata['name'] === 'string' ? metadata['name'] : undefined;
}

// Two documents of one file are told apart by the line each starts on.
function placeOf(kept: VersionDocument, other: VersionDocument): string {
  if (kept.document.file !== other.document.file) return kept.document.file;
  return `${kept.document.file} (document on line ${kept.document.source.lineCounter.linePos(kept.document.start).line})`;
}

const short = (digest: string) => `${digest.slice(0, 'sha256:'.length + 12)}…`;

function comparePairs(a: CompatPair, b: CompatPair): number {
  return compareText(a.name, b.name) || compareNullable(a.to, b.to) || compareNullable(a.from, b.from);
}

function compareNullable(a: string | null, b: string | null): number {
  if (a === null || b === null) return (a === null ? 0 : 1) - (b === null ? 0 : 1);
  return compareVersions(a, b);
}
