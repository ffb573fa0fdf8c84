import type { Catalogue, RegisteredHandler } from '../catalogue/catalogue.js';
import { cloneData, describeValue, isMap, setOwn, truncate } from '../core/data.js';
import { compareDiagnostics, type Diagnostic, error, hasErrors, type Issue, type Path, warning } from '../core/diagnostics.js';
import type { FileReport, InputFile } from '../core/input.js';
import { didYouMean } from '../core/suggest.js';
import { refusePin, satisfiesPin } from '../core/versions.js';
import { ApplicationSchema } from '../documents/application.js';
import { type ReadInput, readInput } from '../documents/read-input.js';
import { checkSchema } from '../schema/check.js';
import type { Rendering } from '../schema/handler.js';
import type { SourceText } from '../yaml/source.js';
import { evaluateProfile } from './evaluate-profile.js';
import { type LockFollowing, profileLockOf, unlistedProfile } from './follow-lock.js';
import { lintInputs } from './lint.js';
import type { PlatformOptions } from './platform.js';
import { applySuppressions } from './suppress.js';

/** The texts a build reads. */
export interface BuildSources {
  application: { file: string; content: string | Uint8Array };
  profile: { file: string; content: string | Uint8Array };
  /** Definition files (from --definitions, --capability-def, the package's definitions/). */
  definitions: readonly InputFile[];
}

/** Options of a build. */
export interface BuildOptions {
  /** Report `unvalidated-capability` as an error instead of a warning. */
  strictCapabilities?: boolean;
  /** `--require-pinned`: a binding of a versioned definition without `version` is an error. */
  requirePinned?: boolean;
  /** The lockfile the build follows (docs/versions.md). */
  lock?: LockFollowing | undefined;
  /** Platform versions around the profile's own (docs/platform.md): the repository default and the overrides. */
  platform?: PlatformOptions;
}

/** A trait after capability resolution: its merged properties and the key it resolved to. */
export interface ResolvedTrait {
  /** The trait type without any `@pin` (the pin is checked, not kept). */
  type: string;
  /** The profile key the trait resolved to (`expose.internal`, `expose`), or null when none. */
  capabilityKey: string | null;
  /** The definition version the binding resolved to; null for a capability without definition versions or no binding. */
  capabilityVersion: string | null;
  /** The binding's rendering with the trait's properties merged over it (the application wins per leaf). */
  properties: Record<string, unknown>;
}

/** A component with its resolved traits. */
export interface ResolvedComponent {
  name: string;
  type: string;
  traits: ResolvedTrait[];
}

/** The application a build resolves: every trait with its merged properties. */
export interface ResolvedApplication {
  name: string;
  components: ResolvedComponent[];
}

/** The result of a build, shared by the CLI and the HTTP service. */
export interface BuildReport {
  diagnostics: Diagnostic[];
  files: FileReport[];
  /** Source texts by file, for printing source lines under diagnostics. */
  sources: Map<string, SourceText>;
  /** The resolved application; null when there are errors. */
  application: ResolvedApplication | null;
  /** The definition version each binding of the profile resolved to, by key. */
  versions: Record<string, string>;
}

/** The profile as the trait steps see it. */
interface ProfileView {
  file: string;
  name: string | undefined;
  capabilities: Record<string, Rendering>;
  /** The version each binding resolved to, whatever its source. */
  versions: Record<string, string>;
  /** The definition version each binding resolved to. */
  definitionVersions: Record<string, string>;
  /** Bindings whose version could not be decided. */
  unresolved: ReadonlySet<string>;
}

/** What the trait steps need and where they put their problems. */
interface TraitContext {
  catalogue: Catalogue;
  /** Undefined when the profile could not be read: its own diagnostics explain it. */
  profile: ProfileView | undefined;
  strictCapabilities: boolean;
  appIssues: Issue[];
  profileIssues: Issue[];
  /** Capability keys already reported as unvalidated (once per key). */
  unvalidatedKeys: Set<string>;
}

/**
 * Builds an application against a cluster profile (docs/cli.md): loads the definitions,
 * validates every binding of the profile, then resolves each trait of each component (key
 * resolution, handler, required capability, platform-reserved keys, nested merge, unvalidated
 * capabilities). Every problem is reported, positioned in the file it comes from. Plugins are
 * handlers of the catalogue given; it is never changed.
 */
