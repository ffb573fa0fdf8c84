import { fileDiagnostic } from '../files/read-file.js';
import { createRegistry } from '../catalogue/create-registry.js';
import { RegistryError } from '../catalogue/errors.js';
import { loadPlugins } from '../catalogue/load-plugins.js';
import type { Registry } from '../catalogue/registry.js';
import type { Diagnostic } from '../core/diagnostics.js';

/** The built-ins plus the plugins a command line names, or the refused start (exit 2). */
export interface CommandRegistry {
  registry: Registry;
  /** True when a plugin failed the startup assertion; `diagnostic` says why. */
  refused: boolean;
  diagnostic?: Diagnostic;
}

/**
 * Creates a command's registry: built-ins, then each `--plugin` through the startup
 * assertion. A refused plugin becomes a `usage` diagnostic naming it; other failures throw.
 */
export async function createCommandRegistry(plugins: readonly string[], cwd: string): Promise<CommandRegistry> {
  const registry = createRegistry();
  try {
    await loadPlugins(plugins, registry, cwd);
    return { registry, refused: false };
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    return { registry, refused: true, diagnostic: fileDiagnostic(err.source ?? '<plugin>', 'usage', `refusing to start: ${err.message}`) };
  }
}
