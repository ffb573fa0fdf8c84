import { setOwn } from '../core/data.js';

/**
 * The versions of a cluster's platform components, by component (a DNS-1123 label):
 * `{kubernetes: "1.30", "gateway-api": "1.2.0"}` (docs/platform.md). Read it with
 * {@link platformVersionOf}: a component is an own key, never an inherited one.
 */
export type Platform = Readonly<Record<string, string>>;

/** The component a lifecycle version without a component name refers to. */
export const KUBERNETES = 'kubernetes';

/** A platform version: MAJOR.MINOR or MAJOR.MINOR.PATCH, no leading zeros, no `v`, no suffix (docs/platform.md). */
export const PLATFORM_VERSION_PATTERN = '^(0|[1-9]\\d*)(\\.(0|[1-9]\\d*)){1,2}$';

/** A platform component's name: a DNS-1123 label. */
export const COMPONENT_PATTERN = '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$';

const VERSION = new RegExp(PLATFORM_VERSION_PATTERN);
const COMPONENT = new RegExp(COMPONENT_PATTERN);

/** What a platform version must look like, for messages. */
export const PLATFORM_VERSION_EXPECTED = 'a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2';

/** What a lifecycle version must look like, for messages. */
export const LIFECYCLE_VERSION_EXPECTED = 'a Kubernetes version such as "1.29", or a component and its version such as "gateway-api 1.1"';

/** An empty platform: no component has a version, so nothing is gated. */
export const NO_PLATFORM: Platform = Object.freeze({});

/** True when `text` is a platform version (`1.30`, `1.30.2`). */
export function isPlatformVersion(text: string): boolean {
  return VERSION.test(text);
}

/** True when `text` names a platform component (a DNS-1123 label). */
export function isComponentName(text: string): boolean {
  return COMPONENT.test(text);
}

/**
 * Orders two platform versions numerically, part by part, a missing part counting as 0:
 * `1.9` < `1.10`, `1.30` equals `1.30.0`. Both must be platform versions. Parts of any length
 * are compared exactly (no rounding through floating point).
 */
export function comparePlatformVersions(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? '0';
    const y = right[i] ?? '0';
    // Without leading zeros, a longer numeral is a larger number.
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * The accepted form closest to a version that is not one (`v1.30` → `1.30`, `1.30.2-eks-1`
 * → `1.30.2`), or undefined when nothing close is a version.
 */
export function suggestPlatformVersion(text: string): string | undefined {
  const core = /^\s*[vV]?(\d+(?:\.\d+)*)/.exec(text)?.[1];
  if (core === undefined) return undefined;
  const parts = core.split('.').map((part) => part.replace(/^0+(?=\d)/, ''));
  if (parts.length < 2) return undefined;
  const candidate = parts.slice(0, 3).join('.');
  return candidate !== text && isPlatformVersion(candidate) ? candidate : undefined;
}

/** A hint for a platform version that is not one: the accepted form when one is close. */
export function platformVersionHint(text: string): string {
  const suggestion = suggestPlatformVersion(text);
  return suggestion ? `write ${suggestion}` : 'write MAJOR.MINOR or MAJOR.MINOR.PATCH, such as 1.30 or 1.30.2';
}

/** The version a platform gives a component, if it gives one. */
export function platformVersionOf(platform: Platform | undefined, component: string): string | undefined {
  return platform !== undefined && Object.hasOwn(platform, component) ? platform[component] : undefined;
}

/** True when the platform names no component (nothing can be gated). */
export function isEmptyPlatform(platform: Platform | undefined): boolean {
  if (platform === undefined) return true;
  for (const _ in platform) return false;
  return true;
}

/**
 * Layers platforms, later ones winning per component: a repository default (the config
 * file's `platform`), then the profile's own `spec.platform`, then the command line's or
 * request's overrides (docs/platform.md). Returns a frozen platform: one shared empty platform
 * when no layer names a component (most profiles of most runs: freezing a new one for each
 * was a measurable part of judging a small profile).
 */
export function layerPlatforms(...layers: readonly (Platform | undefined)[]): Platform {
  let out: Record<string, string> | undefined;
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const component of Object.keys(layer)) {
      out ??= {};
      setOwn(out, component, layer[component]!);
    }
  }
  return out === undefined ? NO_COMPONENTS : Object.freeze(out);
}

