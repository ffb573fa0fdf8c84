import { type CatalogueSources, loadDefinitionFiles, loadHandlers } from '../catalogue/load-catalogue.js';
import { hasErrors } from '../core/diagnostics.js';
import type { LockfileLocation } from '../files/lockfile-location.js';
import { readSourceFile } from '../files/read-file.js';
import type { RunnerLoader } from './service-state.js';
import { followLockfile } from './work/follow-lockfile.js';
import { inProcessRunner } from './work/in-process.js';

/** What a service's catalogue is loaded from: plugins, definition folders, and the lockfile it serves, if any. */
export interface ServiceSources extends CatalogueSources {
  /** The lockfile (`--lockfile`), read again at every load. */
  lockfile?: Pick<LockfileLocation, 'path' | 'display'> | undefined;
}

/**
 * Loads the plugins once (throws `RegistryError` when one fails the startup assertion) and
 * returns a loader that builds a fresh catalogue from the definition folders at every call,
 * judged on the calling thread (for embedding and tests; `kurel serve` loads a worker pool).
 * A load with any error (an unreadable folder, a file that is not YAML, a conflict) is refused;
 * so is one whose definitions differ from its lockfile or lack a locked version (DESIGN §11).
 */
export async function prepareCatalogueLoader(sources: ServiceSources): Promise<RunnerLoader> {
  const handlers = await loadHandlers(sources.plugins ?? [], sources.cwd);
  return async () => {
    const load = await loadDefinitionFiles(handlers, sources);
    if (load.fatal || hasErrors(load.diagnostics)) return { ok: false, diagnostics: load.diagnostics };
    if (!sources.lockfile) return { ok: true, runner: inProcessRunner(load.catalogue), diagnostics: load.diagnostics };
    const read = readSourceFile(sources.lockfile.path, sources.lockfile.display);
    if (!read.ok) return { ok: false, diagnostics: [read.diagnostic] };
    const locked = followLockfile(load.catalogue, { display: sources.lockfile.display, content: read.bytes });
    if (!locked.ok) return { ok: false, diagnostics: locked.diagnostics };
    return { ok: true, runner: inProcessRunner(locked.catalogue), diagnostics: load.diagnostics };
  };
}
