import type { CapabilityDefinitionEntry, Catalogue } from '../catalogue/catalogue.js';
import { canonicalJson } from '../core/canonical-json.js';
import { describeValue, isMap } from '../core/data.js';
import { compareDiagnostics, type Diagnostic, describePath, error, fileDiagnostic, type Issue, type Path, toPointer, warning } from '../core/diagnostics.js';
import type { InputFile } from '../core/input.js';
import type { JsonSchema } from '../core/json-schema.js';
import { didYouMean } from '../core/suggest.js';
import { compareVersions, isDefinitionVersion, isPrerelease, refuseDefinitionVersion, resolvePin, sortVersions } from '../core/versions.js';
import { capabilityType, DNS1123_LABEL } from '../documents/common.js';
import { documentPath } from '../documents/compare-definitions.js';
import { readInput } from '../documents/read-input.js';
import { checkRenames } from '../schema/compare.js';
import type { SourceText, YamlDocument } from '../yaml/source.js';
import { editYamlText, offsetBefore, type TextChange, type TextEdit } from '../yaml/text-edits.js';
import {
  convertRendering,
  migrationChain,
  type RenderingConversion,
  type SchemaStep,
  schemaAt,
  traceToFirst,
  type VersionSchema,
} from './convert-rendering.js';
import type { LockFollowing } from './follow-lock.js';
import { lintInputs } from './lint.js';
import type { PlatformOptions } from './platform.js';

/**
 * One `--to NAME@VERSION` of a migration: the name and the version to move its bindings to,
 * exact (`2.0.0`) or a pin (`^2`, `2.1`): a pin converts to the highest version it allows and is
 * written into `version` as given.
 */
export interface MigrationTarget {
  readonly name: string;
  readonly version: string;
}

/** A target with its pin resolved: the exact version converted to, and the pin written. */
interface ResolvedTarget {
  readonly name: string;
  /** The exact version the renderings convert to. */
  readonly version: string;
  /** What the binding's `version` says after the migration, as `--to` wrote it. */
  readonly pin: string;
}

/** Targets read from `NAME@VERSION` texts, and what is wrong with the others. */
export interface TargetReading {
  readonly targets: MigrationTarget[];
  /** Messages about malformed or repeated targets (a usage error). */
  readonly problems: string[];
}

/**
 * Reads migration targets (docs/migrate.md): each `NAME@VERSION` with NAME a definition name
 * (a DNS-1123 label) and VERSION one exact SemVer version (a pin such as `^2` or `2.1` is a
 * problem: a migration moves bindings to a version that exists); a name given twice is a problem.
 */
export function readMigrationTargets(texts: readonly string[]): TargetReading {
  const targets: MigrationTarget[] = [];
  const problems: string[] = [];
  for (const text of texts) {
    const at = text.lastIndexOf('@');
    const name = at === -1 ? text : text.slice(0, at);
    const version = at === -1 ? '' : text.slice(at + 1);
    const shown = JSON.stringify(text);
    if (at === -1 || !new RegExp(DNS1123_LABEL).test(name)) {
      problems.push(`${shown} must be NAME@VERSION, such as redis-sidecar@2.0.0`);
      continue;
    }
    const refusal = refuseDefinitionVersion(version);
    if (refusal) {
      problems.push(`${shown} must name one exact version of ${name}: ${refusal.reason}${refusal.hint ? ` (${refusal.hint})` : ''}`);
      continue;
    }
    const earlier = targets.find((t) => t.name === name);
    if (earlier) {
      problems.push(`${name} is named twice (${earlier.version} and ${version}); a run moves each name to one version`);
      continue;
    }
    targets.push({ name, version });
  }
  return { targets, problems };
}

/** Options of {@link migrateInputs}: lint's, and `lossy`. */
export interface MigrateOptions {
  /** `--lossy`: dropping a value the file sets is a warning, and the value is dropped. */
  lossy?: boolean;
  strictCapabilities?: boolean;
  requirePinned?: boolean;
  platform?: PlatformOptions | undefined;
  /** The lockfile: a binding it locks under its current pin migrates from the locked version. */
  lock?: LockFollowing | undefined;
}

