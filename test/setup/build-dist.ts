import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// Everything scripts/build.mjs reads: the sources it bundles, the console, its own settings.
const INPUTS = ['src', 'handlers', 'console', 'scripts/build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
// The file spawned tests run; the build swaps the whole of dist/ in at once, so it is as new as the rest.
const OUTPUT = join('dist', 'cli.cjs');

/** The newest modification time under `path` (a file or a folder), in milliseconds. */
function newest(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** True when `root`'s `dist/` is missing or older than any input of the build. */
export function distIsStale(root: string = ROOT): boolean {
  if (!existsSync(join(root, OUTPUT))) return true;
  const built = statSync(join(root, OUTPUT)).mtimeMs;
  return INPUTS.some((input) => existsSync(join(root, input)) && newest(join(root, input)) > built);
}

/**
 * Vitest's global setup: rebuilds `dist/` when it is older than its sources, so tests that run the
 * built CLI or package never test a stale build after an edit (`npm test` builds first anyway).
 */
export default function setup(): void {
  if (!distIsStale()) return;
  process.stderr.write('dist/ is older than its sources: rebuilding (npm run build)\n');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
