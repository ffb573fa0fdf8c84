import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { compareText } from '../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import { importModule } from '../core/import-module.js';
import { describeSpecialFile } from './read-file.js';
import { isTemporaryName } from './temporary-names.js';

type SpecialFile = Parameters<typeof describeSpecialFile>[0];

/** The YAML files found under a folder, and the problems met on the way. */
export interface FoundFiles {
  files: string[];
  /**
   * The real path of each file of `files`, at the same index: the folder's real path joined
   * with the names below it, or where a link leads. A file is known by it when it is reached
   * twice, with no `realpath` call of its own.
   */
  realPaths: string[];
  /** What could not be read (each an `io-error`: a run that meets one exits 2, docs/codes/io-error.md). */
  diagnostics: Diagnostic[];
  /** True when the folder itself could not be read. */
  unreadable: boolean;
  /** How many `.json` files the search passed over: a folder is searched for YAML files only (README "Inputs"). */
  jsonFiles: number;
}

/** A JSON file's name, in any case: linted when named, passed over (and counted) in a folder. */
export const JSON_FILE = /\.json$/i;

/** Folders a search never enters: installed packages and git's own data (README "Inputs"). */
export const NEVER_SEARCHED: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** A YAML file's name: `.yaml` or `.yml` in any case (`.YAML`). */
export const YAML_FILE = /\.ya?ml$/i;
const DIRECTORY_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'a symbolic link loop',
};

/**
 * Finds every `*.yaml`/`*.yml` file under `dir` (extensions in any case), recursively, sorted.
 * Symbolic links are followed when they resolve inside `dir` (ConfigMap mounts are links of
 * that kind); a link that leaves it, a dangling link, or a loop is an `io-error`. Names
 * starting with `..` are passed over (docs/configuration.md): a ConfigMap mount keeps its real files under
 * `..<timestamp>/`, reached through the links beside them, so they would be read twice.
 * Names starting with `.kurel-tmp-` (kurel's own temporary files) are passed over too.
 * Folders named `node_modules` or `.git` are never entered, and what the `.gitignore` files of
 * the folder searched and of the folders in it exclude is passed over, as git passes it over.
 */
export async function findYamlFiles(dir: string, cwd: string = process.cwd()): Promise<FoundFiles> {
  const files: string[] = [];
  const realPaths: string[] = [];
  const diagnostics: Diagnostic[] = [];
  let jsonFiles = 0;
  let root: string;
  try {
    root = await realpath(resolve(cwd, dir));
    if (!(await stat(root)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = DIRECTORY_ERRORS[String(code)] ?? String(code);
    return { files, realPaths, diagnostics: [fileDiagnostic(dir, 'io-error', `cannot read ${dir}: ${reason}`)], unreadable: true, jsonFiles };
  }
  const inside = (real: string): boolean => real === root || real.startsWith(root + sep);

  const walk = async (shown: string, real: string, seen: ReadonlySet<string>, outer: readonly GitIgnore[]): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(resolve(cwd, shown), { withFileTypes: true });
    } catch (err) {
      const code = String((err as NodeJS.ErrnoException).code ?? 'EIO');
      diagnostics.push(fileDiagnostic(shown, 'io-error', `cannot read ${shown}: ${DIRECTORY_ERRORS[code] ?? code}`));
      return;
    }
    entries.sort((a, b) => compareText(a.name, b.name));
    const own = entries.some((e) => e.name === '.gitignore' && e.isFile()) ? await readGitIgnore(resolve(cwd, shown), real) : undefined;
    const ignores = own ? [...outer, own] : outer;
    for (const entry of entries) {
      if (entry.name.startsWith('..')) continue;
      // What a write that was stopped left behind is never an input (docs/configuration.md, "Inputs").
      if (isTemporaryName(entry.name)) continue;
      if (NEVER_SEARCHED.has(entry.name)) continue;
      const path = join(shown, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let kind: SpecialFile | undefined = entry;
      let target = join(real, entry.name);
      if (entry.isSymbolicLink()) {
        try {
          target = await realpath(resolve(cwd, path));
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          const what = code === 'ELOOP' ? 'a symbolic link loop' : 'a dangling symbolic link';
          diagnostics.push(fileDiagnostic(path, 'io-error', `${path} is ${what}`));
          continue;
        }
        if (!inside(target)) {
          diagnostics.push(fileDiagnostic(path, 'io-error', `${path} is a symbolic link that leaves ${dir} (to ${target})`));
          continue;
        }
        const info = await lstat(target).catch(() => undefined);
        isDir = info?.isDirectory() ?? false;
        isFile = info?.isFile() ?? false;
        kind = info;
      }
      if (isGitIgnored(ignores, join(real, entry.name), isDir)) continue;
      if (isDir) {
        if (seen.has(target)) {
          diagnostics.push(fileDiagnostic(path, 'io-error', `${path} is a symbolic link loop`));
          continue;
        }
        await walk(path, target, new Set([...seen, target]), ignores);
      } else if (isFile && YAML_FILE.test(entry.name)) {
        files.push(path);
        realPaths.push(target);
      } else if (isFile && JSON_FILE.test(entry.name)) {
        jsonFiles += 1;
      } else if (kind && YAML_FILE.test(entry.name)) {
        // A device, FIFO or socket named like YAML is never read (docs/profiles.md), but not passed over either.
        diagnostics.push(fileDiagnostic(path, 'io-error', `cannot read ${path}: ${describeSpecialFile(kind)}, not a regular file`));
      }
    }
  };
  await walk(dir, root, new Set([root]), []);
  return { files, realPaths, diagnostics, unreadable: false, jsonFiles };
}

/** The rules of one `.gitignore`, with the folder its patterns are relative to. */
interface GitIgnore {
  folder: string;
  rules: Ignore;
}

type Ignore = import('ignore').Ignore;

// The `ignore` package (gitignore's own matching rules) is loaded only when a search meets a `.gitignore`.
async function readGitIgnore(location: string, folder: string): Promise<GitIgnore | undefined> {
  let text: string;
  try {
    text = await readFile(join(location, '.gitignore'), 'utf8');
  } catch {
    // An unreadable .gitignore excludes nothing, as git reads it.
    return undefined;
  }
  const { default: ignore } = await importModule<{ default: typeof import('ignore') }>('ignore');
  return { folder, rules: ignore().add(text) };
}

/** Whether the `.gitignore` files from the searched folder down exclude a path; a deeper file's rules win, as in git. */
function isGitIgnored(ignores: readonly GitIgnore[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { folder, rules } of ignores) {
    const relativePath = relative(folder, path).split(sep).join('/');
    const verdict = rules.test(isDir ? `${relativePath}/` : relativePath);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}
