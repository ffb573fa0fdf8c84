import { type CatalogueSources, loadDefinitionFiles, loadHandlers } from '../catalogue/load-catalogue.js';
import { hasErrors } from '../core/diagnostics.js';
import type { RunnerLoader } from './service-state.js';
import { inProcessRunner } from './work/in-process.js';

/**
 * Loads the plugins once (throws `RegistryError` when one fails the startup assertion) and
 * returns a loader that builds a fresh catalogue from the definition folders at every call,
 * judged on the calling thread (for embedding and tests; `kurel serve` loads a worker pool).
 * A load with any error (an unreadable folder, a file that is not YAML, a conflict) is refused.
 */
export async function prepareCatalogueLoader(sources: CatalogueSources): Promise<RunnerLoader> {
  const handlers = await loadHandlers(sources.plugins ?? [], sources.cwd);
  return async () => {
    const load = await loadDefinitionFiles(handlers, sources);
    if (load.fatal || hasErrors(load.diagnostics)) return { ok: false, diagnostics: load.diagnostics };
    return { ok: true, runner: inProcessRunner(load.catalogue), diagnostics: load.diagnostics };
  };
}
