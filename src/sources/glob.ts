import { compileGlob, loadGlobEngine, type PathTest } from '../files/bounded-glob.js';
import type { RunConfig } from './run-config.js';

/** Tests a `/`-separated relative path against globs. */
export type GlobMatch = (path: string, globs: readonly string[]) => boolean;

/**
 * A glob matcher for the run (the linear-time matcher of `files/bounded-glob.ts`, loaded only when
 * the configuration has globs to match, so a plain lint start never reads it). Compiled globs
 * are kept per glob.
 */
export async function globMatcher(run: RunConfig | undefined): Promise<GlobMatch> {
  const config = run?.config;
  if (!config || (config.overrides.length === 0 && config.ignore.length === 0)) return () => false;
  return createGlobMatch();
}

/**
 * A matcher with picomatch's meaning and `dot` on, so `.hidden/` folders match `**` as users
 * expect of a config; its cost is linear in each glob times the path (docs/configuration.md,
 * "Globs"). A glob the configuration's reader refused never reaches it; one refused here matches nothing.
 */
export async function createGlobMatch(): Promise<GlobMatch> {
  await loadGlobEngine();
  const compiled = new Map<string, PathTest>();
  return (path, globs) =>
    globs.some((glob) => {
      let test = compiled.get(glob);
      if (!test) {
        const made = compileGlob(glob);
        test = made.ok ? made.test : () => false;
        compiled.set(glob, test);
      }
      return test(path);
    });
}
