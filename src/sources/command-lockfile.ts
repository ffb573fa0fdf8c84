import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CatalogueLockfile } from '../catalogue/lockfile.js';
import { type LockfileLocation, lockKeyOf } from '../files/lockfile-location.js';
import type { LockFollowing } from '../operations/follow-lock.js';

/** The lockfile flags every command that reads one takes. */
export interface LockfileFlags {
  /** `--lockfile FILE`, or false for `--no-lockfile`. */
  lockfile?: string | false;
}

/**
 * How a run follows its lockfile: profile files keyed relative to the lockfile's folder;
 * standard input without `--stdin-filepath` has no key (it resolves as if unlocked).
 */
export function lockFollowing(
  lockfile: CatalogueLockfile,
  cwd: string,
  mode: 'follow' | 'stable',
  options: { unnamedStdin?: string | undefined; update?: boolean } = {},
): LockFollowing | undefined {
  const { lock, location } = lockfile;
  if (!lock || !location) return undefined;
  return {
    lock,
    lockfile: location.display,
    keyOf: (file) => (file === options.unnamedStdin ? undefined : lockKeyOf(file, location.path, cwd)),
    mode,
    ...(options.update ? { update: true } : {}),
  };
}

/** True when the file a lockfile key names exists. */
export function lockKeyExists(key: string, location: LockfileLocation): boolean {
  return existsSync(resolve(dirname(location.path), key));
}