export function buildApplication(sources: BuildSources, catalogue: Catalogue, options: BuildOptions = {}): BuildReport {
  const seen = new Set<string>();
  const definitionInputs: InputFile[] = [];
  for (const input of sources.definitions) {
    if (seen.has(input.file)) continue;
    seen.add(input.file);
    definitionInputs.push({ ...input, origin: 'definition' });
  }
  const definitions = lintInputs(definitionInputs, catalogue, { lock: options.lock });
  const withDefinitions = definitions.catalogue;
  const diagnostics: Diagnostic[] = [...definitions.diagnostics];
  const sourceTexts = new Map(definitions.sources);
  const reads = new Map<string, ReadInput>();
  const applicationReport: FileReport = { path: sources.application.file, kind: 'Application', status: 'checked' };
  const profileReport: FileReport = { path: sources.profile.file, kind: 'ClusterProfile', status: 'checked' };

  const { document: profileDocument, clean: profileIsClean } = readSingleDocument(sources.profile, 'ClusterProfile', diagnostics, reads);
  let profile: ProfileView | undefined;
  if (profileDocument) {
    const following = profileLockOf(options.lock, sources.profile.file);
    if (following && !following.listed && following.lock.mode === 'follow') diagnostics.push(unlistedProfile(sources.profile.file, following.lock.lockfile));
    // Every binding is judged as lint judges it (docs/build.md), so one profile passes both or neither.
    const evaluation = evaluateProfile(profileDocument.data, withDefinitions, options.strictCapabilities === true ? 'error' : 'warning', {
      strictCapabilities: options.strictCapabilities === true,
      platform: options.platform,
      requirePinned: options.requirePinned === true,
      lock: following?.lock,
      sourceOf: (path) => profileDocument.sourceTextAt(path),
    });
    for (const issue of evaluation.issues) diagnostics.push(profileDocument.toDiagnostic(issue));
    if (evaluation.resolved && profileIsClean) profileReport.resolved = evaluation.resolved;
    profile = {
      file: sources.profile.file,
      name: evaluation.name,
      capabilities: evaluation.capabilities,
      versions: evaluation.versions,
      definitionVersions: evaluation.resolved?.versions ?? definitionVersionsOf(evaluation.versions, evaluation.bindings),
      unresolved: evaluation.unresolved,
    };
  }

  const { document: applicationDocument } = readSingleDocument(sources.application, 'Application', diagnostics, reads);
  let application: ResolvedApplication | null = null;
  if (applicationDocument) {
    const structure = checkSchema(ApplicationSchema, applicationDocument.data);
    const context: TraitContext = {
      catalogue: withDefinitions,
      profile,
      strictCapabilities: options.strictCapabilities === true,
      appIssues: [...structure.issues],
      profileIssues: [],
      unvalidatedKeys: new Set(),
    };
    application = resolveApplication(structure.value, context);
    for (const issue of context.appIssues) diagnostics.push(applicationDocument.toDiagnostic(issue));
    // Profile issues arise only for keys the profile holds, so its document was read.
    if (profileDocument) for (const issue of context.profileIssues) diagnostics.push(profileDocument.toDiagnostic(issue));
  }

  // The texts of the profile and the application when something is shown from them, or a
  // suppression may be read from them: a file the fast path read has neither.
  const named = new Set(diagnostics.map((d) => d.file));
  for (const [file, read] of reads) if (named.has(file) || !read.isFast) sourceTexts.set(file, read.source);
  // Suppression comments of the profile and the application (the definitions' own were applied when they were read).
  const own = new Map([...sourceTexts].filter(([file]) => file === sources.profile.file || file === sources.application.file));
  const judged = applySuppressions(diagnostics, own).sort(compareDiagnostics);
  return {
    diagnostics: judged,
    files: [applicationReport, profileReport, ...definitions.files],
    sources: sourceTexts,
    application: hasErrors(judged) ? null : application,
    versions: profile?.definitionVersions ?? {},
  };
}

function definitionVersionsOf(versions: Record<string, string>, bindings: readonly { key: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key } of bindings) if (Object.hasOwn(versions, key)) out[key] = versions[key]!;
  return out;
}

/** Reads a file that must hold exactly one document of `kind` (its schema then checks the kind). */
function readSingleDocument(input: { file: string; content: string | Uint8Array }, kind: string, diagnostics: Diagnostic[], reads: Map<string, ReadInput>) {
  const read = readInput({ ...input, origin: 'document', kind });
  reads.set(input.file, read);
  for (const d of read.diagnostics) diagnostics.push(d);
  return read;
}

