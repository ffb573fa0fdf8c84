import { gatherInputs } from '../files/gather-inputs.js';
import { createRegistry } from '../catalogue/create-registry.js';
import { loadPlugins } from '../catalogue/load-plugins.js';
import { lintInputs } from '../operations/lint.js';
import type { RegistryLoader } from './service-state.js';

/** Where a service's capabilities come from. */
export interface RegistrySources {
  /** Folders searched recursively for CapabilityDefinition files, as they are shown in diagnostics. */
  definitionDirs: readonly string[];
  /** Handler plugins: paths (relative to `cwd`) or package names. */
  plugins: readonly string[];
  cwd: string;
}

/**
 * Loads the plugins once (throws `RegistryError` when one fails the startup assertion) and
 * returns a loader that builds a fresh registry from the definition folders at every call.
 * A load with any error (an unreadable folder, a file that is not YAML, a conflict) is refused.
 */
export async function prepareRegistryLoader(sources: RegistrySources): Promise<RegistryLoader> {
  const base = createRegistry();
  await loadPlugins(sources.plugins, base, sources.cwd);
  return async () => {
    const gathered = await gatherInputs({ definitionDirs: sources.definitionDirs });
    const candidate = base.fork();
    const report = lintInputs(gathered.inputs, candidate);
    const diagnostics = [...gathered.diagnostics, ...report.diagnostics];
    if (gathered.fatal || diagnostics.some((d) => d.severity === 'error')) return { ok: false, diagnostics };
    return { ok: true, registry: candidate, diagnostics };
  };
}