/** One profile file of a migration: its text before and after. */
export interface MigratedFile {
  /** The file as the user named it. */
  readonly path: string;
  /** The text as read and as migrated, without a byte order mark. */
  readonly before: string;
  readonly after: string;
  readonly changed: boolean;
  /** True when the file starts with a byte order mark, which a rewrite keeps. */
  readonly bom: boolean;
}

/** What a migration found and would write. */
export interface MigrateReport {
  /** Every problem, positioned in the files as they are (before the migration), sorted. */
  diagnostics: Diagnostic[];
  /** True when a target cannot be used at all (a usage error): nothing was migrated. */
  fatal: boolean;
  /** Every profile file read, in input order. */
  files: MigratedFile[];
  /** The texts the diagnostics are positioned in, by file. */
  sources: Map<string, SourceText>;
  /** True when the lockfile locks a migrated binding under another pin or version than the migration gives it. */
  lockOutdated: boolean;
}

/**
 * Migrates every binding of the target names in the profile inputs (docs/migrate.md): from the
 * version it resolves to (its locked version when the lockfile locks it under the same pin),
 * step by step along consecutive versions, to the target version, which its `version` then
 * pins as written. The files are rewritten as text, so everything the migration need not change
 * stays as it was, and each converted file is linted in full at the new versions; diagnostics
 * are positioned in the files as they are. Pure: reads only `inputs`, writes nothing.
 */
export function migrateInputs(
  inputs: readonly InputFile[],
  catalogue: Catalogue,
  targets: readonly MigrationTarget[],
  options: MigrateOptions = {},
): MigrateReport {
  const lintOptions = {
    strictCapabilities: options.strictCapabilities === true,
    requirePinned: options.requirePinned === true,
    platform: options.platform,
    // A lock is followed as `kurel lock` follows it: locked versions where the pin is unchanged, nothing reported.
    lock: options.lock ? { ...options.lock, mode: 'stable' as const } : undefined,
  };
  const original = lintInputs(inputs, catalogue, lintOptions);
  const unchanged = (diagnostics: Diagnostic[], fatal: boolean): MigrateReport => ({
    diagnostics: diagnostics.sort(compareDiagnostics),
    fatal,
    files: profileTexts(inputs).map(({ path, text, bom }) => ({ path, before: text, after: text, changed: false, bom })),
    sources: original.sources,
    lockOutdated: false,
  });

  const usage = targetProblems(targets, original.catalogue);
  if (usage.length > 0) return unchanged(usage, true);
  const resolvedTargets = targets.map((t) => resolveTarget(t, original.catalogue));
  // A broken name's own diagnostics explain why nothing can be migrated (docs/versions.md).
  if (targets.some((t) => original.catalogue.isBroken(t.name))) return unchanged([...original.diagnostics], false);
  const renames = targets.flatMap((t) => renameProblems(original.catalogue, t.name));
  if (renames.length > 0) return unchanged([...original.diagnostics, ...renames], false);

  const byName = new Map(resolvedTargets.map((t) => [t.name, t]));
  const resolvedVersions = new Map(original.profiles.map((p) => [p.file, new Map(p.bindings.map((b) => [b.key, b.version]))]));
  const plans: FilePlan[] = [];
  for (const input of inputs) {
    if (input.origin === 'definition') continue;
    const plan = planFile(input, byName, resolvedVersions.get(input.file), original.catalogue, options);
    if (plan) plans.push(plan);
  }

  const planOf = new Map(plans.map((p) => [p.path, p]));
  const migratedInputs = inputs.map((input) => {
    const plan = planOf.get(input.file);
    return plan?.changed ? { ...input, content: plan.after } : input;
  });
  const migrated = lintInputs(migratedInputs, catalogue, lintOptions);
  const diagnostics: Diagnostic[] = [];
  for (const d of migrated.diagnostics) {
    const plan = planOf.get(d.file);
    const positioned = plan ? plan.positionBack(d, migrated.sources.get(d.file)) : d;
    if (positioned) diagnostics.push(positioned);
  }
  for (const plan of plans) for (const d of plan.diagnostics) diagnostics.push(d);
  return {
    diagnostics: diagnostics.sort(compareDiagnostics),
    fatal: false,
    files: plans.map(({ path, before, after, changed, bom }) => ({ path, before, after, changed, bom })),
    // A lint keeps the texts of the files it reported on; the migration reports on the files it planned too.
    sources: new Map([...plans.map((plan): [string, SourceText] => [plan.path, plan.source]), ...original.sources]),
    lockOutdated: plans.some((plan) => isLockOutdated(plan, options.lock)),
  };
}

