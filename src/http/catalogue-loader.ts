import { type CatalogueSources, loadDefinitionFiles, loadHandlers } from '../catalogue/load-catalogue.js';
import { type Diagnostic, fileDiagnostic, hasErrors } from '../core/diagnostics.js';
import type { LockfileLocation } from '../files/lockfile-location.js';
import { readSourceFile } from '../files/read-file.js';
import { lockCatalogue } from '../operations/follow-lock.js';
import { readLockfileText } from '../operations/read-lockfile.js';
import type { CatalogueLoader } from './service-state.js';

/** What a service's catalogue is loaded from: plugins, definition folders, and the lockfile it serves, if any. */
export interface ServiceSources extends CatalogueSources {
  /** The lockfile (`--lockfile`, or the config's), read again at every load. */
  lockfile?: Pick<LockfileLocation, 'path' | 'display'> | undefined;
}

/**
 * Loads the plugins once (throws `RegistryError` when one fails the startup assertion) and
 * returns a loader that builds a fresh catalogue from the definition folders at every call.
 * A load with any error (an unreadable folder, a file that is not YAML, a conflict) is refused;
 * so is one whose definitions differ from its lockfile or lack a locked version (DESIGN §11).
 */
export async function prepareCatalogueLoader(sources: ServiceSources): Promise<CatalogueLoader> {
  const handlers = await loadHandlers(sources.plugins ?? [], sources.cwd);
  return async () => {
    const load = await loadDefinitionFiles(handlers, sources);
    if (load.fatal || hasErrors(load.diagnostics)) return { ok: false, diagnostics: load.diagnostics };
    if (!sources.lockfile) return { ok: true, catalogue: load.catalogue, diagnostics: load.diagnostics };
    const read = readSourceFile(sources.lockfile.path, sources.lockfile.display);
    if (!read.ok) return { ok: false, diagnostics: [read.diagnostic] };
    const reading = readLockfileText(sources.lockfile.display, read.bytes);
    if (!reading.lock || !reading.document)
      return { ok: false, diagnostics: reading.diagnostics.length > 0 ? reading.diagnostics : [unreadable(sources.lockfile.display)] };
    const locked = lockCatalogue(load.catalogue, reading.lock, { display: sources.lockfile.display, document: reading.document });
    if (!locked.ok) return { ok: false, diagnostics: locked.diagnostics };
    return { ok: true, catalogue: locked.catalogue, diagnostics: load.diagnostics };
  };
}

function unreadable(file: string): Diagnostic {
  return fileDiagnostic(file, 'io-error', `cannot read ${file} as a CapabilityLock`);
}
