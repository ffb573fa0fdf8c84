import type { Catalogue } from '../catalogue/catalogue.js';
import type { ResolvedProfile } from '../core/input.js';
import type { LockedBindingEntry } from '../documents/capability-lock.js';
import { ClusterProfileSchema, DEFAULT_GITOPS_ENGINE, keysMissingRenderingLevel } from '../documents/cluster-profile.js';
import { capabilityType, hintQuotedVersion, type SourceTextReader } from '../documents/common.js';
import type { Rendering } from '../schema/handler.js';

export type { ResolvedProfile } from '../core/input.js';

import { isMap } from '../core/data.js';
import { error, type Issue, type Path, rebase, type Severity, warning } from '../core/diagnostics.js';
import { didYouMean } from '../core/suggest.js';
import { refusePin, resolvePin, satisfiesPin } from '../core/versions.js';
import { checkSchema } from '../schema/check.js';
import { isUnavailable, judgeLifecycle, lifecycleIssue } from '../schema/lifecycle.js';
import type { Platform } from '../schema/platform-version.js';
import { declaredPlatform, effectivePlatform, hintPlatformVersions, knownPlatformComponents, type PlatformOptions, unknownComponentIssue } from './platform.js';

/** What to do about a binding no handler or definition knows. */
export type UnknownCapabilityPolicy = Severity | 'quiet';

/** How a profile follows a lockfile (docs/versions.md). */
export interface ProfileLock {
  /** The lockfile as messages name it. */
  lockfile: string;
  /** This profile's locked bindings; undefined when the lockfile does not list the profile. */
  bindings: Readonly<Record<string, LockedBindingEntry>> | undefined;
  /**
   * `follow` (lint, build): a binding resolves to its locked version; a changed pin, a binding
   * the lock lacks or a locked version gone is `lock-outdated`. `stable` (`kurel lock`): a
   * binding whose pin is unchanged keeps its locked version while it still loads and satisfies
   * the pin; anything else resolves afresh, and nothing is reported.
   */
  mode: 'follow' | 'stable';
}

/** Options of {@link evaluateProfile}. */
export interface EvaluateOptions {
  /** The run's platform default and overrides around the profile's own `spec.platform`. */
  platform?: PlatformOptions | undefined;
  /** `--require-pinned`: a binding of a versioned definition without `version` is `unpinned-capability`. */
  requirePinned?: boolean;
  /** The lockfile to follow, if any. */
  lock?: ProfileLock | undefined;
  /** The source text of a scalar, to quote a version written as a number as it was written. */
  sourceOf?: SourceTextReader | undefined;
  /** `--strict-capabilities` of a run whose unknown capabilities are not reported (build): a pass-through rendering is an error. */
  strictCapabilities?: boolean;
}

/** How one binding of a versioned definition resolved (for `kurel lock` and `kurel outdated`). */
export interface BindingVersion {
  key: string;
  type: string;
  /** The pin as written; undefined when unpinned. */
  pin: string | undefined;
  /** The version it resolved to; undefined when none matched. */
  version: string | undefined;
  /** The version the lockfile holds for it, when it holds one. */
  locked: string | undefined;
}

/** The outcome of evaluating one ClusterProfile document. */
export interface ProfileEvaluation {
  /** `metadata.name`, when it could be read. */
  name: string | undefined;
  issues: Issue[];
  /** Present when the profile has no errors. */
  resolved: ResolvedProfile | undefined;
  /** What `resolved` is once no error remains (a configuration may lower the errors found). */
  resolution: ResolvedProfile;
  /** Every binding's rendering as evaluated (defaults applied where it checked clean). */
  capabilities: Record<string, Rendering>;
  /** The platform the bindings were judged at (docs/platform.md). */
  platform: Platform;
  /** The version each binding resolved to, whatever its source (a definition or a handler). */
  versions: Record<string, string>;
  /** Every binding of a versioned definition, in the profile's order. */
  bindings: BindingVersion[];
  /** Keys of known types whose version could not be decided (a malformed pin, no matching version): their own errors explain them. */
  unresolved: Set<string>;
}

/**
 * Evaluates a ClusterProfile (docs/profiles.md, docs/versions.md): strict structure, capability-key syntax, then
 * each binding's version (its pin, the lockfile) and its rendering through that version's
 * definition and the handler, collecting every issue. Bindings are judged at the profile's
 * platform (its `spec.platform` between the options' default and overrides, docs/platform.md): a
 * capability, key or value outside its lifecycle there is reported.
 */