/** A target name no definition has, one without versions, or a version it lacks: usage errors. */
function targetProblems(targets: readonly MigrationTarget[], catalogue: Catalogue): Diagnostic[] {
  const out: Diagnostic[] = [];
  const usage = (message: string, hint?: string): Diagnostic => fileDiagnostic('<command line>', 'usage', message, hint ? { hint } : {});
  for (const { name, version } of targets) {
    if (catalogue.isBroken(name)) continue;
    const versions = catalogue.versionSource(name) === 'definition' ? catalogue.versionsOf(name) : [];
    if (catalogue.definitionVersions(name).length === 0) {
      const named = catalogue.listDefinitions().map((d) => d.name);
      out.push(usage(`no CapabilityDefinition of ${name} is loaded, so ${name}@${version} cannot be migrated to`, didYouMean(name, new Set(named))));
    } else if (versions.length === 0) {
      out.push(usage(`${name} has no versions (its definition has no spec.version), so there is nothing to migrate between`));
    } else if (isDefinitionVersion(version) ? !versions.includes(version) : resolvePin(versions, version) === undefined) {
      const missing = isDefinitionVersion(version) ? `no version ${version}` : `no version matching ${version}`;
      out.push(usage(`${name} has ${missing}; it has ${sortVersions(versions).join(', ')}`));
    }
  }
  return out;
}

/** A target whose version passed {@link targetProblems}: a pin resolves to the highest version it allows. */
function resolveTarget(target: MigrationTarget, catalogue: Catalogue): ResolvedTarget {
  if (isDefinitionVersion(target.version) || catalogue.isBroken(target.name)) return { ...target, pin: target.version };
  const exact = resolvePin(catalogue.versionsOf(target.name), target.version) ?? target.version;
  return { name: target.name, version: exact, pin: target.version };
}

/**
 * docs/migrate.md: each version's `renamedFrom` names a property of the version before it, checked
 * on the versions of the run as compat checks them (against the release before each version)
 * and reported at the `renamedFrom` value.
 */
function renameProblems(catalogue: Catalogue, name: string): Diagnostic[] {
  const entries = catalogue.definitionVersions(name).filter((e): e is CapabilityDefinitionEntry & { version: string } => e.version !== undefined);
  const sorted = [...entries].sort((a, b) => compareVersions(a.version, b.version));
  const out: Diagnostic[] = [];
  for (const [index, entry] of sorted.entries()) {
    const previous = sorted
      .slice(0, index)
      .filter((e) => !isPrerelease(e.version))
      .pop();
    if (!previous) continue;
    const source = entry.documents.find((d) => d.file === entry.file) ?? entry.documents[0];
    if (!source) continue;
    for (const problem of checkRenames(previous.schema, entry.schema)) {
      out.push(source.document.toDiagnostic(error('definition-invalid', documentPath(problem.path), problem.message, { part: 'value' })));
    }
  }
  return out;
}

/** The profile inputs' texts as read (for a run that migrates nothing). */
function profileTexts(inputs: readonly InputFile[]): { path: string; text: string; bom: boolean }[] {
  const out: { path: string; text: string; bom: boolean }[] = [];
  for (const input of inputs) {
    if (input.origin === 'definition') continue;
    const read = readInput(input);
    if (read.document) out.push({ path: input.file, text: read.source.text, bom: startsWithBom(input.content) });
  }
  return out;
}