function resolveApplication(data: unknown, context: TraitContext): ResolvedApplication {
  const document = isMap(data) ? data : {};
  const metadata = isMap(document['metadata']) ? document['metadata'] : {};
  const spec = isMap(document['spec']) ? document['spec'] : {};
  const components = Array.isArray(spec['components']) ? spec['components'] : [];
  const resolved: ResolvedComponent[] = [];
  const seen = new Map<string, number>();
  components.forEach((component: unknown, i) => {
    if (!isMap(component)) return;
    const name = typeof component['name'] === 'string' ? component['name'] : '';
    // Names identify components in every later message and manifest; two alike would be ambiguous.
    const earlier = seen.get(name);
    if (name !== '' && earlier !== undefined) {
      context.appIssues.push(
        error(
          'invalid-value',
          ['spec', 'components', i, 'name'],
          `component name "${name}" is already used by component ${earlier + 1} of spec.components; names must be unique`,
        ),
      );
    } else if (name !== '') {
      seen.set(name, i);
    }
    const traits = Array.isArray(component['traits']) ? component['traits'] : [];
    const resolvedTraits: ResolvedTrait[] = [];
    traits.forEach((trait: unknown, j) => {
      if (!isMap(trait) || typeof trait['type'] !== 'string' || trait['type'] === '') return;
      resolvedTraits.push(resolveTrait(trait['type'], trait['properties'], ['spec', 'components', i, 'traits', j], name, context));
    });
    resolved.push({ name, type: typeof component['type'] === 'string' ? component['type'] : '', traits: resolvedTraits });
  });
  return { name: typeof metadata['name'] === 'string' ? metadata['name'] : '', components: resolved };
}

/** The steps of docs/cli.md for one trait, in order, with the trait's `@pin` checked (docs/versions.md). */
function resolveTrait(written: string, rawProperties: unknown, path: Path, component: string, context: TraitContext): ResolvedTrait {
  const typePath = [...path, 'type'];
  const { type, pin } = splitTraitType(written, typePath, context);
  const properties = isMap(rawProperties) ? rawProperties : {};
  const scope = scopeOf(properties, path, context);
  const lookedUp = scope === undefined ? type : `${type}.${scope}`;
  const capabilities = context.profile?.capabilities ?? {};
  const capabilityKey = [lookedUp, type].find((key) => Object.hasOwn(capabilities, key)) ?? null;
  const capabilityVersion = (capabilityKey !== null && context.profile?.definitionVersions[capabilityKey]) || null;

  const registered = context.catalogue.handler(type);
  if (!registered) {
    reportUnknownTrait(type, typePath, component, context);
    return { type, capabilityKey, capabilityVersion, properties: cloneData(properties) as Record<string, unknown> };
  }
  if (pin !== undefined && capabilityKey !== null && context.profile) checkTraitPin(type, pin, capabilityKey, typePath, component, context.profile, context);
  const { handler } = registered;
  if (handler.capabilityAware && handler.capabilityRequired && capabilityKey === null && context.profile) {
    context.appIssues.push(
      error('missing-capability', path, `${missingMessage(lookedUp, type, context.profile)}: component "${component}" trait "${type}" requires it`, {
        at: { path: typePath, part: 'value' },
        hint: `add a binding for ${lookedUp} under spec.capabilities in ${context.profile.file}`,
      }),
    );
  }
  for (const key of handler.platformReserved ?? []) {
    if (!Object.hasOwn(properties, key)) continue;
    context.appIssues.push(
      error(
        'platform-reserved',
        [...path, 'properties', key],
        `${key} is reserved for the platform: only the ClusterProfile sets it for ${type}, not component "${component}"`,
        {
          hint: `remove ${key} from the trait's properties`,
        },
      ),
    );
  }
  if (capabilityKey !== null) reportIfUnvalidated(capabilityKey, registered, context);
  const rendering = capabilityKey === null ? {} : capabilities[capabilityKey]!;
  return { type, capabilityKey, capabilityVersion, properties: mergeProperties(rendering, properties) };
}

/** `type: name@<pin>` (KubeVela's syntax): the handler is looked up by the name; a malformed pin is `invalid-value` at the type. */
function splitTraitType(written: string, typePath: Path, context: TraitContext): { type: string; pin: string | undefined } {
  const at = written.indexOf('@');
  if (at === -1) return { type: written, pin: undefined };
  const type = written.slice(0, at);
  const pin = written.slice(at + 1);
  const refusal = refusePin(pin);
  if (!refusal) return { type, pin };
  context.appIssues.push(
    error(
      'invalid-value',
      typePath,
      `trait type ${JSON.stringify(truncate(written))}: the part after @ is not a pin: ${refusal.reason}`,
      refusal.hint ? { hint: `write ${type}@${refusal.hint.replace(/^write /, '')}` } : {},
    ),
  );
  return { type, pin: undefined };
}

