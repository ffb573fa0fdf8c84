import { isMap } from '../core/data.js';
import type { Issue, Path } from '../core/diagnostics.js';
import { isComponentName, isPlatformVersion, layerPlatforms, type Platform, platformVersionHint } from '../schema/platform-version.js';

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
