import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { appendAll } from '../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import type { DeferredInputFile, InputFile, InputOrigin, InputRead, RunInput } from '../core/input.js';
import { LIMITS } from '../core/input-limits.js';
import { expandGlob, isGlobArgument } from './expand-globs.js';
import { findYamlFiles, JSON_FILE, YAML_FILE } from './find-yaml-files.js';
import { readSourceFile } from './read-file.js';

/** The name standard input has in diagnostics when `--stdin-filepath` gives none. */
export const STDIN_NAME = '<stdin>';

/** What one folder or glob argument found (docs/configuration.md: each must yield a profile or definition). */
export interface Search {
  /** The argument as given. */
  argument: string;
  /** The files it found and reads, named as they are reported. */
  files: string[];
  /** How many files it found that the configuration's `ignore` left out. */
  ignored: number;
  /** How many `.json` files it passed over (a folder or glob yields its YAML files only). */
  jsonFiles: number;
}

/** Inputs gathered from the command line, and what went wrong on the way. */
export interface GatheredInputs<Input extends RunInput = InputFile> {
  inputs: Input[];
  diagnostics: Diagnostic[];
  /** True when a named path cannot be read (exit 2). */
  fatal: boolean;
  /** Each folder or glob among the paths, in order. */
  searches: Search[];
}

/**
 * Collects files (and standard input) into lint inputs; never throws. A path naming a folder is
 * searched; one naming no existing path but holding glob characters is a glob, expanded (docs/configuration.md); what either finds is read as a folder's files are (other kinds skipped), except the
 * files `ignore` names, which are never read. A file named on the command line is always read.
 * A file reached twice (named twice, or named and also found in a folder) is read once, under
 * the first name it was reached by; standard input can be read once, so a second `-` is a
 * `usage` error. With `searchFiles`, a file named is read as a folder's files are.
 */
export async function gatherInputs(request: InputRequest, stdin: () => Promise<Uint8Array> = noStdin): Promise<GatheredInputs> {
  // Read now, every input holds its bytes.
  return (await gather(request, stdin, false)) as GatheredInputs;
}

/**
 * Collects inputs as {@link gatherInputs} does, but a file's bytes are read only when a run
 * needs them (standard input is read now); a file that cannot be read is reported by the run
 * that reads it. Never throws.
 */
export async function gatherDeferredInputs(request: InputRequest, stdin: () => Promise<Uint8Array> = noStdin): Promise<GatheredInputs<RunInput>> {
  return gather(request, stdin, true);
}

/** What to gather: paths (files, folders, globs, `-`), definition folders and files. */
export interface InputRequest {
  paths?: readonly string[];
  definitionDirs?: readonly string[];
  definitionFiles?: readonly string[];
  stdinName?: string;
  /** The folder relative paths are read from (they are still named as given); the process's by default. */
  cwd?: string;
  /** True for a file a folder or glob search must leave out (the configuration's `ignore`), by its path as found. */
  ignore?: (path: string) => boolean;
  /**
   * `kurel lint --search-files`: a file named is read as a folder's files are (docs/editors.md,
   * pre-commit): only `*.yaml` and `*.yml`, none that `ignore` names, other kinds skipped; and,
   * unlike a folder, naming no profile or definition is not an error.
   */
  searchFiles?: boolean;
}

/** A file named as given, read from `cwd` when a run asks for its bytes (never before). */
export function deferredInput(file: string, origin: InputOrigin, cwd: string, kind?: string): DeferredInputFile {
  return { file, origin, ...(kind ? { kind } : {}), read: () => readDeferred(resolve(cwd, file), file) };
}

function readDeferred(location: string, display: string): InputRead {
  const read = readSourceFile(location, display);
  return read.ok ? { ok: true, content: read.bytes } : read;
}

