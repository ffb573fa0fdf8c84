import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import { LIMITS } from '../core/input-limits.js';

// Where reads past a file's announced size land; most files have nothing there.
const scratch = Buffer.allocUnsafeSlow(64 * 1024);

const FILE_ERRORS: Readonly<Record<string, string>> = { ENOENT: 'no such file', EACCES: 'permission denied', ELOOP: 'a symbolic link loop' };

/** A file's bytes, or why they could not be read. */
export type ReadResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; diagnostic: Diagnostic /** true when the path itself cannot be read (exit 2) */; unreadable: boolean };

/**
 * Reads a regular file within the size limit; never throws. A device, FIFO or socket is an
 * `io-error` and never read (docs/profiles.md): the file is opened without blocking, so a FIFO with no
 * writer cannot stall the run, and what it is is asked of the open file, so it cannot be
 * swapped after the question. At most the size it had when opened is read (a file reporting
 * none, up to the limit, past which it is `file-too-large`). Reads synchronously: a run reads many small files, and awaiting each
 * one on the thread pool left a 1,000-file load idle a third of its time.
 */
export function readSourceFile(path: string, display: string = path): ReadResult {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (info.isDirectory()) {
      return { ok: false, unreadable: true, diagnostic: fileDiagnostic(display, 'io-error', `${display} is a directory, expected a file`) };
    }
    if (!info.isFile()) {
      return {
        ok: false,
        unreadable: true,
        diagnostic: fileDiagnostic(display, 'io-error', `cannot read ${display}: ${describeSpecialFile(info)}, not a regular file`),
      };
    }
    if (info.size > LIMITS.maxFileBytes) return tooLarge(display, `file is ${info.size} bytes`);
    const bytes = readUpTo(fd, info.size, LIMITS.maxFileBytes + 1);
    return bytes.length > LIMITS.maxFileBytes ? tooLarge(display, `file is over ${LIMITS.maxFileBytes} bytes`) : { ok: true, bytes };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'EISDIR')
      return { ok: false, unreadable: true, diagnostic: fileDiagnostic(display, 'io-error', `${display} is a directory, expected a file`) };
    // A socket cannot even be opened (ENXIO); say what it is rather than how opening it failed.
    const special = FILE_ERRORS[code] === undefined ? specialFileAt(path) : undefined;
    const reason = special ? `${special}, not a regular file` : (FILE_ERRORS[code] ?? code);
    return { ok: false, unreadable: true, diagnostic: fileDiagnostic(display, 'io-error', `cannot read ${display}: ${reason}`) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What a file that is not a regular file or a directory is, for messages: `a FIFO (named pipe)`. */
export function describeSpecialFile(info: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'a special file';
}

function specialFileAt(path: string): string | undefined {
  try {
    const info = statSync(path);
    return info.isFile() || info.isDirectory() ? undefined : describeSpecialFile(info);
  } catch {
    return undefined;
  }
}

function tooLarge(display: string, found: string): ReadResult {
  return {
    ok: false,
    unreadable: false,
    diagnostic: fileDiagnostic(display, 'file-too-large', `${found}; the limit is ${LIMITS.maxFileBytes} bytes (16 MiB)`),
  };
}

// Reads the size the file had when opened, or, for a file that reports no size (procfs and
// the like), until its end or `most` bytes, whichever comes first. A file that grows while it
// is read is read as it was when opened.
function readUpTo(fd: number, expected: number, most: number): Uint8Array {
  const exact = Buffer.allocUnsafeSlow(expected);
  let length = 0;
  while (length < expected) {
    const read = readSync(fd, exact, length, expected - length, null);
    if (read === 0) return exact.subarray(0, length);
    length += read;
  }
  if (expected > 0) return exact;
  const chunks: Buffer[] = [exact];
  while (length < most) {
    const read = readSync(fd, scratch, 0, Math.min(scratch.length, most - length), null);
    if (read === 0) break;
    chunks.push(Buffer.from(scratch.subarray(0, read)));
    length += read;
  }
  return chunks.length === 1 ? exact : Buffer.concat(chunks, length);
}