const NO_COMPONENTS: Platform = Object.freeze({});

/** One `COMPONENT=VERSION` setting, read. */
export type PlatformSetting = { ok: true; component: string; version: string } | { ok: false; message: string };

/**
 * Reads `COMPONENT=VERSION` (`kubernetes=1.29`), as `--platform` and `?platform=` take it.
 * The message of a refusal says what was expected and what was found, and the accepted form
 * when one is close.
 */
export function parsePlatformSetting(text: string): PlatformSetting {
  const equals = text.indexOf('=');
  if (equals === -1) {
    return { ok: false, message: `expected COMPONENT=VERSION such as kubernetes=1.29, found ${JSON.stringify(text)}` };
  }
  const component = text.slice(0, equals);
  const version = text.slice(equals + 1);
  if (!isComponentName(component)) {
    return {
      ok: false,
      message: `expected a component name (a DNS-1123 label such as kubernetes or gateway-api) before =, found ${JSON.stringify(component)}`,
    };
  }
  if (!isPlatformVersion(version)) {
    return { ok: false, message: `expected ${PLATFORM_VERSION_EXPECTED} for ${component}, found ${JSON.stringify(version)}; ${platformVersionHint(version)}` };
  }
  return { ok: true, component, version };
}

/** Several `COMPONENT=VERSION` settings read into a platform, or the first refusal; a component named twice is refused. */
export function parsePlatformSettings(texts: readonly string[]): { ok: true; platform: Platform } | { ok: false; message: string } {
  const out: Record<string, string> = {};
  for (const text of texts) {
    const setting = parsePlatformSetting(text);
    if (!setting.ok) return setting;
    if (Object.hasOwn(out, setting.component)) {
      return { ok: false, message: `${setting.component} is given twice (${out[setting.component]} and ${setting.version}); give each component once` };
    }
    setOwn(out, setting.component, setting.version);
  }
  return { ok: true, platform: Object.freeze(out) };
}

/** A lifecycle version read: the component it is about and its version. */
export interface LifecycleVersion {
  component: string;
  version: string;
}

/**
 * Reads a lifecycle version (docs/platform.md): `"1.29"` is Kubernetes's, `"gateway-api 1.1"`
 * names its component. Undefined when the text is neither.
 */
export function parseLifecycleVersion(text: string): LifecycleVersion | undefined {
  const space = text.indexOf(' ');
  if (space === -1) return isPlatformVersion(text) ? { component: KUBERNETES, version: text } : undefined;
  const component = text.slice(0, space);
  const version = text.slice(space + 1);
  return isComponentName(component) && isPlatformVersion(version) ? { component, version } : undefined;
}

/** A hint for a lifecycle version that is not one: the accepted form when one is close. */
export function lifecycleVersionHint(text: string): string {
  const match = /^\s*(?:([A-Za-z][-A-Za-z0-9]*)\s*[ =:@]\s*)?(.*?)\s*$/.exec(text);
  const component = match?.[1]?.toLowerCase();
  const raw = match?.[2] ?? text;
  const version = isPlatformVersion(raw) ? raw : suggestPlatformVersion(raw);
  if (version !== undefined && (component === undefined || isComponentName(component))) {
    const candidate = component === undefined || component === KUBERNETES ? version : `${component} ${version}`;
    if (candidate !== text) return `write ${JSON.stringify(candidate)}`;
  }
  return 'write a Kubernetes version such as "1.29", or a component, one space and its version such as "gateway-api 1.1"';
}

/** How a component is named in descriptions: `Kubernetes`, or the component's own name. */
export function componentTitle(component: string): string {
  return component === KUBERNETES ? 'Kubernetes' : component;
}
