import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Finds the configuration file named `name` by walking up from `cwd` (docs/configuration.md): the
 * first folder holding it wins, and the walk stops after the first folder that holds `.git`
 * (a folder, or the file a git worktree has), so a file above the repository never applies.
 * Returns its absolute path, or undefined.
 */
export function findConfigFile(cwd: string, name: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, name);
    if (isFile(candidate)) return candidate;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