/** How one profile file migrates. */
interface FilePlan extends MigratedFile {
  /** Problems of the migration itself (lossy drops, changed defaults, edits through aliases), positioned. */
  diagnostics: Diagnostic[];
  /** The migrated bindings, by key. */
  bindings: Map<string, MigratedBinding>;
  /** Positions a diagnostic of the migrated text in the file as it is; undefined to leave it out. */
  positionBack(diagnostic: Diagnostic, migrated: SourceText | undefined): Diagnostic | undefined;
  /** The file as it is, to show source lines under its diagnostics. */
  source: SourceText;
}

/** One binding a migration moves. */
interface MigratedBinding {
  key: string;
  name: string;
  from: string;
  /** The exact version the rendering converts to. */
  to: string;
  /** The pin after the migration, as `--to` wrote it. */
  toPin: string;
  /** The pin before the migration (undefined when unpinned); after it, the pin is `toPin`. */
  pin: string | undefined;
  conversion: RenderingConversion;
  hasRendering: boolean;
}

function planFile(
  input: InputFile,
  targets: ReadonlyMap<string, ResolvedTarget>,
  resolved: ReadonlyMap<string, string | undefined> | undefined,
  catalogue: Catalogue,
  options: MigrateOptions,
): FilePlan | undefined {
  const read = readInput(input);
  const document = read.document;
  if (!document) return undefined;
  const before = read.source.text;
  const plan: FilePlan = {
    path: input.file,
    before,
    after: before,
    changed: false,
    bom: startsWithBom(input.content),
    diagnostics: [],
    bindings: new Map(),
    positionBack: (d) => d,
    source: read.source,
  };
  // A file that cannot be read cleanly is left as it is; its own diagnostics explain it.
  if (read.diagnostics.some((d) => d.severity === 'error')) return plan;
  const spec = isMap(document.data) && isMap(document.data['spec']) ? document.data['spec'] : {};
  const bindings = isMap(spec['capabilities']) ? spec['capabilities'] : {};
  const edits: TextEdit[] = [];
  const issues: Issue[] = [];
  for (const key of Object.keys(bindings)) {
    const target = targets.get(capabilityType(key));
    const from = resolved?.get(key);
    const binding = bindings[key];
    // A binding with no version to start from (its pin matches nothing) keeps its own error.
    if (!target || from === undefined || (binding !== null && !isMap(binding))) continue;
    const raw = binding === null ? undefined : binding['rendering'];
    if (raw !== undefined && raw !== null && !isMap(raw)) continue;
    const pinned = binding === null ? undefined : binding['version'];
    const pin = typeof pinned === 'string' ? pinned : undefined;
    const chain = chainOf(catalogue, target.name, from, target.version);
    const conversion = convertRendering(isMap(raw) ? raw : {}, chain);
    const bindingPath: Path = ['spec', 'capabilities', key];
    const renderingPath: Path = [...bindingPath, 'rendering'];
    plan.bindings.set(key, { key, name: target.name, from, to: target.version, toPin: target.pin, pin, conversion, hasRendering: isMap(raw) });
    for (const rename of conversion.renames) edits.push({ kind: 'rename-key', path: [...renderingPath, ...rename.path], to: rename.to });
    for (const drop of conversion.drops) {
      edits.push({ kind: 'drop-key', path: [...renderingPath, ...drop.path] });
      const make = options.lossy ? warning : error;
      const property = describePath(drop.path);
      const through = drop.to === target.version ? '' : ` on the way to ${target.version}`;
      issues.push(
        make(
          'migration-lossy',
          [...renderingPath, ...drop.path],
          `capability "${key}": migrating from ${from} to ${target.version} drops ${property} (${describeValue(drop.value)}): ${target.name} ${drop.to} has no ${property}${through}`,
          options.lossy ? {} : { hint: 'allow the loss with --lossy (HTTP: "lossy": true), or remove the key first' },
        ),
      );
    }
    if (pin === undefined) edits.push({ kind: 'insert-first', path: bindingPath, key: 'version', value: target.pin });
    else if (pin !== target.pin) edits.push({ kind: 'replace-value', path: [...bindingPath, 'version'], value: target.pin });
    if (chain.length > 1) for (const issue of defaultChanges(key, target.name, chain, conversion.rendering, bindingPath)) issues.push(issue);
  }
  for (const issue of issues) plan.diagnostics.push(document.toDiagnostic(issue));
  if (edits.length === 0) return plan;

  let edited: ReturnType<typeof editYamlText>;
  try {
    edited = editYamlText(before, edits);
  } catch {
    // The text edits read YAML as the profile reader does; a text they cannot edit is left alone.
    return plan;
  }
  // What a refused edit leaves unchanged is reported once, as migration-unsupported, not again by the lint.
  const refused = new Set<string>();
  for (const refusal of edited.refusals) {
    const { edit, through, span } = refusal;
    refused.add(toPointer(edit.path));
    if (edit.kind === 'rename-key') refused.add(toPointer([...edit.path.slice(0, -1), edit.to]));
    const message =
      through === '<<'
        ? `migrating ${describeEdit(edit)} would change a key that a merge key (<<) brings into its map`
        : `migrating ${describeEdit(edit)} would change a value reached through the alias ${through}${span.anchorLine === undefined ? '' : ` (anchor on line ${span.anchorLine})`}, and so every place that uses it`;
    plan.diagnostics.push({
      code: 'migration-unsupported',
      severity: 'error',
      message,
      file: input.file,
      line: span.line,
      column: span.column,
      endLine: span.endLine,
      endColumn: span.endColumn,
      path: toPointer(edit.path),
      hint:
        through === '<<' ? 'write the key in the map itself instead of merging it, then migrate' : `write the value out in place of ${through}, then migrate`,
    });
  }
  return {
    ...plan,
    after: edited.text,
    changed: edited.text !== before,
    positionBack: (d, migrated) => (refused.has(d.path) ? undefined : positionBack(d, migrated, read.source, document, edited.changes, plan.bindings)),
  };
}

