import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  linkSync,
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
import { compareBytes } from '../core/data.js';
import { sha256Hex } from '../core/sha256.js';
import { TEMPORARY_PREFIX } from './temporary-names.js';

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
export type ReplaceOutcome = (
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
    }
) & {
  /** Things named like kurel's temporary files that were left alone, or could not be removed; present only when there are some. */
  readonly notes?: readonly LeftoverNote[];
};

/** A name beside a target that looks like a leftover of kurel's but was left where it is, and why. */
export interface LeftoverNote {
  /** The path, as the folder of the target it was found beside names it. */
  readonly path: string;
  readonly message: string;
}

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
  /** Called once every target is locked, just before the first is compared. */
  locked?(): void;
  /** How long to wait for another kurel run's lock on a target before refusing; {@link LOCK_WAIT_MS} by default. */
  lockWaitMs?: number;
}

/** How long a write waits for another kurel run that is replacing the same file (docs/migrate.md, "Writing files"). */
export const LOCK_WAIT_MS = 10_000;

interface Staged {
  readonly replacement: FileReplacement;
  /** The file the path resolves to (through symbolic links). */
  readonly target: string;
  /** The target's folder as messages name it. */
  readonly shownFolder: string;
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
 * read, just before it is replaced by a rename; from the first compare to the last rename the
 * run holds a lock beside each target, so a second kurel run cannot compare a file in between
 * (it waits, then compares and refuses what changed). A path that is a symbolic link is written
 * through to the file it names. A file with more than one hard link is refused (a rename would
 * split the links). When a file changed since it was read, or a rename fails, every file already
 * replaced gets its old content back. Temporary files never outlive the call, and leftovers of a
 * killed run (their process gone) beside the targets are removed first, those that are not
 * regular files left alone and named in `notes`. SIGINT, SIGTERM and SIGHUP wait until the call
 * is over. Never throws for a file system error.
 */
export function replaceFiles(files: readonly FileReplacement[], seams: ReplaceSeams = {}): ReplaceOutcome {
  return withSignalsHeld(() => replaceHeld(files, seams));
}

function replaceHeld(files: readonly FileReplacement[], seams: ReplaceSeams): ReplaceOutcome {
  const rename = seams.rename ?? renameSync;
  const staged: Staged[] = [];
  const notes: LeftoverNote[] = [];
  const held: string[] = [];
  const failed = (file: string, err: unknown, unrestored: readonly Unrestored[] = []): ReplaceOutcome => ({
    ok: false,
    kind: 'failed',
    file,
    reason: typeof err === 'string' ? err : describeFileError(err),
    unrestored,
    notWritten: files.map((f) => f.file).filter((f) => !unrestored.some((u) => u.file === f)),
  });
  const noted = (outcome: ReplaceOutcome): ReplaceOutcome => (notes.length > 0 ? { ...outcome, notes } : outcome);
  try {
    const folders = new Set<string>();
    for (const replacement of files) {
      let target: string;
      let info: Stats | undefined;
      try {
        target = targetOf(resolve(replacement.path));
        info = statOrNone(target);
      } catch (err) {
        return noted(failed(replacement.file, err));
      }
      if (info && info.nlink > 1)
        return noted(failed(replacement.file, `it has ${info.nlink} hard links, and replacing it would split them; give it one name and run again`));
      const shownFolder = shownFolderOf(replacement, target);
      if (!folders.has(dirname(target))) {
        folders.add(dirname(target));
        for (const note of removeLeftovers(dirname(target), shownFolder)) notes.push(note);
      }
      const temporary = join(dirname(target), `${TEMPORARY_PREFIX}${process.pid}-${nextNumber()}-${basename(target).slice(0, 64)}`);
      const entry: Staged = {
        replacement,
        target,
        shownFolder,
        temporary,
        mode: info ? info.mode & 0o7777 : undefined,
        owner: info ? { uid: info.uid, gid: info.gid } : undefined,
      };
      try {
        writeTemporary(temporary, replacement.content, entry.mode, entry.owner, () => staged.push(entry));
      } catch (err) {
        return noted(failed(replacement.file, err));
      }
    }
    // Every target is locked, in one order, before any is compared: a second kurel run cannot
    // compare a file between this run's compare and its rename.
    const byTarget = new Map(staged.map((entry) => [entry.target, entry]));
    for (const [target, entry] of [...byTarget].sort(([a], [b]) => compareBytes(a, b))) {
      const taken = takeLock(target, entry.shownFolder, seams.lockWaitMs ?? LOCK_WAIT_MS);
      if (!taken.ok) return noted(failed(entry.replacement.file, taken.reason));
      held.push(taken.lock);
    }
    seams.locked?.();
    return noted(renameAll(staged, rename, failed, seams));
  } finally {
    for (const { temporary } of staged) rmSync(temporary, { force: true });
    for (const lock of held) rmSync(lock, { force: true });
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

/** The folder of a target as messages name it: as the file was named, unless a link leads elsewhere. */
function shownFolderOf(replacement: FileReplacement, target: string): string {
  return dirname(resolve(replacement.path)) === dirname(target) ? dirname(replacement.file) : dirname(target);
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

/** The prefix of the lock a run holds on a file while it compares and replaces it. */
const LOCK_PREFIX = `${TEMPORARY_PREFIX}lock-`;

let numbered = 0;
/** A number for this process's next temporary name: never the same twice in a process. */
function nextNumber(): number {
  numbered += 1;
  return numbered;
}

/**
 * Removes what kurel runs that were killed left in a folder (docs/migrate.md, "Writing files"):
 * their temporary files and locks, once their process is gone. Only regular files are removed;
 * anything else with such a name (a folder, a link), and a leftover that cannot be removed, is
 * left where it is and named in the notes returned. A folder that cannot be read is left alone.
 */
export function removeLeftovers(folder: string, shownFolder: string = folder): LeftoverNote[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const notes: LeftoverNote[] = [];
  for (const name of names) {
    const at = join(folder, name);
    const path = join(shownFolder, name);
    if (name.startsWith(LOCK_PREFIX)) {
      const holder = lockHolder(at);
      if (holder.kind === 'stranger') notes.push({ path, message: `left ${path} alone: ${holder.what}, not a lock kurel wrote` });
      else if (holder.kind === 'held' && !isAlive(holder.pid)) breakStaleLock(at, holder.ino);
      continue;
    }
    const pid = LEFTOVER.exec(name)?.[1];
    if (pid === undefined || isAlive(Number(pid))) continue;
    let info: Stats;
    try {
      info = lstatSync(at);
    } catch {
      continue;
    }
    if (!info.isFile()) {
      notes.push({ path, message: `left ${path} alone: ${describeEntry(info)}, not a temporary file kurel wrote` });
      continue;
    }
    try {
      rmSync(at, { force: true });
    } catch (err) {
      notes.push({ path, message: `cannot remove ${path}, a temporary file of a kurel run that was stopped: ${describeFileError(err)}` });
    }
  }
  return notes;
}

/** What a name that is not a regular file is, for a note: `a folder`. */
function describeEntry(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  return 'a special file';
}

/** Where the lock of a file is: beside it, named after it (hashed when the name is long). */
function lockOf(target: string): string {
  const name = basename(target);
  return join(dirname(target), `${LOCK_PREFIX}${Buffer.byteLength(name) <= 200 ? name : sha256Hex(name).slice(0, 32)}`);
}

type LockHolder =
  | { kind: 'free' }
  | { kind: 'held'; pid: number; ino: number }
  /** Something else has the lock's name: a folder, or a file that does not hold a process id. */
  | { kind: 'stranger'; what: string };

// A lock is made whole (written, then linked to its name), so its content is never half there.
function lockHolder(lock: string): LockHolder {
  try {
    const info = lstatSync(lock);
    if (!info.isFile()) return { kind: 'stranger', what: describeEntry(info) };
    const text = readFileSync(lock, 'utf8');
    const pid = /^(\d{1,10})\n$/.exec(text)?.[1];
    return pid === undefined ? { kind: 'stranger', what: 'a file that holds no process id' } : { kind: 'held', pid: Number(pid), ino: info.ino };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'free' };
    return { kind: 'stranger', what: `a file that cannot be read (${describeFileError(err)})` };
  }
}

/**
 * Takes the lock of a file for this process: a file holding the process id, written aside and
 * linked to the lock's name, which fails while another run holds it. A lock whose process is
 * gone is broken; one held by a live run is waited for, up to `waitMs`.
 */
function takeLock(target: string, shownFolder: string, waitMs: number): { ok: true; lock: string } | { ok: false; reason: string } {
  const lock = lockOf(target);
  const shown = join(shownFolder, basename(lock));
  const claim = join(dirname(target), `${TEMPORARY_PREFIX}${process.pid}-${nextNumber()}-lock`);
  try {
    writeTemporary(claim, `${process.pid}\n`, undefined, undefined, () => {});
  } catch (err) {
    return { ok: false, reason: `its lock cannot be written: ${describeFileError(err)}` };
  }
  try {
    const until = Date.now() + waitMs;
    for (;;) {
      try {
        linkSync(claim, lock);
        return { ok: true, lock };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return { ok: false, reason: `its lock ${shown} cannot be taken: ${describeFileError(err)}` };
      }
      const holder = lockHolder(lock);
      if (holder.kind === 'stranger') return { ok: false, reason: `${shown} is in the way of its lock: ${holder.what}; remove it and run again` };
      if (holder.kind === 'held' && holder.pid !== process.pid && !isAlive(holder.pid)) {
        breakStaleLock(lock, holder.ino);
        continue;
      }
      if (holder.kind === 'free') continue;
      if (Date.now() >= until)
        return {
          ok: false,
          reason: `another kurel run (process ${holder.pid}) is writing it; run again when it is over, or remove ${shown} if no such run is left`,
        };
      pause(10);
    }
  } finally {
    rmSync(claim, { force: true });
  }
}

/**
 * Removes the lock of a run that is gone, and only that one: the lock is first moved aside, and
 * put back at once should it turn out to be another run's, taken since it was looked at.
 */
function breakStaleLock(lock: string, ino: number): void {
  const aside = join(dirname(lock), `${TEMPORARY_PREFIX}${process.pid}-${nextNumber()}-stale-lock`);
  try {
    renameSync(lock, aside);
  } catch {
    return;
  }
  try {
    if (lstatSync(aside).ino !== ino) linkSync(aside, lock);
  } catch {
    // A third run took the name meanwhile: the lock moved aside was already broken for it.
  } finally {
    rmSync(aside, { force: true });
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for a few milliseconds: a write holds no event loop turn while it waits. */
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
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