export function evaluateProfile(
  data: unknown,
  catalogue: Catalogue,
  unknownCapability: UnknownCapabilityPolicy,
  options: EvaluateOptions = {},
): ProfileEvaluation {
  // Bindings are read from `data`, not from the checked copy: keeping that copy alive while
  // every binding is evaluated made the collector move it, the largest cost on large profiles.
  let structureIssues = checkSchema(ClusterProfileSchema, data).issues;
  const doc = isMap(data) ? data : {};
  const metadata = isMap(doc['metadata']) ? doc['metadata'] : {};
  const name = typeof metadata['name'] === 'string' ? metadata['name'] : undefined;
  const spec = isMap(doc['spec']) ? doc['spec'] : {};
  const gitopsEngine = typeof spec['gitopsEngine'] === 'string' ? spec['gitopsEngine'] : DEFAULT_GITOPS_ENGINE;
  const bindings = isMap(spec['capabilities']) ? spec['capabilities'] : {};
  const platform = effectivePlatform(declaredPlatform(spec['platform']), options.platform);
  const context = { platform };
  const badKeys = new Set(structureIssues.filter((i) => i.code === 'invalid-key').map((i) => String(i.path[2])));
  const unnested = new Map<string, string[]>();
  for (const key of Object.keys(bindings)) {
    const keys = keysMissingRenderingLevel(bindings[key]);
    if (keys.length > 0 && !badKeys.has(key)) unnested.set(key, keys);
  }
  if (unnested.size > 0) structureIssues = reportMissingRenderingLevels(structureIssues, unnested);
  const issues: Issue[] = [...structureIssues];
  hintPlatformVersions(issues, spec['platform'], options.sourceOf);
  if (isMap(spec['platform'])) {
    const known = knownPlatformComponents(catalogue);
    for (const component of Object.keys(spec['platform'])) {
      const issue = unknownComponentIssue(component, ['spec', 'platform', component], known);
      if (issue) issues.push(issue);
    }
  }
  const capabilities: Record<string, Rendering> = {};
  const versions: Record<string, string> = {};
  const definitionVersions: Record<string, string> = {};
  const bindingVersions: BindingVersion[] = [];
  const unresolved = new Set<string>();

  for (const key of Object.keys(bindings)) {
    if (badKeys.has(key) || unnested.has(key)) continue;
    const binding = bindings[key];
    if (binding !== null && !isMap(binding)) continue;
    const raw = binding === null ? undefined : binding['rendering'];
    const pinned = binding === null ? undefined : binding['version'];
    const bindingPath: Path = ['spec', 'capabilities', key];
    hintQuotedVersion(issues, [...bindingPath, 'version'], pinned, options.sourceOf);
    const pinRefusal = typeof pinned === 'string' ? refusePin(pinned) : undefined;
    if (pinRefusal)
      issues.push(
        error('invalid-value', [...bindingPath, 'version'], `capability "${key}": ${pinRefusal.reason}`, pinRefusal.hint ? { hint: pinRefusal.hint } : {}),
      );
    if (raw !== undefined && raw !== null && !isMap(raw)) continue;
    const rendering: Rendering = isMap(raw) ? raw : {};
    const type = capabilityType(key);
    if (catalogue.isBroken(type)) {
      // The definition's own error explains this binding.
      capabilities[key] = rendering;
      continue;
    }
    if (!catalogue.knows(type)) {
      capabilities[key] = rendering;
      if (unknownCapability !== 'quiet') {
        // Not a slip of a known type: most likely a custom capability whose definition this run did not load.
        const hint =
          didYouMean(type, catalogue.knownTypes()) ??
          `if ${type} is a custom capability, load its CapabilityDefinition: --definitions DIR, or definitions: in .kurel.yaml`;
        const make = unknownCapability === 'error' ? error : warning;
        issues.push(
          make('unknown-capability', bindingPath, `capability "${type}" is known to no handler or definition; its rendering is not validated`, {
            hint,
          }),
        );
      }
      continue;
    }
    // A pin that is not a pin (a number, a malformed text) decides no version: its own error explains the binding.
    if ((pinned !== undefined && pinned !== null && typeof pinned !== 'string') || pinRefusal) {
      capabilities[key] = rendering;
      unresolved.add(key);
      // A pin of the wrong type (`version: 1`) still leaves the rendering's own mistakes to
      // report: it is checked against the version an unpinned binding resolves to.
      if (!pinRefusal) {
        const { result } = catalogue.validateRendering(type, rendering, context);
        for (const issue of rebase(result.issues, [...bindingPath, 'rendering'])) issues.push({ ...issue, message: `capability "${key}": ${issue.message}` });
      }
      continue;
    }
    const pin = typeof pinned === 'string' ? pinned : undefined;
    const resolution = resolveBindingVersion(key, type, pin, catalogue, options, issues);
    const version = resolution.version;
    if (catalogue.hasDefinitionVersions(type)) bindingVersions.push({ key, type, pin, version, locked: resolution.locked });
    if (resolution.unresolved) {
      capabilities[key] = rendering;
      unresolved.add(key);
      continue;
    }
    if (version !== undefined) {
      versions[key] = version;
      if (catalogue.hasDefinitionVersions(type)) definitionVersions[key] = version;
    }
    const fromDefinition = catalogue.versionSource(type) === 'definition' ? version : undefined;
    const judgement = judgeLifecycle(catalogue.capabilityLifecycle(type, fromDefinition), platform);
    const gated = lifecycleIssue(judgement, `capability "${key}"`, bindingPath, 'key');
    if (gated) issues.push(gated);
    if (isUnavailable(judgement)) {
      // Its rendering is not looked at: only the outermost unavailable thing is reported.
      capabilities[key] = rendering;
      continue;
    }
    const { result, unvalidated } = catalogue.validateRendering(type, rendering, context, fromDefinition);
    capabilities[key] = result.rendering;
    if (unvalidated && Object.keys(rendering).length > 0 && isPassThroughBuiltin(catalogue, type)) {
      const make = unknownCapability === 'error' || options.strictCapabilities === true ? error : warning;
      issues.push(make('unvalidated-capability', [...bindingPath, 'rendering'], passThroughMessage(key, type), { part: 'key', hint: PASS_THROUGH_HINT }));
    }
    if (result.issues.length === 0) continue;
    for (const issue of rebase(result.issues, [...bindingPath, 'rendering'])) issues.push({ ...issue, message: `capability "${key}": ${issue.message}` });
  }

  const hasError = issues.some((i) => i.severity === 'error') || unnested.size > 0;
  const resolution: ResolvedProfile = { gitopsEngine, capabilities, versions: definitionVersions };
  return {
    name,
    issues,
    capabilities,
    platform,
    versions,
    bindings: bindingVersions,
    unresolved,
    resolution,
    resolved: hasError ? undefined : resolution,
  };
}

