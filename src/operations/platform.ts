import type { Catalogue } from '../catalogue/catalogue.js';
import { isMap } from '../core/data.js';
import { type Diagnostic, fileDiagnostic, type Issue, type Path, warning } from '../core/diagnostics.js';
import type { JsonSchema } from '../core/json-schema.js';
import { editDistanceWithin } from '../core/suggest.js';
import { LIFECYCLE_BOUNDS } from '../schema/keywords.js';
import {
  isComponentName,
  isPlatformVersion,
  KUBERNETES,
  layerPlatforms,
  type Platform,
  parseLifecycleVersion,
  platformVersionHint,
} from '../schema/platform-version.js';

/**
 * The platform versions a run brings besides each profile's own `spec.platform` (docs/platform.md). A profile is judged at `repositoryDefault`, then its own `spec.platform`, then
 * `overrides`, later ones winning per component.
 */
export interface PlatformOptions {
  /** Versions for components a profile does not name: the repository's default (the config file's `platform`). */
  repositoryDefault?: Platform | undefined;
  /** Versions that win over every profile's: `--platform COMPONENT=VERSION`, a request's `platform`. */
  overrides?: Platform | undefined;
}

const PLATFORM_PATH: Path = ['spec', 'platform'];

/** The versions a profile's `spec.platform` gives: well-formed entries only (the others are reported by the structure check). */
export function declaredPlatform(value: unknown): Platform {
  if (!isMap(value)) return {};
  const out: Record<string, string> = {};
  for (const component of Object.keys(value)) {
    const version = value[component];
    if (isComponentName(component) && typeof version === 'string' && isPlatformVersion(version)) out[component] = version;
  }
  return out;
}

/** The platform one profile is judged at: the run's default, the profile's own versions, the run's overrides. */
export function effectivePlatform(declared: Platform, options: PlatformOptions | undefined): Platform {
  return layerPlatforms(options?.repositoryDefault, declared, options?.overrides);
}

/**
 * Adds hints to the structure check's issues about `spec.platform` versions: a version YAML read
 * as a number is quoted as written (`1.30`, not 1.3), and a malformed one gets the accepted form
 * (`v1.30` → `1.30`).
 */
export function hintPlatformVersions(issues: Issue[], platform: unknown, sourceOf: ((path: Path) => string | undefined) | undefined): void {
  if (!isMap(platform)) return;
  for (const [index, issue] of issues.entries()) {
    if (issue.path.length !== 3 || issue.path[0] !== PLATFORM_PATH[0] || issue.path[1] !== PLATFORM_PATH[1]) continue;
    const component = String(issue.path[2]);
    const value = Object.hasOwn(platform, component) ? platform[component] : undefined;
    if (issue.code === 'wrong-type' && (typeof value === 'number' || typeof value === 'bigint')) {
      const written = sourceOf?.(issue.path) ?? String(value);
      issues[index] = { ...issue, hint: `quote it: ${JSON.stringify(written)}` };
    } else if (issue.code === 'invalid-value' && typeof value === 'string') {
      issues[index] = { ...issue, hint: platformVersionHint(value) };
    }
  }
}

// The components of a catalogue's lifecycles, found once per catalogue (a catalogue never changes).
const componentsOf = new WeakMap<Catalogue, ReadonlySet<string>>();
const BOUND_NAMES: ReadonlySet<string> = new Set(LIFECYCLE_BOUNDS.map((k) => k.name));

/**
 * The platform components kurel knows of (docs/platform.md): `kubernetes`, and every component
 * a lifecycle of the catalogue's definitions and plugin schemas names. Found in one walk over
 * the schemas, linear in their size, once per catalogue.
 */
export function knownPlatformComponents(catalogue: Catalogue): ReadonlySet<string> {
  let known = componentsOf.get(catalogue);
  if (known) return known;
  const found = new Set([KUBERNETES]);
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    for (const key of Object.keys(node)) {
      const value = (node as Record<string, unknown>)[key];
      if (BOUND_NAMES.has(key) && typeof value === 'string') {
        const read = parseLifecycleVersion(value);
        if (read) found.add(read.component);
      } else visit(value);
    }
  };
  for (const entry of catalogue.listDefinitions()) for (const version of catalogue.definitionVersions(entry.name)) visit(version.schema);
  for (const registered of catalogue.listHandlers()) visit(registered.handler.renderingSchema as JsonSchema | undefined);
  known = found;
  componentsOf.set(catalogue, known);
  return known;
}

/**
 * The component kurel knows of that `component` is one edit away from (`kubernets` →
 * `kubernetes`), when it is not itself one: components are free-form, so only a likely slip is
 * reported (docs/codes/unknown-platform-component.md).
 */
export function misspelledComponent(component: string, known: ReadonlySet<string>): string | undefined {
  if (known.has(component)) return undefined;
  for (const name of known) if (editDistanceWithin(component, name, 1) === 1) return name;
  return undefined;
}

/** The `unknown-platform-component` warning about `component`, at `path`, when it is a likely slip of a known one. */
export function unknownComponentIssue(component: string, path: Path, known: ReadonlySet<string>): Issue | undefined {
  const meant = misspelledComponent(component, known);
  if (meant === undefined) return undefined;
  return warning(
    'unknown-platform-component',
    path,
    `platform component "${component}" is named by no lifecycle kurel knows of, so its version applies to nothing`,
    { hint: `did you mean ${meant}?` },
  );
}

/** `unknown-platform-component` warnings about the components of `--platform` flags, at `<command line>:1:1`. */
export function flagComponentDiagnostics(flags: Platform, catalogue: Catalogue): Diagnostic[] {
  const known = knownPlatformComponents(catalogue);
  const out: Diagnostic[] = [];
  for (const component of Object.keys(flags)) {
    const issue = unknownComponentIssue(component, [], known);
    if (issue) out.push({ ...fileDiagnostic('<command line>', issue.code, `--platform ${issue.message}`, { hint: issue.hint! }), severity: 'warning' });
  }
  return out;
}
