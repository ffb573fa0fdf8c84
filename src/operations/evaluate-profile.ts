import type { Catalogue } from '../catalogue/catalogue.js';
import type { ResolvedProfile } from '../core/input.js';
import { ClusterProfileSchema, DEFAULT_GITOPS_ENGINE, keysMissingRenderingLevel } from '../documents/cluster-profile.js';
import { capabilityType } from '../documents/common.js';
import type { Rendering } from '../schema/handler.js';

export type { ResolvedProfile } from '../core/input.js';

import { isMap } from '../core/data.js';
import { error, type Issue, type Path, rebase, type Severity, warning } from '../core/diagnostics.js';
import { didYouMean } from '../core/suggest.js';
import { checkSchema } from '../schema/check.js';
import { isUnavailable, judgeLifecycle, lifecycleIssue } from '../schema/lifecycle.js';
import type { Platform } from '../schema/platform-version.js';
import { declaredPlatform, effectivePlatform, hintPlatformVersions, type PlatformOptions } from './platform.js';

/** What to do about a binding no handler or definition knows. */
export type UnknownCapabilityPolicy = Severity | 'quiet';

/** Options of {@link evaluateProfile}. */
export interface EvaluateOptions {
  /** The run's platform default and overrides around the profile's own `spec.platform`. */
  platform?: PlatformOptions | undefined;
  /** The source text of a scalar, to quote a version written as a number as it was written. */
  sourceOf?: ((path: Path) => string | undefined) | undefined;
}

/** The outcome of evaluating one ClusterProfile document. */
export interface ProfileEvaluation {
  /** `metadata.name`, when it could be read. */
  name: string | undefined;
  /** `spec.gitopsEngine`, or its default. */
  gitopsEngine: string;
  issues: Issue[];
  /** Present when the profile has no errors. */
  resolved: ResolvedProfile | undefined;
  /** Every binding's rendering as evaluated (defaults applied where it checked clean). */
  capabilities: Record<string, Rendering>;
  /** The platform the bindings were judged at (DESIGN §8.4). */
  platform: Platform;
}

/**
 * Evaluates a ClusterProfile (DESIGN §4.2): strict structure, capability-key syntax, then every
 * binding's rendering through its definition and handler, collecting every issue. Bindings are
 * judged at the profile's platform (its `spec.platform` between the options' default and
 * overrides, DESIGN §8.4): a capability, key or value outside its lifecycle there is reported.
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
  const capabilities: Record<string, Rendering> = {};

  for (const key of Object.keys(bindings)) {
    if (badKeys.has(key) || unnested.has(key)) continue;
    const binding = bindings[key];
    if (binding !== null && !isMap(binding)) continue;
    const raw = binding === null ? undefined : binding['rendering'];
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
          make(
            'unknown-capability',
            ['spec', 'capabilities', key],
            `capability "${type}" is known to no handler or definition; its rendering is not validated`,
            {
              hint,
            },
          ),
        );
      }
      continue;
    }
    const bindingPath: Path = ['spec', 'capabilities', key];
    const judgement = judgeLifecycle(catalogue.capabilityLifecycle(type), platform);
    const gated = lifecycleIssue(judgement, `capability "${key}"`, bindingPath, 'key');
    if (gated) issues.push(gated);
    if (isUnavailable(judgement)) {
      // Its rendering is not looked at: only the outermost unavailable thing is reported.
      capabilities[key] = rendering;
      continue;
    }
    const { result } = catalogue.validateRendering(type, rendering, context);
    capabilities[key] = result.rendering;
    if (result.issues.length === 0) continue;
    for (const issue of rebase(result.issues, [...bindingPath, 'rendering'])) issues.push({ ...issue, message: `capability "${key}": ${issue.message}` });
  }

  const hasError = issues.some((i) => i.severity === 'error') || unnested.size > 0;
  return {
    name,
    issues,
    capabilities,
    platform,
    gitopsEngine,
    resolved: hasError ? undefined : { gitopsEngine, capabilities },
  };
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
        `capability "${key}": ${named} written directly under the binding, which holds only rendering`,
        {
          hint: `indent ${keys.length === 1 ? 'this key' : 'these keys'} under rendering:`,
        },
      ),
    );
  }
  return kept;
}