/**
 * A built-in that is not capability-aware (scaler, rbac, …) reads nothing from a binding: what
 * its rendering holds is neither checked nor used by any capability (docs/codes/unvalidated-capability.md).
 */
function isPassThroughBuiltin(catalogue: Catalogue, type: string): boolean {
  const registered = catalogue.handler(type);
  return registered !== undefined && registered.source === 'builtin' && !registered.handler.capabilityAware;
}

function passThroughMessage(key: string, type: string): string {
  return `capability "${key}" has a rendering that nothing validates: the built-in ${type} is a pass-through (not capability-aware), so a build merges these values into its traits unchecked`;
}

const PASS_THROUGH_HINT = "set these values as the trait's properties in the application, and remove the rendering";

/** A binding's version: undefined for a capability without versions; `unresolved` when no version matched (reported). */
interface BindingResolution {
  version: string | undefined;
  locked: string | undefined;
  unresolved: boolean;
}

/** docs/versions.md for one binding: the lockfile, the pin, `--require-pinned`, deprecation. */
function resolveBindingVersion(
  key: string,
  type: string,
  pin: string | undefined,
  catalogue: Catalogue,
  options: EvaluateOptions,
  issues: Issue[],
): BindingResolution {
  const bindingPath: Path = ['spec', 'capabilities', key];
  const pinPath: Path = [...bindingPath, 'version'];
  const at = pin === undefined ? { path: bindingPath, part: 'key' as const } : { path: pinPath, part: 'value' as const };
  const available = catalogue.versionsOf(type);
  const locksVersions = catalogue.hasDefinitionVersions(type);
  const lock = locksVersions ? options.lock : undefined;
  const entry = lock?.bindings && Object.hasOwn(lock.bindings, key) ? lock.bindings[key] : undefined;
  let version: string | undefined;

  if (lock?.mode === 'follow' && lock.bindings !== undefined) {
    const outdated = lockOutdated(key, type, pin, entry, available, lock.lockfile);
    if (outdated) issues.push(error('lock-outdated', at.path, outdated, { part: at.part, hint: 'run kurel lock' }));
    else version = entry!.version;
  } else if (
    lock?.mode === 'stable' &&
    entry &&
    entry.pin === pin &&
    available.includes(entry.version) &&
    (pin === undefined || satisfiesPin(entry.version, pin))
  ) {
    version = entry.version;
  }
  version ??= resolvePin(available, pin);

  if (version === undefined && pin !== undefined) {
    const has = available.length === 0 ? `${type} has no versions` : `${type} has ${available.join(', ')}`;
    const source = catalogue.versionSource(type) === 'handler' ? ' (its handler declares no version)' : ' (its definition is unversioned)';
    issues.push(
      error('version-not-found', pinPath, `capability "${key}": ${has}${available.length === 0 ? source : ''}; none matches ${pin}`, {
        hint: available.length === 0 ? 'remove version' : `pin one of ${available.join(', ')}`,
      }),
    );
    return { version: undefined, locked: entry?.version, unresolved: true };
  }
  if (pin === undefined && locksVersions && options.requirePinned) {
    const suggestion = version === undefined ? '' : `: "${version.split('.').slice(0, 2).join('.')}" to stay on ${version}`;
    issues.push(
      error(
        'unpinned-capability',
        bindingPath,
        `capability "${key}" is not pinned: ${type} has versions ${available.join(', ')}, and --require-pinned asks every binding to pin one`,
        {
          hint: `add version${suggestion}`,
        },
      ),
    );
  }
  const deprecation = version === undefined ? undefined : catalogue.definition(type, version)?.deprecation;
  if (deprecation !== undefined && catalogue.versionSource(type) === 'definition') {
    issues.push(warning('version-deprecated', at.path, `capability "${key}": ${type} ${version} is deprecated: ${deprecation}`, { part: at.part }));
  }
  return { version, locked: entry?.version, unresolved: false };
}

