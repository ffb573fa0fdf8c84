import type { RunConfig } from './run-config.js';

/** Tests a `/`-separated relative path against globs. */
export type GlobMatch = (path: string, globs: readonly string[]) => boolean;

/**
 * A glob matcher for the run (picomatch, loaded only when the configuration has globs to
 * match, so a plain lint start never reads it). Compiled globs are kept per glob.
 */
export async function globMatcher(run: RunConfig | undefined): Promise<GlobMatch> {
  const config = run?.config;
  if (!config || (config.overrides.length === 0 && config.ignore.length === 0)) return () => false;
  return createGlobMatch();
}

/** A picomatch-backed matcher: `dot` on, so `.hidden/` folders match `**` as users expect of a config. */
export async function createGlobMatch(): Promise<GlobMatch> {
  const { default: picomatch } = await import('picomatch');
  const compiled = new Map<string, (path: string) => boolean>();
  return (path, globs) =>
    globs.some((glob) => {
      let test = compiled.get(glob);
      if (!test) {
        test = picomatch(glob, { dot: true });
        compiled.set(glob, test);
      }
      return test(path);
    });
}
