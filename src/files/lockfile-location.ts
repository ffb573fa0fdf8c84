import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** The lockfile's default name, looked for when none is named. */
export const DEFAULT_LOCKFILE = 'kurel.lock.yaml';

/** What decides where the lockfile is (docs/versions.md). */
export interface LockfileQuery {
  /** `--lockfile FILE` (relative to `cwd`), or `false` for `--no-lockfile`. */
  flag?: string | false | undefined;
  /** The `.kurel.yaml` in use, if any: its path, and its `lockfile` value (relative to it). */
  config?: { file: string; lockfile?: string | undefined } | undefined;
  cwd: string;
  /** Only a lockfile named by the flag or the config counts (`kurel serve`). */
  namedOnly?: boolean;
}

/** Where a run's lockfile is. */
export interface LockfileLocation {
  /** Absolute path. */
  path: string;
  /** The path as messages name it: relative to the working directory when inside it, else in full. */
  display: string;
  /** True when the flag or the config named it (so it must exist for lint and build); false for a default location. */
  named: boolean;
  /** True when a file is there now. */
  exists: boolean;
}

/**
 * Where the lockfile is, for lint, build, lock, outdated, migrate and serve: `--lockfile FILE`,
 * else the config's `lockfile` (relative to the config), else `kurel.lock.yaml` next to the
 * `.kurel.yaml` in use, else in the working directory. Undefined with `--no-lockfile`, and for
 * `namedOnly` when neither the flag nor the config names one.
 */
export function locateLockfile(query: LockfileQuery): LockfileLocation | undefined {
  if (query.flag === false) return undefined;
  let path: string;
  let named = true;
  if (typeof query.flag === 'string') path = resolve(query.cwd, query.flag);
  else if (query.config?.lockfile !== undefined) path = resolve(dirname(resolve(query.cwd, query.config.file)), query.config.lockfile);
  else if (query.namedOnly) return undefined;
  else {
    named = false;
    path = query.config ? resolve(dirname(resolve(query.cwd, query.config.file)), DEFAULT_LOCKFILE) : resolve(query.cwd, DEFAULT_LOCKFILE);
  }
  return { path, display: displayPath(path, query.cwd), named, exists: existsSync(path) };
}

/** A path as messages show it: relative to `cwd` (with `/`) when inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  const shown = relative(cwd, path);
  if (shown === '' || shown.startsWith('..') || isAbsolute(shown)) return path;
  return shown.split(sep).join('/');
}

/**
 * A file's key in a lockfile: its path relative to the lockfile's folder, `/`-separated (`../…`
 * for a file outside it). `file` is relative to `cwd` or absolute.
 */
export function lockKeyOf(file: string, lockfilePath: string, cwd: string): string {
  // A definition read from a registry source is named by its reference (docs/registries.md), on any machine.
  if (file.startsWith('oci://')) return file;
  return relative(dirname(lockfilePath), resolve(cwd, file)).split(sep).join('/');
}

/** The path (relative to `cwd` when inside it) of a file a lockfile names by `key`. */
export function fileOfLockKey(key: string, lockfilePath: string, cwd: string): string {
  return displayPath(resolve(dirname(lockfilePath), key), cwd);
}
