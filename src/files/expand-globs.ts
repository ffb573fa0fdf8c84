import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { compareBytes } from '../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
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

const GLOB_CHARACTERS = /[*?[\]{}]/;

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
 */
export async function expandGlob(pattern: string, cwd: string): Promise<ExpandedGlob> {
  const wildcards = mostWildcards(pattern);
  if (wildcards > MAX_WILDCARDS) {
    const message = `the glob ${pattern} has ${wildcards} * wildcards between two slashes; at most ${MAX_WILDCARDS} are accepted there, as more can take minutes to match a long file name`;
    return {
      files: [],
      diagnostics: [fileDiagnostic('<command line>', 'usage', message, { hint: 'match with fewer wildcards, or name the files or their folder' })],
    };
  }
  const { glob } = await import('tinyglobby');
  const absolute = isAbsolute(pattern);
  const matches = await glob(anyCaseExtension(pattern), { cwd, onlyFiles: true, expandDirectories: false, absolute, dot: false });
  const base = realOrNull(resolve(cwd, globBase(pattern)));
  const out: ExpandedGlob = { files: [], diagnostics: [] };
  for (const match of matches.sort(compareBytes)) {
    // kurel's own temporary files and locks are never inputs, whatever the glob (docs/configuration.md, "Inputs").
    if (match.split('/').some(isTemporaryName)) continue;
    const real = realOrNull(resolve(cwd, match));
    if (base !== null && real !== null && real !== base && !real.startsWith(base + sep)) {
      out.diagnostics.push(fileDiagnostic(match, 'io-error', `${match} is a symbolic link that leaves ${globBase(pattern)} (to ${real})`));
      continue;
    }
    out.files.push(match);
  }
  return out;
}

/**
 * The most `*` wildcards a glob accepts in one part between slashes (README.md, "Limits"): the
 * glob library matches with a regular expression whose time grows with the name's length to
 * the power of their number (40 of them over a 40-character name ran for minutes).
 */
export const MAX_WILDCARDS = 3;

/**
 * The most `*` wildcards in one part of a glob between slashes: a run of stars counts once, a
 * `**` part (any folders) not at all, nor an escaped star or one inside brackets.
 */
export function mostWildcards(pattern: string): number {
  let most = 0;
  for (const part of pattern.split('/')) {
    if (part === '**') continue;
    let count = 0;
    let inBrackets = false;
    for (let i = 0; i < part.length; i++) {
      const c = part[i];
      if (c === '\\') i++;
      else if (inBrackets) inBrackets = c !== ']';
      else if (c === '[') inBrackets = true;
      else if (c === '*' && part[i - 1] !== '*') count++;
    }
    most = Math.max(most, count);
  }
  return most;
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
