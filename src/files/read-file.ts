import { readFileSync, statSync } from 'node:fs';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import { LIMITS } from '../core/limits.js';

const FILE_ERRORS: Readonly<Record<string, string>> = { ENOENT: 'no such file', EACCES: 'permission denied', ELOOP: 'a symbolic link loop' };

/** A file's bytes, or why they could not be read. */
export type ReadResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; diagnostic: Diagnostic /** true when the path itself cannot be read (exit 2) */; unreadable: boolean };

/**
 * Reads a file within the size limit; never throws. Reads synchronously: a run reads many
 * small files, and awaiting each one on the thread pool left a 1,000-file load idle a third
 * of its time.
 */
export function readSourceFile(path: string, display: string = path): ReadResult {
  try {
    const info = statSync(path);
    if (info.isDirectory()) {
      return { ok: false, unreadable: true, diagnostic: fileDiagnostic(display, 'io-error', `${display} is a directory, expected a file`) };
    }
    if (info.size > LIMITS.maxFileBytes) {
      return {
        ok: false,
        unreadable: false,
        diagnostic: fileDiagnostic(display, 'file-too-large', `file is ${info.size} bytes; the limit is ${LIMITS.maxFileBytes} bytes (16 MiB)`),
      };
    }
    return { ok: true, bytes: readFileSync(path) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    const reason = FILE_ERRORS[code] ?? code;
    return { ok: false, unreadable: true, diagnostic: fileDiagnostic(display, 'io-error', `cannot read ${display}: ${reason}`) };
  }
}
