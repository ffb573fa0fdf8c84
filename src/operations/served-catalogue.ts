import { type AssemblySources, assembleCatalogue } from '../catalogue/assemble-catalogue.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import { readLockfileText } from '../documents/read-lockfile.js';
import { lockCatalogue } from './follow-lock.js';

/** The lockfile a service serves, as read at a (re)load: its bytes, and its name in messages. */
export interface ServedLockfile {
  display: string;
  content: Uint8Array;
}

/** The catalogue a service serves, or why it serves none. */
export type ServedCatalogue =
  | { ok: true; catalogue: Catalogue; diagnostics: Diagnostic[] }
  | {
      ok: false;
      diagnostics: Diagnostic[];
      /** What was built before the refusal (reported as the registry the load saw); undefined when the start was refused. */
      catalogue: Catalogue | undefined;
    };

/**
 * The catalogue a service serves (docs/versions.md "The service"): the one assembler's catalogue, then, with a
 * lockfile, only the locked versions of the locked names. Any error in the definitions, a
 * lockfile that is not a sound CapabilityLock, a definition whose digest differs from the lock,
 * or a locked version no longer loaded refuses it. The main thread, each worker and embedding
 * all call this with the same sources, so each serves the same catalogue.
 */
export async function assembleServedCatalogue(sources: Omit<AssemblySources, 'lockfile'>, lockfile?: ServedLockfile): Promise<ServedCatalogue> {
  const assembly = await assembleCatalogue(sources);
  if (!assembly.ok) return { ok: false, diagnostics: assembly.refusal.diagnostics, catalogue: assembly.refusal.catalogue };
  if (!lockfile) return { ok: true, catalogue: assembly.catalogue, diagnostics: assembly.diagnostics };
  const reading = readLockfileText(lockfile.display, lockfile.content);
  if (!reading.lock || !reading.document) {
    const diagnostics = reading.diagnostics.length > 0 ? reading.diagnostics : [unreadable(lockfile.display)];
    return { ok: false, diagnostics, catalogue: assembly.catalogue };
  }
  const locked = lockCatalogue(assembly.catalogue, reading.lock, { display: lockfile.display, document: reading.document });
  if (!locked.ok) return { ok: false, diagnostics: locked.diagnostics, catalogue: assembly.catalogue };
  return { ok: true, catalogue: locked.catalogue, diagnostics: assembly.diagnostics };
}

function unreadable(file: string): Diagnostic {
  return fileDiagnostic(file, 'io-error', `cannot read ${file} as a CapabilityLock`);
}
