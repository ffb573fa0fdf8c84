import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * kurel's cache folder: `$KUREL_CACHE_DIR`, else `$XDG_CACHE_HOME/kurel`, else `~/.cache/kurel`.
 * Registry blobs are kept in its `oci/` (docs/registries.md, "Cache"), the language server's
 * lint results in its `lsp/` (docs/editors.md).
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  if (env.KUREL_CACHE_DIR) return env.KUREL_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'kurel');
  return join(env.HOME || homedir(), '.cache', 'kurel');
}
