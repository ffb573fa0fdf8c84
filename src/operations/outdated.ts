import type { Catalogue } from '../catalogue/catalogue.js';
import { compareBytes, compareText } from '../core/data.js';
import { compareVersions, latestVersion, resolvePin } from '../core/versions.js';
import type { ProfileOutcome } from './lint.js';

/** One binding of a versioned definition, as `kurel outdated` reports it (the columns of `npm outdated`). */
export interface OutdatedRow {
  /** The profile file, as given. */
  path: string;
  key: string;
  type: string;
  /** The binding's `version`; null when unpinned. */
  pin: string | null;
  /** The version it resolves to now (its locked version when the lockfile holds one); null when none matches. */
  resolved: string | null;
  /** The version the lockfile holds for it; null when it holds none. */
  locked: string | null;
  /** The highest version the pin allows (what `kurel lock --update` would choose). */
  wanted: string | null;
  /** What an unpinned binding resolves to: the highest release (the highest prerelease when there are only prereleases). */
  latest: string | null;
}

/** The rows of `kurel outdated` (docs/versions.md): every binding of a versioned definition, sorted by path, then key. */
export function outdatedRows(profiles: readonly ProfileOutcome[], catalogue: Catalogue): OutdatedRow[] {
  const rows: OutdatedRow[] = [];
  for (const profile of profiles) {
    for (const binding of profile.bindings) {
      const versions = catalogue.versionsOf(binding.type);
      rows.push({
        path: profile.file,
        key: binding.key,
        type: binding.type,
        pin: binding.pin ?? null,
        resolved: binding.version ?? null,
        locked: binding.locked ?? null,
        wanted: resolvePin(versions, binding.pin) ?? null,
        latest: latestVersion(versions) ?? null,
      });
    }
  }
  return rows.sort((a, b) => compareBytes(a.path, b.path) || compareText(a.key, b.key));
}

/**
 * True when a row's binding resolves below the highest version its pin allows (`wanted`) or the
 * highest release (`latest`): what `kurel outdated --check` fails on, as `npm outdated` does. A
 * binding that resolves to nothing is an error of its own, not outdated.
 */
export function isOutdated(row: OutdatedRow): boolean {
  if (row.resolved === null) return false;
  const resolved = row.resolved;
  return [row.wanted, row.latest].some((higher) => higher !== null && compareVersions(resolved, higher) < 0);
}
