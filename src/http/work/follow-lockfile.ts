import type { Catalogue } from '../../catalogue/catalogue.js';
import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import { type LockedCatalogue, lockCatalogue } from '../../operations/follow-lock.js';
import { readLockfileText } from '../../operations/read-lockfile.js';

/** The lockfile a service serves, as the main thread read it at a (re)load: its bytes and its name in messages. */
export interface LockfileText {
  display: string;
  content: Uint8Array;
}

/**
 * The catalogue a service serves under its lockfile (DESIGN §11): only the locked versions of
 * the locked names. A lockfile that is not a sound CapabilityLock, a loaded definition whose
 * digest differs from the lock, or a locked version no longer loaded refuses the catalogue. The
 * same function runs in every worker and, for embedding and tests, on the calling thread.
 */
export function followLockfile(catalogue: Catalogue, lockfile: LockfileText): LockedCatalogue {
  const reading = readLockfileText(lockfile.display, lockfile.content);
  if (!reading.lock || !reading.document) {
    return { ok: false, diagnostics: reading.diagnostics.length > 0 ? reading.diagnostics : [unreadable(lockfile.display)] };
  }
  return lockCatalogue(catalogue, reading.lock, { display: lockfile.display, document: reading.document });
}

function unreadable(file: string): Diagnostic {
  return fileDiagnostic(file, 'io-error', `cannot read ${file} as a CapabilityLock`);
}
