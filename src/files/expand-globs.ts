import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { compareBytes } from '../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import { globParts, hasGlobSyntax, translateGlob } from '../core/glob-syntax.js';
import { importModule } from '../core/import-module.js';
import { compileGlob, loadGlobEngine } from './bounded-glob.js';
import { isTemporaryName } from './temporary-names.js';

/** Files named by arguments that may be globs. */
export interface ExpandedFiles {
  /** Every file, each once, in the order of the arguments (a glob's matches sorted byte-wise). */
  files: string[];
  /** True when any argument was expanded as a glob. */
  hadGlob: boolean;
  /** A glob that matched nothing (exit 2), or a match reached through a link that leaves the glob's folder. */
  diagnostics: Diagnostic[];
}

/** One glob expanded: its files (named relative to `cwd`, or absolute for an absolute glob) and its problems. */
export interface ExpandedGlob {
  files: string[];
  diagnostics: Diagnostic[];
}

const GLOB_CHARACTERS = /[*?[\]{}]|[@+!]\(/;

/** True when an argument is a glob: it names no existing path and holds glob characters. */
export function isGlobArgument(arg: string, cwd: string): boolean {
  return !existsSync(resolve(cwd, arg)) && GLOB_CHARACTERS.test(arg);
}

/**
 * Expands file arguments (docs/configuration.md): one naming an existing path is taken literally, never as
 * a glob; one with glob characters is expanded by a maintained glob library (loaded only then),
 * so quoting works the same in every shell. A glob that matches no file is an `io-error`.
 */
export async function expandFileArguments(args: readonly string[], cwd: string): Promise<ExpandedFiles> {
  const out: ExpandedFiles = { files: [], hadGlob: false, diagnostics: [] };
  const seen = new Set<string>();
  const add = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    out.files.push(file);
  };
  for (const arg of args) {
    if (!isGlobArgument(arg, cwd)) {
      add(arg);
      continue;
    }
    out.hadGlob = true;
    const expanded = await expandGlob(arg, cwd);
    for (const d of expanded.diagnostics) out.diagnostics.push(d);
    if (expanded.files.length === 0 && expanded.diagnostics.length === 0) out.diagnostics.push(fileDiagnostic(arg, 'io-error', `no file matches ${arg}`));
    for (const file of expanded.files) add(file);
  }
  return out;
}

/**
 * The files a glob matches, sorted byte-wise. A `.yaml` or `.yml` extension at its end matches
 * in any case (`.YAML`), as folder searches do. A match reached through a symbolic link must
 * resolve inside the glob's own folder (its part before the first glob character), as docs/definitions.md asks of folder searches; one that leaves it is an `io-error` and is not read.
 *
 * Matching costs at most time linear in the glob's length times each name's, for every wildcard
 * form (docs/configuration.md, "Globs"): the glob library only lists the folders, from a glob
 * whose parts are plain `*`, `.*` or `**` (which keep its rules for hidden names), and each name
 * it lists is matched by the linear-time matcher. The one form that cannot be matched so, `!(…)`,
 * is a `usage` error.
 */
export async function expandGlob(pattern: string, cwd: string): Promise<ExpandedGlob> {
  const base = globBase(pattern);
  const rest = pattern.slice(baseLength(pattern, base));
  const fine = anyCaseExtension(rest);
  const translated = translateGlob(fine);
  if (!translated.ok) {
    const message = `the glob ${pattern} cannot be matched: ${translated.reason}`;
    return {
      files: [],
      diagnostics: [fileDiagnostic('<command line>', 'usage', message, { hint: 'match with other wildcards, or name the files or their folder' })],
    };
  }
  await loadGlobEngine();
  const compiled = compileGlob(fine);
  const { glob } = await importModule<typeof import('tinyglobby')>('tinyglobby');
  const listed = await glob(listingGlob(rest), { cwd: resolve(cwd, base), onlyFiles: true, expandDirectories: false, dot: false });
  const baseReal = realOrNull(resolve(cwd, base));
  const out: ExpandedGlob = { files: [], diagnostics: [] };
  const named = listed.filter((found) => compiled.ok && compiled.test(found)).map((found) => (base === '.' ? found : join(base, found)));
  for (const match of named.sort(compareBytes)) {
    // kurel's own temporary files and locks are never inputs, whatever the glob (docs/configuration.md, "Inputs").
    if (match.split('/').some(isTemporaryName)) continue;
    const real = realOrNull(resolve(cwd, match));
    if (baseReal !== null && real !== null && real !== baseReal && !real.startsWith(baseReal + sep)) {
      out.diagnostics.push(fileDiagnostic(match, 'io-error', `${match} is a symbolic link that leaves ${base} (to ${real})`));
      continue;
    }
    out.files.push(match);
  }
  return out;
}

// How much of a glob its folder takes: the folder and the slash after it (none for `.` not written).
function baseLength(pattern: string, base: string): number {
  if (base === '/') return 1;
  if (base === '.' && !pattern.startsWith('./')) return 0;
  return base.length + 1;
}

/**
 * The glob the library lists with: each part of `rest` that holds a wildcard becomes `*` (`.*`
 * when it begins with a dot, so hidden names are listed only when asked for, as before), and
 * `**` stays; a brace or extglob holding a `/` lists everything below.
 */
function listingGlob(rest: string): string {
  const parts = globParts(rest);
  if (parts === undefined) return '**';
  return parts.map(listingPart).join('/');
}

function listingPart(part: string): string {
  if (part === '**') return '**';
  if (!hasGlobSyntax(part)) return part.replace(/[*?[\]{}()!@+\\]/g, (c) => `\\${c}`);
  return part.startsWith('.') ? '.*' : '*';
}

/** The folder a glob searches: its segments before the first that holds a glob character (`.` when the first does). */
export function globBase(pattern: string): string {
  const segments = pattern.split('/');
  const fixed: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (GLOB_CHARACTERS.test(segment)) break;
    fixed.push(segment);
  }
  if (fixed.length === 0) return isAbsolute(pattern) ? '/' : '.';
  const joined = fixed.join('/');
  return joined === '' ? '/' : joined;
}

// `*.yaml` becomes `*.[yY][aA][mM][lL]`: only the extension loses its case, not the names.
function anyCaseExtension(pattern: string): string {
  return pattern.replace(/\.(ya?ml)$/i, (_whole, ext: string) => `.${[...ext.toLowerCase()].map((c) => `[${c}${c.toUpperCase()}]`).join('')}`);
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