/** The versions a binding steps through, with their schemas. */
function chainOf(catalogue: Catalogue, name: string, from: string, to: string): VersionSchema[] {
  const versions = catalogue.versionsOf(name);
  return migrationChain(versions, from, to).map((version) => ({ version, schema: catalogue.definition(name, version)!.schema }));
}

/**
 * `migration-default-changed` (docs/migrate.md): a property both ends of the chain have, which the
 * converted rendering does not set, whose default differs between them. Defaults apply only
 * inside maps that are present, so only those are looked into.
 */
function defaultChanges(key: string, name: string, chain: readonly VersionSchema[], rendering: Record<string, unknown>, bindingPath: Path): Issue[] {
  const first = chain[0]!.version;
  const last = chain[chain.length - 1]!;
  const issues: Issue[] = [];
  const walk = (data: Record<string, unknown>, schema: JsonSchema | undefined, steps: SchemaStep[], path: Path) => {
    const properties = schema?.properties ?? {};
    for (const property of Object.keys(properties)) {
      const value = Object.hasOwn(data, property) ? data[property] : undefined;
      const here = [...steps, { property }];
      if (value === undefined || value === null) {
        const earlier = traceToFirst(chain, here);
        if (!earlier) continue;
        const was = earlier.default;
        const now = properties[property]!.default;
        if (canonicalJson(was) === canonicalJson(now)) continue;
        const label = describePath([...path, property]);
        issues.push(
          warning(
            'migration-default-changed',
            [...bindingPath, 'rendering', ...path, property],
            `capability "${key}": ${label} is not set, and its default changes from ${shownDefault(was)} in ${name} ${first} to ${shownDefault(now)} in ${last.version}`,
            { at: { path: bindingPath, part: 'key' }, ...(was === undefined ? {} : { hint: `write ${label}: ${JSON.stringify(was)} to keep the old value` }) },
          ),
        );
      } else if (isMap(value)) walk(value, properties[property], here, [...path, property]);
      else if (Array.isArray(value)) {
        const items = schemaAt(properties[property], { items: true });
        for (const [i, item] of value.entries()) if (isMap(item)) walk(item, items, [...here, { items: true }], [...path, property, i]);
      }
    }
    const additional = schemaAt(schema, { additional: true });
    if (!additional) return;
    for (const other of Object.keys(data)) {
      const value = data[other];
      if (!Object.hasOwn(properties, other) && isMap(value)) walk(value, additional, [...steps, { additional: true }], [...path, other]);
    }
  };
  walk(rendering, last.schema, [], []);
  return issues;
}

