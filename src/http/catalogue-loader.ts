import { type CatalogueSources, loadHandlers } from '../catalogue/load-catalogue.js';
import type { LockfileLocation } from '../files/lockfile-location.js';
import { readSourceFile } from '../files/read-file.js';
import { assembleServedCatalogue, type ServedLockfile } from '../operations/served-catalogue.js';
import type { RunnerLoader } from './service-state.js';
import { inProcessRunner } from './work/in-process.js';

/** What a service's catalogue is loaded from: plugins, definition folders, and the lockfile it serves, if any. */
export interface ServiceSources extends CatalogueSources {
  /** The lockfile (`--lockfile`), read again at every load. */
  lockfile?: Pick<LockfileLocation, 'path' | 'display'> | undefined;
}

/**
 * Loads the plugins once (throws `RegistryError` when one fails the startup assertion) and
 * returns a loader that assembles a fresh catalogue from the definition folders at every call
 * (ARCHITECTURE.md "Catalogue assembly"), judged on the calling thread (for embedding and tests;
 * `kurel serve` loads a worker pool). A load with any error (an unreadable folder, a file that
 * is not YAML, a conflict) is refused; so is one whose definitions differ from its lockfile or
 * lack a locked version (docs/versions.md).
 */
export async function prepareCatalogueLoader(sources: ServiceSources): Promise<RunnerLoader> {
  const handlers = await loadHandlers(sources.plugins ?? [], sources.cwd);
  return async () => {
    let lockfile: ServedLockfile | undefined;
    if (sources.lockfile) {
      const read = readSourceFile(sources.lockfile.path, sources.lockfile.display);
      if (!read.ok) return { ok: false, diagnostics: [read.diagnostic] };
      lockfile = { display: sources.lockfile.display, content: read.bytes };
    }
    const served = await assembleServedCatalogue(
      {
        handlers,
        ...(sources.definitionDirs ? { definitionDirs: sources.definitionDirs } : {}),
        ...(sources.definitionFiles ? { definitionFiles: sources.definitionFiles } : {}),
        cwd: sources.cwd,
      },
      lockfile,
    );
    if (!served.ok) return { ok: false, diagnostics: served.diagnostics };
    return { ok: true, runner: inProcessRunner(served.catalogue), diagnostics: served.diagnostics };
  };
}