/** Why a followed lockfile no longer holds this binding, or undefined when it does. */
function lockOutdated(
  key: string,
  type: string,
  pin: string | undefined,
  entry: LockedBindingEntry | undefined,
  available: readonly string[],
  lockfile: string,
): string | undefined {
  if (!entry) return `capability "${key}" is not in ${lockfile}`;
  if (entry.pin !== pin) {
    const was = entry.pin === undefined ? 'unpinned' : `pinned ${entry.pin}`;
    const now = pin === undefined ? 'unpinned' : `pinned ${pin}`;
    return `capability "${key}" is ${now} but ${lockfile} locked it ${was}`;
  }
  if (!available.includes(entry.version)) return `capability "${key}" is locked to ${type} ${entry.version} in ${lockfile}, which is no longer loaded`;
  if (pin !== undefined && !satisfiesPin(entry.version, pin))
    return `capability "${key}" is locked to ${type} ${entry.version} in ${lockfile}, which does not satisfy ${pin}`;
  return undefined;
}

/**
 * One error per binding whose `rendering:` level was forgotten, at its first such key, in
 * place of an `unknown-field` per key (the binding is not validated further: its keys are not
 * where a rendering is read from).
 */
function reportMissingRenderingLevels(structureIssues: readonly Issue[], unnested: ReadonlyMap<string, string[]>): Issue[] {
  const kept = structureIssues.filter(
    (i) => !(i.code === 'unknown-field' && i.path.length === 4 && i.path[0] === 'spec' && i.path[1] === 'capabilities' && unnested.has(String(i.path[2]))),
  );
  for (const [key, keys] of unnested) {
    const named = keys.length === 1 ? `key ${keys[0]} is` : `keys ${keys.join(', ')} are`;
    kept.push(
      error(
        'unknown-field',
        ['spec', 'capabilities', key, keys[0]!],
        `capability "${key}": ${named} written directly under the binding, which holds only rendering and version`,
        {
          hint: `indent ${keys.length === 1 ? 'this key' : 'these keys'} under rendering:`,
        },
      ),
    );
  }
  return kept;
}
