import { type CatalogueSources, loadHandlers } from '../catalogue/load-catalogue.js';
import type { LockfileLocation } from '../files/lockfile-location.js';
import { assembleServedCatalogue } from '../operations/served-catalogue.js';
import { readServedDefinitions } from '../sources/served-definitions.js';
import type { RunnerLoader } from './service-state.js';
import { inProcessRunner } from './work/in-process.js';

/** What a service's catalogue is loaded from: plugins, definition folders, and the lockfile it serves, if any. */
export interface ServiceSources extends CatalogueSources {
  /** The lockfile (`--lockfile`), read again at every load. */
  lockfile?: Pick<LockfileLocation, 'path' | 'display'> | undefined;
}

/**
 * Loads the plugins once (throws `RegistryError` when one fails the startup assertion) and
 * returns a loader that reads the definition folders and the lockfile as `kurel serve` does
 * (`readServedDefinitions`) and assembles a fresh catalogue from them at every call
 * (ARCHITECTURE.md "Catalogue assembly"), judged on the calling thread (for embedding and tests;
 * `kurel serve` loads a worker pool). A load with any error (an unreadable folder, a file that
 * is not YAML, a conflict) is refused; so is one whose definitions differ from its lockfile or
 * lack a locked version (docs/versions.md).
 */
export async function prepareCatalogueLoader(sources: ServiceSources): Promise<RunnerLoader> {
  const handlers = await loadHandlers(sources.plugins ?? [], sources.cwd);
  return async () => {
    const read = await readServedDefinitions({
      definitionFolders: (sources.definitionDirs ?? []).map((dir) => ({ path: dir, name: dir })),
      definitionFiles: sources.definitionFiles ?? [],
      cwd: sources.cwd,
      lockfile: sources.lockfile,
    });
    if (!read.ok) return { ok: false, diagnostics: read.diagnostics };
    const definitionInputs = read.definitions.map((d) => ({ file: d.file, content: d.content, origin: 'definition' as const }));
    const served = await assembleServedCatalogue({ handlers, definitionInputs, cwd: sources.cwd }, read.lockfile);
    if (!served.ok) return { ok: false, diagnostics: served.diagnostics };
    return { ok: true, runner: inProcessRunner(served.catalogue), diagnostics: [...read.diagnostics, ...served.diagnostics] };
  };
}
