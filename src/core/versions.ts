import type * as SemverLib from 'semver';
import { truncate } from './data.js';
import { requireLazily } from './lazy-package.js';

let lib: typeof SemverLib | undefined;

/** The `semver` package, loaded on first use: a lint without versions or pins never needs it. */
export function semver(): typeof SemverLib {
  lib ??= requireLazily('semver') as typeof SemverLib;
  return lib;
}

/** Why a version or pin text is refused, and how to write it instead. */
export interface VersionRefusal {
  reason: string;
  hint?: string;
}

/**
 * Checks a definition's `spec.version` (docs/versions.md): a SemVer 2.0 version written
 * exactly as semver prints it (no leading `v`, no spaces, no build metadata, all three parts).
 * Returns undefined when it is valid.
 */
export function refuseDefinitionVersion(text: string): VersionRefusal | undefined {
  if (isDefinitionVersion(text)) return undefined;
  const shown = JSON.stringify(truncate(text));
  const expected = 'a SemVer version MAJOR.MINOR.PATCH such as 1.2.0 or 2.0.0-rc.1 (no leading v, no build metadata)';
  const trimmed = text.trim();
  if (/^[vV]/.test(trimmed) && isDefinitionVersion(trimmed.slice(1)))
    return { reason: `version must be ${expected}, found ${shown}`, hint: `write ${trimmed.slice(1)}` };
  if (trimmed !== text && isDefinitionVersion(trimmed)) return { reason: `version must be ${expected}, found ${shown}`, hint: `write ${trimmed}` };
  if (text.includes('+')) return { reason: `version must be ${expected}, found ${shown}: build metadata is not part of a definition's version` };
  if (/^\d+(\.\d+)?$/.test(text)) return { reason: `version must be ${expected}, found ${shown}: a definition names one exact version` };
  return { reason: `version must be ${expected}, found ${shown}` };
}

/** True for a version a definition or handler may declare: `semver.valid(s) === s` and no build metadata. */
export function isDefinitionVersion(text: string): boolean {
  if (PLAIN_RELEASE.test(text)) return true;
  return text.length <= 256 && !text.includes('+') && semver().valid(text) === text;
}

// MAJOR.MINOR.PATCH of at most 15 digits each (below 2^53), which semver reads as written: the
// versions of the built-in handlers, checked at every start, need not load semver.
const PLAIN_RELEASE = /^(?:0|[1-9]\d{0,14})\.(?:0|[1-9]\d{0,14})\.(?:0|[1-9]\d{0,14})$/;

// One comparator of a pin: an optional operator directly followed by a (partial) version.
const COMPARATOR = /^(<=|>=|<|>|~|\^)?(0|[1-9]\d*)(\.(0|[1-9]\d*|x|\*)){0,2}(-[0-9A-Za-z.-]+)?$/;
// A bare (partial) version, as each side of a hyphen range is written.
const BARE = /^(0|[1-9]\d*)(\.(0|[1-9]\d*|x|\*)){0,2}(-[0-9A-Za-z.-]+)?$/;

/**
 * Checks a pin (a binding's `version`, or the part after `@` in a trait's type) against the
 * grammar of docs/versions.md: comparator sets joined by ` || `, each a hyphen range `A - B` or
 * comparators separated by single spaces, accepted by `semver.validRange`, and not a pin every
 * version satisfies (to float, omit the pin). Returns undefined when it is valid.
 */
export function refusePin(text: string): VersionRefusal | undefined {
  const shown = JSON.stringify(truncate(text));
  const expected = 'an exact version (2.1.3), a partial one (2.1, 2) or a range (^2.1.0, ~2.1.3, ">=2.1 <3")';
  if (text.length === 0) return { reason: `version must be ${expected}, found an empty string`, hint: 'to use the highest release, omit version' };
  if (text.length > 256 || !matchesPinGrammar(text) || semver().validRange(text) === null) {
    const bare = text
      .trim()
      .replace(/^[=vV]+/, '')
      .replace(/^(\^|~)[vV]/, '$1');
    const hint = bare !== text && bare !== '' && matchesPinGrammar(bare) && semver().validRange(bare) !== null ? `write ${bare}` : undefined;
    return { reason: `version must be ${expected}, found ${shown}`, ...(hint ? { hint } : {}) };
  }
  if (semver().subset('*', text)) {
    return { reason: `version ${shown} allows every version, so it pins nothing`, hint: 'to use the highest release, omit version' };
  }
  return undefined;
}

function matchesPinGrammar(text: string): boolean {
  return text.split(' || ').every((set) => {
    const hyphen = set.split(' - ');
    if (hyphen.length === 2) return BARE.test(hyphen[0]!) && BARE.test(hyphen[1]!);
    if (hyphen.length > 2) return false;
    return set.split(' ').every((comparator) => COMPARATOR.test(comparator));
  });
}

/** Orders versions by SemVer precedence, lowest first. */
export function compareVersions(a: string, b: string): number {
  return semver().compare(a, b);
}

/** True for a prerelease version (`2.0.0-rc.1`). */
export function isPrerelease(version: string): boolean {
  return semver().prerelease(version) !== null;
}

/**
 * The version an unpinned binding resolves to (docs/versions.md): the highest release, or the
 * highest prerelease when there are only prereleases; undefined when there is no version.
 * Never depends on the order of `versions`.
 */
export function latestVersion(versions: readonly string[]): string | undefined {
  // A built-in handler has one version: every binding of it asks, and one needs no comparing.
  if (versions.length < 2) return versions[0];
  const sorted = [...versions].sort(compareVersions);
  const releases = sorted.filter((v) => !isPrerelease(v));
  return releases[releases.length - 1] ?? sorted[sorted.length - 1];
}

/**
 * The version a binding resolves to among `versions`: the highest the pin allows (an exact
 * version must exist; a partial version is the highest with that prefix; prereleases only as
 * semver allows them by default), or {@link latestVersion} without a pin. `pin` must have passed
 * {@link refusePin}.
 */
export function resolvePin(versions: readonly string[], pin: string | undefined): string | undefined {
  if (pin === undefined) return latestVersion(versions);
  return semver().maxSatisfying([...versions], pin) ?? undefined;
}

/** True when `version` satisfies the valid pin `pin` (semver's default prerelease rule). */
export function satisfiesPin(version: string, pin: string): boolean {
  return semver().satisfies(version, pin);
}

/** Sorts versions ascending by SemVer precedence; returns a new list. */
export function sortVersions(versions: readonly string[]): string[] {
  return [...versions].sort(compareVersions);
}
