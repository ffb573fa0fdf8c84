import { closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file atomically: a temporary file in the same folder, then a rename, so a reader
 * never sees half a file. Throws the file system's error when it cannot.
 */
export function writeFileAtomically(path: string, text: string): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}

/** One file to rewrite: its path as given and its new content. */
export interface FileRewrite {
  readonly path: string;
  readonly content: string | Uint8Array;
}

/**
 * Rewrites existing files so that each is replaced atomically and, as far as a file system
 * allows, all of them or none: every new content is written to a temporary file beside its
 * target and flushed to disk before the first rename. A path that is a symbolic link is written
 * through to the file it names; each file keeps its mode. When writing any temporary file
 * fails, every temporary file is removed and nothing is replaced. Throws the file system's error.
 */
export function rewriteFilesAtomically(files: readonly FileRewrite[]): void {
  const staged: { temporary: string; target: string }[] = [];
  const discard = () => {
    for (const { temporary } of staged) rmSync(temporary, { force: true });
  };
  try {
    for (const file of files) {
      const target = realpathSync(file.path);
      const mode = statSync(target).mode & 0o7777;
      const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${staged.length}.tmp`);
      const descriptor = openSync(temporary, 'wx', mode);
      staged.push({ temporary, target });
      try {
        const bytes = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
        for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written, bytes.length - written);
        // The process's umask may have narrowed the mode given to open.
        fchmodSync(descriptor, mode);
        fsyncSync(descriptor);
      } finally {
        closeSync(descriptor);
      }
    }
  } catch (err) {
    discard();
    throw err;
  }
  try {
    for (const { temporary, target } of staged) renameSync(temporary, target);
  } catch (err) {
    discard();
    throw err;
  }
}
