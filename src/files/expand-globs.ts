import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { compareBytes } from '../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';

/** Files named by arguments that may be globs. */
export interface ExpandedFiles {
  /** Every file, each once, in the order of the arguments (a glob's matches sorted byte-wise). */
  files: string[];
  /** True when any argument was expanded as a glob. */
  hadGlob: boolean;
  /** A glob that matched nothing (exit 2). */
  diagnostics: Diagnostic[];
}

const GLOB_CHARACTERS = /[*?[\]{}]/;

/**
 * Expands file arguments (DESIGN §5.4): one naming an existing path is taken literally, never as
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
    if (existsSync(isAbsolute(arg) ? arg : `${cwd}/${arg}`) || !GLOB_CHARACTERS.test(arg)) {
      add(arg);
      continue;
    }
    out.hadGlob = true;
    const { glob } = await import('tinyglobby');
    const matches = await glob(arg, { cwd, onlyFiles: true, expandDirectories: false, absolute: isAbsolute(arg) });
    if (matches.length === 0) out.diagnostics.push(fileDiagnostic(arg, 'io-error', `no file matches ${arg}`));
    for (const match of matches.sort(compareBytes)) add(match);
  }
  return out;
}
