import { markDotParts, translateGlob } from '../core/glob-syntax.js';
import { importModule } from '../core/import-module.js';

/** Tests a `/`-separated path. */
export type PathTest = (path: string) => boolean;

/** A glob compiled for matching, or why it is refused. */
export type CompiledGlob = { ok: true; test: PathTest } | { ok: false; reason: string };

type Re2 = typeof import('re2js').RE2JS;
let engine: Re2 | undefined;

/** Loads the linear-time engine (re2js) once, on the first glob a run matches. */
export async function loadGlobEngine(): Promise<void> {
  engine ??= (await importModule<typeof import('re2js')>('re2js')).RE2JS;
}

/**
 * Compiles a glob (docs/configuration.md, "Globs") to a test that runs in time linear in the
 * glob's length times the path's, whatever its wildcards: the glob is translated to RE2 syntax
 * and matched by re2js. Call {@link loadGlobEngine} first. Never throws.
 */
export function compileGlob(glob: string): CompiledGlob {
  if (!engine) throw new Error('compileGlob needs loadGlobEngine first');
  const translated = translateGlob(glob);
  if (!translated.ok) return translated;
  let re: ReturnType<Re2['compile']>;
  try {
    re = engine.compile(translated.source);
  } catch (err) {
    return { ok: false, reason: `it cannot be compiled (${(err as Error).message})` };
  }
  const { negated } = translated;
  return { ok: true, test: (path) => re.matches(markDotParts(path)) !== negated };
}