async function gather(request: InputRequest, stdin: () => Promise<Uint8Array>, defer: boolean): Promise<GatheredInputs<RunInput>> {
  const cwd = request.cwd ?? process.cwd();
  const at = (path: string) => resolve(cwd, path);
  const result: GatheredInputs<RunInput> = { inputs: [], diagnostics: [], fatal: false, searches: [] };
  const seen = new Set<string>();
  let stdinRead = false;
  // `realPath` when a folder search already knows it; otherwise one `realpath` call.
  const addFile = async (path: string, origin: InputOrigin, realPath?: string) => {
    const identity = realPath ?? realPathOf(at(path));
    if (seen.has(identity)) return;
    seen.add(identity);
    if (defer) {
      result.inputs.push(deferredInput(path, origin, cwd));
      return;
    }
    const read = readSourceFile(at(path), path);
    if (read.ok) result.inputs.push({ file: path, content: read.bytes, origin });
    else {
      result.diagnostics.push(read.diagnostic);
      if (read.unreadable) result.fatal = true;
    }
  };
  const addDir = async (dir: string, origin: InputOrigin) => {
    if (await isRegularFile(at(dir))) {
      // A common slip: a definition file given where a folder is expected.
      result.diagnostics.push(fileDiagnostic('<command line>', 'usage', `--definitions takes a folder, and ${dir} is a file; use --capability-def for a file`));
      result.fatal = true;
      return 0;
    }
    const found = await findYamlFiles(dir, cwd);
    appendAll(result.diagnostics, found.diagnostics);
    // Something in the folder could not be read (docs/codes/io-error.md): the rest is still read, and the run exits 2.
    if (found.unreadable || found.diagnostics.length > 0) result.fatal = true;
    for (const [index, file] of found.files.entries()) await addFile(file, origin, found.realPaths[index]);
    return found.files.length;
  };
  const addSearched = async (argument: string, found: readonly string[], jsonFiles: number, realPaths?: readonly string[]) => {
    const search: Search = { argument, files: [], ignored: 0, jsonFiles };
    for (const [index, file] of found.entries()) {
      if (request.ignore?.(file)) search.ignored += 1;
      else {
        search.files.push(file);
        await addFile(file, 'directory', realPaths?.[index]);
      }
    }
    result.searches.push(search);
  };
  for (const path of request.paths ?? []) {
    if (path === '-') {
      if (stdinRead) {
        result.diagnostics.push(fileDiagnostic('<command line>', 'usage', 'standard input (-) can be read only once; found - more than once'));
        result.fatal = true;
        continue;
      }
      stdinRead = true;
      const bytes = await stdin();
      const name = request.stdinName ?? STDIN_NAME;
      if (bytes.length > LIMITS.maxFileBytes) {
        const message = `standard input holds more than ${LIMITS.maxFileBytes} bytes (16 MiB), the limit; the rest was not read`;
        result.diagnostics.push(fileDiagnostic(name, 'file-too-large', message));
      } else {
        result.inputs.push({ file: name, content: bytes, origin: 'argument' });
      }
      continue;
    }
    if (await isDirectory(at(path))) {
      const found = await findYamlFiles(path, cwd);
      appendAll(result.diagnostics, found.diagnostics);
      // Something in the folder could not be read (docs/codes/io-error.md): the rest is still read, and the run exits 2.
      if (found.diagnostics.length > 0) result.fatal = true;
      if (!found.unreadable) await addSearched(path, found.files, found.jsonFiles, found.realPaths);
    } else if (isGlobArgument(path, cwd)) {
      const expanded = await expandGlob(path, cwd);
      appendAll(result.diagnostics, expanded.diagnostics);
      // A glob refused searched nothing; a match that could not be read is exit 2, as in a folder.
      if (expanded.diagnostics.length > 0) result.fatal = true;
      if (expanded.files.length === 0 && expanded.diagnostics.length === 0) {
        result.diagnostics.push(fileDiagnostic(path, 'io-error', `no file matches ${path}`));
        result.fatal = true;
      }
      // A glob names the files to search among, as a folder does: its YAML files.
      else if (!expanded.diagnostics.some((d) => d.code === 'usage'))
        await addSearched(
          path,
          expanded.files.filter((file) => YAML_FILE.test(file)),
          expanded.files.filter((file) => JSON_FILE.test(file)).length,
        );
    } else if (!request.searchFiles) await addFile(path, 'argument');
    else if (YAML_FILE.test(path) && !request.ignore?.(path)) await addFile(path, 'directory');
  }
  for (const dir of request.definitionDirs ?? []) await addDir(dir, 'definition');
  for (const file of request.definitionFiles ?? []) await addFile(file, 'definition');
  return result;
}

/** True when `path` is a directory (false when it is anything else or cannot be read). */
export async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

async function isRegularFile(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

async function noStdin(): Promise<Uint8Array> {
  return new Uint8Array();
}

// One file by any name it is reached by; a path that cannot be resolved stands for itself.
// The native call is one realpath(3); the JavaScript one stats every component of every path.
function realPathOf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}
