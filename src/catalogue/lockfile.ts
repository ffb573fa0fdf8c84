import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import type { LockData } from '../documents/capability-lock.js';
import { readLockfileText } from '../documents/read-lockfile.js';
import { type LockfileLocation, locateLockfile } from '../files/lockfile-location.js';
import { readSourceFile } from '../files/read-file.js';
import { contentDigest } from '../files/write-file.js';
import type { SourceText } from '../yaml/source.js';

/** Where a run's lockfile is looked for (README "Where the lockfile is"). */
export interface LockfileRequest {
  /** `--lockfile FILE`, or false for `--no-lockfile`; undefined looks in the config's entry, then the default place. */
  flag?: string | false | undefined;
  /** The `.kurel.yaml` in use, when there is one. */
  config?: { file: string; lockfile?: string | undefined } | undefined;
  /** A lockfile named by a flag or the config may be missing (`kurel lock` writes it). */
  mayBeMissing?: boolean;
}

/** A run's lockfile: where it is, and its data when one is there. */
export interface CatalogueLockfile {
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

/** The lockfile of a run that reads none. */
export function noLockfile(): CatalogueLockfile {
  return { location: undefined, lock: undefined, diagnostics: [], sources: new Map(), fatal: false };
}

/**
 * Finds and reads a run's lockfile. A lockfile named by a flag or the config must exist unless
 * `mayBeMissing`; a default location is used only when a file is there. A malformed lockfile is
 * positioned diagnostics in it, and fatal.
 */
export function readCatalogueLockfile(request: LockfileRequest, cwd: string): CatalogueLockfile {
  const location = locateLockfile({ flag: request.flag, config: request.config, cwd });
  const none: CatalogueLockfile = { ...noLockfile(), location };
  if (!location) return none;
  if (!location.exists) {
    if (!location.named || request.mayBeMissing) return none;
    return { ...none, diagnostics: [fileDiagnostic(location.display, 'io-error', `cannot read ${location.display}: no such file`)], fatal: true };
  }
  const read = readSourceFile(location.path, location.display);
  if (!read.ok) return { ...none, diagnostics: [read.diagnostic], fatal: true };
  const reading = readLockfileText(location.display, read.bytes);
  const fatal = reading.diagnostics.some((d) => d.severity === 'error');
  const sources = new Map([[location.display, reading.source]]);
  return { location, lock: reading.lock, diagnostics: reading.diagnostics, sources, fatal, readDigest: contentDigest(read.bytes) };
}
