import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { sha256Hex } from '../core/sha256.js';

/** The prefix of every temporary file kurel writes beside a file it replaces (README "Writing files"). */
export const TEMPORARY_PREFIX = '.kurel-tmp-';

/** The SHA-256 of a file's bytes as read, to tell later whether the file still holds them. */
export function contentDigest(content: string | Uint8Array): string {
  return sha256Hex(content);
}

/** One file to replace: where it is, what it held when read, and its new content. */
export interface FileReplacement {
  /** The file as messages name it. */
  readonly file: string;
  /** Where it is: absolute, or relative to the process's folder. */
  readonly path: string;
  /** {@link contentDigest} of the bytes read, or null when there was no file to read (it is created). */
  readonly readDigest: string | null;
  readonly content: string | Uint8Array;
}

/** What became of a replacement of several files; on any failure nothing is left changed but what `unrestored` names. */
export type ReplaceOutcome =
  | { readonly ok: true }
  /** Files whose content is no longer what was read: nothing was written (the files replaced first were restored). */
  | { readonly ok: false; readonly kind: 'changed'; readonly files: readonly string[]; readonly unrestored: readonly Unrestored[] }
  /** A file could not be written: nothing else was changed, but what `unrestored` names. */
  | {
      readonly ok: false;
      readonly kind: 'failed';
      readonly file: string;
      readonly reason: string;
      readonly unrestored: readonly Unrestored[];
      /** Every file given, but those in `unrestored`, in the order given. */
      readonly notWritten: readonly string[];
    };

/** A file that was replaced and could not be given its old content back. */
export interface Unrestored {
  readonly file: string;
  readonly reason: string;
}

/** The file system calls a replacement makes that tests may stand in for, to fail or race one. */
export interface ReplaceSeams {
  /** Called just before a file's content is compared with what was read. */
  beforeCheck?(file: FileReplacement): void;
  /** Renames a temporary file over its target; `renameSync` by default. */
  rename?(from: string, to: string): void;
}

interface Staged {
  readonly replacement: FileReplacement;
  /** The file the path resolves to (through symbolic links). */
  readonly target: string;
  readonly temporary: string;
  /** The bytes the target held just before it was replaced, for a rollback; undefined while not replaced. */
  before?: Uint8Array | null;
  /** The target's mode and owner, for a restored file. */
  readonly mode: number | undefined;
  readonly owner: { uid: number; gid: number } | undefined;
}

const ERROR_WORDS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOENT: 'no such file or folder',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'a symbolic link loop',
  EBUSY: 'the file is busy',
  EXDEV: 'on another file system',
};

/** A file system error in words, with its code: `permission denied (EACCES)`. */
export function describeFileError(err: unknown): string {
  const { code, message } = err as NodeJS.ErrnoException;
  if (code === undefined) return String(message ?? err);
  const words = ERROR_WORDS[code];
  return words ? `${words} (${code})` : code;
}

/**
 * Replaces files all together or not at all, never losing an edit made since they were read
 * (README "Writing files"). Each new content goes to a temporary file beside its target (named
 * with {@link TEMPORARY_PREFIX}, the process id and a counter), given the target's mode, owner
 * and group and flushed to disk; only then is each target compared with the digest of what was
 * read, just before it is replaced by a rename. A path that is a symbolic link is written
 * through to the file it names. A file with more than one hard link is refused (a rename would
 * split the links). When a file changed since it was read, or a rename fails, every file already
 * replaced gets its old content back. Temporary files never outlive the call, and leftovers of a
 * killed run (their process gone) beside the targets are removed first. SIGINT, SIGTERM and
 * SIGHUP wait until the call is over. Never throws for a file system error.
 */
export function replaceFiles(files: readonly FileReplacement[], seams: ReplaceSeams = {}): ReplaceOutcome {
  return withSignalsHeld(() => replaceHeld(files, seams));
}

