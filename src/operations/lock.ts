import type { Catalogue } from '../catalogue/catalogue.js';
import { setOwn } from '../core/data.js';
import { type LockData, type LockedBindingEntry, type LockedDefinitionEntry, sameLock } from '../documents/capability-lock.js';
import { capabilityType } from '../documents/common.js';
import type { ProfileOutcome } from './lint.js';

/** Where the files a lockfile names are, relative to the lockfile's folder. */
export interface LockPaths {
  /** A profile or definition file's key in the lockfile; undefined for a file that has none (unnamed standard input). */
  keyOf(file: string): string | undefined;
  /** True when the file a lockfile key names still exists (entries of deleted files are dropped). */
  exists(key: string): boolean;
}

/** The lockfile a `kurel lock` run would write, and whether its data differs from the file's. */
export interface LockPlan {
  lock: LockData;
  /** True when the data differs from `previous` (or there is no previous lockfile). */
  changed: boolean;
}

/**
 * The lockfile after a clean lint of some profiles (docs/versions.md): each
 * profile of the run replaces its entries (every binding of a versioned definition, `{}` for a
 * profile without one), entries of other profiles are kept while their files exist, and
 * `definitions` holds exactly the versions some entry uses, with the digest and file of the
 * document loaded for each (a version no longer loaded keeps what the lockfile said of it).
 */
export function planLock(profiles: readonly ProfileOutcome[], catalogue: Catalogue, previous: LockData | undefined, paths: LockPaths): LockPlan {
  const lock: LockData = { definitions: {}, profiles: {} };
  const replaced = new Set(profiles.map((p) => paths.keyOf(p.file)).filter((key): key is string => key !== undefined));
  for (const key of Object.keys(previous?.profiles ?? {})) {
    if (replaced.has(key) || !paths.exists(key)) continue;
    setOwn(lock.profiles, key, previous!.profiles[key]!);
  }
  for (const profile of profiles) {
    const key = paths.keyOf(profile.file);
    if (key === undefined) continue;
    const bindings: Record<string, LockedBindingEntry> = {};
    for (const binding of profile.bindings) {
      if (binding.version === undefined) continue;
      setOwn(bindings, binding.key, binding.pin === undefined ? { version: binding.version } : { pin: binding.pin, version: binding.version });
    }
    setOwn(lock.profiles, key, bindings);
  }
  for (const bindings of Object.values(lock.profiles)) {
    for (const key of Object.keys(bindings)) {
      const name = capabilityType(key);
      const { version } = bindings[key]!;
      if (Object.hasOwn(lock.definitions, name) && Object.hasOwn(lock.definitions[name]!, version)) continue;
      const entry = lockedDefinition(name, version, catalogue, previous, paths);
      if (!entry) continue;
      if (!Object.hasOwn(lock.definitions, name)) setOwn(lock.definitions, name, {});
      setOwn(lock.definitions[name]!, version, entry);
    }
  }
  return { lock, changed: previous === undefined || !sameLock(lock, previous) };
}

function lockedDefinition(
  name: string,
  version: string,
  catalogue: Catalogue,
  previous: LockData | undefined,
  paths: LockPaths,
): LockedDefinitionEntry | undefined {
  const loaded = catalogue.definition(name, version);
  if (loaded) return { digest: loaded.digest, file: paths.keyOf(loaded.file) ?? loaded.file };
  const before = previous?.definitions[name];
  return before && Object.hasOwn(before, version) ? before[version] : undefined;
}