/** `version-mismatch` (docs/versions.md): the version the profile resolved for the trait's binding must satisfy the trait's `@pin`. */
function checkTraitPin(type: string, pin: string, key: string, typePath: Path, component: string, profile: ProfileView, context: TraitContext): void {
  // A binding whose version was not decided has its own error; a broken definition explains itself.
  if (profile.unresolved.has(key) || context.catalogue.isBroken(type)) return;
  const resolved = Object.hasOwn(profile.versions, key) ? profile.versions[key] : undefined;
  if (resolved !== undefined && satisfiesPin(resolved, pin)) return;
  const name = profile.name === undefined ? 'the ClusterProfile' : `ClusterProfile "${profile.name}"`;
  const found = resolved === undefined ? `${type} has no version there` : `resolves ${key} to ${resolved}`;
  context.appIssues.push(
    error('version-mismatch', typePath, `component "${component}" trait "${type}" was written for ${type} ${pin}, but ${name} (${profile.file}) ${found}`, {
      hint:
        resolved === undefined
          ? `remove @${pin}, or build against a profile with a versioned ${type}`
          : `pin ${key} to a version matching ${pin} in ${profile.file}, or change @${pin}`,
    }),
  );
}

/** The trait's scope: a non-empty string `properties.scope`; anything else but null is `wrong-type`. */
function scopeOf(properties: Record<string, unknown>, path: Path, context: TraitContext): string | undefined {
  if (!Object.hasOwn(properties, 'scope')) return undefined;
  const scope = properties['scope'];
  if (scope === null) return undefined;
  if (typeof scope !== 'string') {
    context.appIssues.push(
      error('wrong-type', [...path, 'properties', 'scope'], `properties.scope must be a string naming a scoped capability key, found ${describeValue(scope)}`),
    );
    return undefined;
  }
  return scope === '' ? undefined : scope;
}

function missingMessage(lookedUp: string, type: string, profile: ProfileView): string {
  const name = profile.name === undefined ? 'the ClusterProfile' : `ClusterProfile "${profile.name}"`;
  const bare = lookedUp === type ? '' : `, nor the bare key "${type}"`;
  return `capability "${lookedUp}" not found in ${name} (${profile.file})${bare}`;
}

function reportUnknownTrait(type: string, typePath: Path, component: string, context: TraitContext): void {
  const handlerTypes = context.catalogue.listHandlers().map((registered) => registered.handler.type);
  const hint = didYouMean(type, handlerTypes) ?? 'register a handler for this trait type (a plugin)';
  const reason = context.catalogue.definition(type) ? ': a CapabilityDefinition validates its rendering but does not implement the trait' : '';
  context.appIssues.push(error('unknown-trait', typePath, `no handler for trait type "${type}" in component "${component}"${reason}`, { hint }));
}

/** docs/plugins.md: a used capability whose plugin handler has no schema and no definition is never checked. */
function reportIfUnvalidated(key: string, registered: RegisteredHandler, context: TraitContext): void {
  const type = registered.handler.type;
  if (registered.source === 'builtin' || registered.handler.renderingSchema !== undefined || context.catalogue.definition(type)) return;
  if (context.unvalidatedKeys.has(key)) return;
  context.unvalidatedKeys.add(key);
  const make = context.strictCapabilities ? error : warning;
  context.profileIssues.push(
    make(
      'unvalidated-capability',
      ['spec', 'capabilities', key],
      `capability "${key}" is used but its rendering is not validated: the handler from ${registered.source} declares no rendering schema and no CapabilityDefinition exists`,
      { hint: `add a CapabilityDefinition named ${type}, or a renderingSchema to the plugin` },
    ),
  );
}

/**
 * Merges a trait's properties over a binding's rendering (docs/cli.md step 5): nested maps
 * merge key by key, the application wins on each leaf, lists and scalars replace. Returns a
 * new map; never mutates its inputs.
 */
export function mergeProperties(rendering: Readonly<Record<string, unknown>>, properties: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = cloneData(rendering) as Record<string, unknown>;
  for (const key of Object.keys(properties)) {
    const current = Object.hasOwn(out, key) ? out[key] : undefined;
    const value = properties[key];
    setOwn(out, key, isMap(current) && isMap(value) ? mergeProperties(current, value) : cloneData(value));
  }
  return out;
}