function replaceHeld(files: readonly FileReplacement[], seams: ReplaceSeams): ReplaceOutcome {
  const rename = seams.rename ?? renameSync;
  const staged: Staged[] = [];
  const failed = (file: string, err: unknown, unrestored: readonly Unrestored[] = []): ReplaceOutcome => ({
    ok: false,
    kind: 'failed',
    file,
    reason: typeof err === 'string' ? err : describeFileError(err),
    unrestored,
    notWritten: files.map((f) => f.file).filter((f) => !unrestored.some((u) => u.file === f)),
  });
  try {
    const folders = new Set<string>();
    for (const replacement of files) {
      let target: string;
      let info: Stats | undefined;
      try {
        target = targetOf(resolve(replacement.path));
        info = statOrNone(target);
      } catch (err) {
        return failed(replacement.file, err);
      }
      if (info && info.nlink > 1)
        return failed(replacement.file, `it has ${info.nlink} hard links, and replacing it would split them; give it one name and run again`);
      if (!folders.has(dirname(target))) {
        folders.add(dirname(target));
        removeLeftovers(dirname(target));
      }
      const temporary = join(dirname(target), `${TEMPORARY_PREFIX}${process.pid}-${staged.length}-${basename(target).slice(0, 64)}`);
      const entry: Staged = {
        replacement,
        target,
        temporary,
        mode: info ? info.mode & 0o7777 : undefined,
        owner: info ? { uid: info.uid, gid: info.gid } : undefined,
      };
      try {
        writeTemporary(temporary, replacement.content, entry.mode, entry.owner, () => staged.push(entry));
      } catch (err) {
        return failed(replacement.file, err);
      }
    }
    return renameAll(staged, rename, failed, seams);
  } finally {
    for (const { temporary } of staged) rmSync(temporary, { force: true });
  }
}

function renameAll(
  staged: Staged[],
  rename: (from: string, to: string) => void,
  failed: (file: string, err: unknown, unrestored?: readonly Unrestored[]) => ReplaceOutcome,
  seams: ReplaceSeams,
): ReplaceOutcome {
  const changed: string[] = [];
  for (const entry of staged) {
    seams.beforeCheck?.(entry.replacement);
    let current: Uint8Array | null;
    try {
      current = bytesOrNone(entry.target);
    } catch (err) {
      return failed(entry.replacement.file, err, rollBack(staged, rename));
    }
    if ((current === null ? null : contentDigest(current)) !== entry.replacement.readDigest) {
      changed.push(entry.replacement.file);
      continue;
    }
    // Once one file changed, the rest are only checked: none of them will be written.
    if (changed.length > 0) continue;
    try {
      rename(entry.temporary, entry.target);
      entry.before = current;
    } catch (err) {
      return failed(entry.replacement.file, err, rollBack(staged, rename));
    }
  }
  if (changed.length > 0) return { ok: false, kind: 'changed', files: changed, unrestored: rollBack(staged, rename) };
  for (const folder of new Set(staged.map((entry) => dirname(entry.target)))) syncFolder(folder);
  return { ok: true };
}

