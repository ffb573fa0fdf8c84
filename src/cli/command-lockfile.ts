import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import type { LockData } from '../documents/capability-lock.js';
import { type LockfileLocation, locateLockfile, lockKeyOf } from '../files/lockfile-location.js';
import { readSourceFile } from '../files/read-file.js';
import { contentDigest } from '../files/write-file.js';
import type { LockFollowing } from '../operations/follow-lock.js';
import { readLockfileText } from '../operations/read-lockfile.js';
import type { SourceText } from '../yaml/source.js';

/** The lockfile flags every command that reads one takes. */
export interface LockfileFlags {
  /** `--lockfile FILE`, or false for `--no-lockfile`. */
  lockfile?: string | false;
}

/** A command's lockfile: where it is, and its data when one is there. */
export interface CommandLockfile {
  location: LockfileLocation | undefined;
  /** The lockfile's data; undefined when there is none (or it could not be read). */
  lock: LockData | undefined;
  /** Problems reading it, positioned in it; `fatal` when any is an error (exit 2). */
  diagnostics: Diagnostic[];
  sources: Map<string, SourceText>;
  fatal: boolean;
  /** The SHA-256 of the lockfile's bytes when they were read (so a write can tell they are unchanged); undefined when none were. */
  readDigest?: string;
}

/**
 * Finds and reads the lockfile of a command (DESIGN §11 "Where the lockfile is"). `config` is
 * the `.kurel.yaml` in use, when there is one. A lockfile named by a flag or the config must
 * exist unless `mayBeMissing` (`kurel lock` writes it); a default location is used only when a
 * file is there. A malformed lockfile is positioned diagnostics in it, and fatal.
 */
export function readCommandLockfile(
  flags: LockfileFlags,
  cwd: string,
  options: { config?: { file: string; lockfile?: string | undefined } | undefined; mayBeMissing?: boolean } = {},
): CommandLockfile {
  const location = locateLockfile({ flag: flags.lockfile, config: options.config, cwd });
  const none: CommandLockfile = { location, lock: undefined, diagnostics: [], sources: new Map(), fatal: false };
  if (!location) return none;
  if (!location.exists) {
    if (!location.named || options.mayBeMissing) return none;
    return { ...none, diagnostics: [fileDiagnostic(location.display, 'io-error', `cannot read ${location.display}: no such file`)], fatal: true };
  }
  const read = readSourceFile(location.path, location.display);
  if (!read.ok) return { ...none, diagnostics: [read.diagnostic], fatal: true };
  const reading = readLockfileText(location.display, read.bytes);
  const fatal = reading.diagnostics.some((d) => d.severity === 'error');
  const sources = new Map([[location.display, reading.source]]);
  return { location, lock: reading.lock, diagnostics: reading.diagnostics, sources, fatal, readDigest: contentDigest(read.bytes) };
}

/**
 * How a run follows its lockfile: profile files keyed relative to the lockfile's folder;
 * standard input without `--stdin-filepath` has no key (it resolves as if unlocked).
 */
export function lockFollowing(
  lockfile: CommandLockfile,
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