function shownDefault(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}

/**
 * A diagnostic of the migrated text positioned in the file as it is: its line and column mapped
 * back through the text changes, its path back through the renames. A required property the
 * migrated rendering lacks becomes `migration-needs-value`, at the binding's `rendering` key.
 */
function positionBack(
  d: Diagnostic,
  migrated: SourceText | undefined,
  original: SourceText,
  document: YamlDocument,
  changes: readonly TextChange[],
  bindings: ReadonlyMap<string, MigratedBinding>,
): Diagnostic | undefined {
  const path = fromPointer(d.path);
  const binding = path[0] === 'spec' && path[1] === 'capabilities' && path[3] === 'rendering' ? bindings.get(String(path[2])) : undefined;
  const inRendering = binding ? path.slice(4) : undefined;
  const originalPath = binding && inRendering ? [...path.slice(0, 4), ...binding.conversion.originalPath(inRendering)] : path;
  if (binding && inRendering && d.code === 'missing-required') {
    const bindingPath: Path = ['spec', 'capabilities', binding.key];
    const property = describePath(inRendering);
    return document.toDiagnostic(
      error(
        'migration-needs-value',
        originalPath,
        `capability "${binding.key}": ${binding.name} ${binding.to} requires ${property}, which the rendering does not set and which has no default`,
        { at: { path: binding.hasRendering ? [...bindingPath, 'rendering'] : bindingPath, part: 'key' }, hint: `write ${property} in the rendering` },
      ),
    );
  }
  if (!migrated) return { ...d, path: toPointer(originalPath) };
  const toOffset = (line: number, column: number) => (migrated.lineCounter.lineStarts[line - 1] ?? 0) + column - 1;
  const start = offsetBefore(changes, toOffset(d.line, d.column));
  const end = offsetBefore(changes, toOffset(d.endLine, d.endColumn));
  return { ...d, ...original.span(start, Math.max(start, end)), path: toPointer(originalPath) };
}

function describeEdit(edit: TextEdit): string {
  const where = toPointer(edit.path);
  if (edit.kind === 'rename-key') return `${where} (renamed to ${edit.to})`;
  if (edit.kind === 'drop-key') return `${where} (dropped)`;
  return `the version of ${edit.kind === 'insert-first' ? where : toPointer(edit.path.slice(0, -1))}`;
}

/** True when the lockfile locks a migrated binding under another pin or version than the migration gives it. */
function isLockOutdated(plan: FilePlan, lock: LockFollowing | undefined): boolean {
  if (!lock || !plan.changed) return false;
  const key = lock.keyOf(plan.path);
  const locked = key === undefined || !Object.hasOwn(lock.lock.profiles, key) ? undefined : lock.lock.profiles[key];
  if (!locked) return false;
  for (const binding of plan.bindings.values()) {
    const entry = Object.hasOwn(locked, binding.key) ? locked[binding.key] : undefined;
    if (entry && (entry.pin !== binding.toPin || entry.version !== binding.to)) return true;
  }
  return false;
}

function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function startsWithBom(content: string | Uint8Array): boolean {
  if (typeof content === 'string') return content.charCodeAt(0) === 0xfeff;
  return content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf;
}