/** Flushes a folder's entries, so the renames outlast a power cut; a file system that cannot is left as it is. */
function syncFolder(folder: string): void {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(folder, 'r');
    fsyncSync(descriptor);
  } catch {
    // Some file systems refuse to open or flush a folder; the renames are done all the same.
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** Gives every replaced file its old content back, newest first; returns those it could not. */
function rollBack(staged: readonly Staged[], rename: (from: string, to: string) => void): Unrestored[] {
  const unrestored: Unrestored[] = [];
  for (const entry of [...staged].reverse()) {
    if (entry.before === undefined) continue;
    try {
      if (entry.before === null) rmSync(entry.target, { force: true });
      else writeTemporary(entry.temporary, entry.before, entry.mode, entry.owner, () => {});
      if (entry.before !== null) rename(entry.temporary, entry.target);
      entry.before = undefined;
    } catch (err) {
      unrestored.push({ file: entry.replacement.file, reason: describeFileError(err) });
    }
  }
  return unrestored.reverse();
}

function writeTemporary(
  temporary: string,
  content: string | Uint8Array,
  mode: number | undefined,
  owner: { uid: number; gid: number } | undefined,
  created: () => void,
): void {
  // A new file gets the process's umask, as any editor's would; a replaced one its target's mode.
  const descriptor = openSync(temporary, 'wx', mode ?? 0o666);
  created();
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written, bytes.length - written);
    if (owner && (owner.uid !== process.getuid?.() || owner.gid !== process.getgid?.())) {
      try {
        fchownSync(descriptor, owner.uid, owner.gid);
      } catch (err) {
        throw new Error(`its owner and group (${owner.uid}:${owner.gid}) cannot be kept: ${describeFileError(err)}`);
      }
    }
    // The umask may have narrowed the mode given to open, and a change of owner clears set-id bits.
    if (mode !== undefined) fchmodSync(descriptor, mode);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** The file a path names, through symbolic links, also when the last link names a file not there yet. */
function targetOf(path: string): string {
  for (let hops = 0; hops < 40; hops += 1) {
    try {
      return realpathSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    let link: string;
    try {
      if (!lstatSync(path).isSymbolicLink()) return path;
      link = readlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return join(realpathSync(dirname(path)), basename(path));
      throw err;
    }
    path = resolve(dirname(path), link);
  }
  throw Object.assign(new Error('a symbolic link loop'), { code: 'ELOOP' });
}

function statOrNone(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function bytesOrNone(path: string): Uint8Array | null {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

const LEFTOVER = /^\.kurel-tmp-(\d+)-\d+-/;

/**
 * Removes the temporary files of kurel runs that were killed before they could (their process
 * is gone) from a folder; a folder that cannot be read is left alone.
 */
export function removeLeftovers(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = LEFTOVER.exec(name)?.[1];
    if (pid === undefined || isAlive(Number(pid))) continue;
    rmSync(join(folder, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists and belongs to someone else.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const HELD_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `work` with SIGINT, SIGTERM and SIGHUP held: one that arrives meanwhile is raised again
 * when it is over, so a stopped run still leaves no temporary file and no half-done set.
 */
function withSignalsHeld<T>(work: () => T): T {
  let caught: NodeJS.Signals | undefined;
  const hold = (signal: NodeJS.Signals) => {
    caught ??= signal;
  };
  const listeners = HELD_SIGNALS.map((signal) => [signal, () => hold(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  try {
    return work();
  } finally {
    // A signal that came during the work is delivered once the event loop turns; let it reach `hold`.
    setImmediate(() => {
      for (const [signal, listener] of listeners) process.off(signal, listener);
      if (caught !== undefined && process.listenerCount(caught) === 0) process.kill(process.pid, caught);
    });
  }
}

/** At most this many names in a message; the rest are counted. */
const NAMED = 10;

function nameAll(files: readonly string[]): string {
  const shown = files.slice(0, NAMED).join(', ');
  return files.length > NAMED ? `${shown} and ${files.length - NAMED} more` : shown;
}

/**
 * What a failed {@link replaceFiles} means for the user, one message per file it names: the
 * file that changed or could not be written, and any file left written. `rerun` is the command
 * to run again (`kurel migrate`).
 */
export function describeReplaceFailure(outcome: Exclude<ReplaceOutcome, { ok: true }>, rerun: string): { file: string; message: string }[] {
  const messages: { file: string; message: string }[] = [];
  const left = outcome.unrestored;
  if (outcome.kind === 'changed') {
    const nothing = left.length === 0 ? 'nothing was written' : `only ${nameAll(left.map((u) => u.file))} stayed written (below)`;
    for (const file of outcome.files)
      messages.push({ file, message: `${file} changed after kurel read it, so it was not replaced; ${nothing}: run ${rerun} again` });
  } else {
    const notWritten = outcome.notWritten.filter((f) => f !== outcome.file);
    const rest =
      left.length === 0
        ? 'nothing was written'
        : `not written: ${notWritten.length > 0 ? `${nameAll(notWritten)} and ` : ''}${outcome.file}; written and not restored: ${nameAll(left.map((u) => u.file))}`;
    messages.push({ file: outcome.file, message: `cannot replace ${outcome.file}: ${outcome.reason}; ${rest}` });
  }
  for (const { file, reason } of left)
    messages.push({ file, message: `${file} was replaced and its old content could not be put back (${reason}); it holds the new content` });
  return messages;
}
