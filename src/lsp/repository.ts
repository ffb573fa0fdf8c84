import { dirname, relative, resolve, sep } from 'node:path';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { CatalogueLockfile } from '../catalogue/lockfile.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { RunInput } from '../core/input.js';
import { CONFIG_FILE_NAME } from '../documents/kurel-config.js';
import { findConfigFile } from '../files/find-config.js';
import { type LintOptions, lintInputs } from '../operations/lint.js';
import { configureRun } from '../sources/apply-config.js';
import { gatherRunInputs, isSourceEntry } from '../sources/definition-entries.js';
import { prepareLintRun } from '../sources/lint-run.js';
import type { RunConfig } from '../sources/run-config.js';

/**
 * One repository as `kurel lint` sees it when run from the folder of its `.kurel.yaml` (or,
 * without one, from the editor's workspace folder): the configuration, the built-ins and
 * plugins, the lockfile, the severities and the definition files, each read once and kept
 * until a file they come from changes (docs/editors.md).
 */
export interface Repository {
  /** The folder lint runs from: files are named relative to it, as lint names them. */
  readonly cwd: string;
  /** The configuration in use, when there is one. */
  readonly run: RunConfig | undefined;
  /** Why lint would refuse to run here (a broken `.kurel.yaml` or plugin): then no file is judged. */
  readonly refusal: Diagnostic[] | undefined;
  /** Built-ins and plugins; undefined when refused. */
  readonly handlers: Catalogue | undefined;
  readonly lockfile: CatalogueLockfile | undefined;
  /** The lint options every file of the repository is judged with. */
  readonly lintOptions: LintOptions;
  /** The definition folders and files lint reads besides its arguments, absolute. */
  readonly definitionPaths: readonly string[];
  /** What lint reads for `kurel lint FILE` here: the file (named as lint names it) and the definitions. */
  inputsFor(file: string): Promise<RunInput[]>;
  /** The catalogue with every definition of the repository, as on disk (built on first use, then kept). */
  definitionCatalogue(): Promise<Catalogue>;
  /** The files whose change makes this repository stale: the config, the lockfile, the definition folders and files. */
  readonly watched: readonly string[];
}

/** The options `kurel lsp` was started with, as `kurel lint` takes them. */
export interface RepositoryFlags {
  /** `--config FILE` or `--no-config` (false). */
  config?: string | false;
  definitions?: string[];
  capabilityDef?: string[];
  requirePinned?: boolean;
  strictCapabilities?: boolean;
  lockfile?: string | false;
  platform?: string[];
}

/** The folder a file's repository is judged from: its `.kurel.yaml`'s, else the workspace folder holding it, else its own. */
export function repositoryRoot(path: string, workspaceFolders: readonly string[]): string {
  const config = findConfigFile(dirname(path), CONFIG_FILE_NAME);
  if (config) return dirname(config);
  const holding = workspaceFolders.filter((folder) => isInside(path, folder)).sort((a, b) => b.length - a.length)[0];
  return holding ?? dirname(path);
}

/** True when `path` is `folder` or below it. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
}

/** A file as lint run from `cwd` names it: relative with `/` when inside, else absolute. */
export function displayName(path: string, cwd: string): string {
  return isInside(path, cwd) ? relative(cwd, path).split(sep).join('/') : path;
}

/**
 * Opens the repository run from `cwd` with the same code `kurel lint` uses: the configuration
 * found from `cwd`, merged with the flags; the handlers; the lockfile; the severity layers.
 */
export async function openRepository(cwd: string, flags: RepositoryFlags): Promise<Repository> {
  const configured = configureRun(
    {
      config: flags.config,
      platformDefault: undefined,
      definitions: flags.definitions ?? [],
      capabilityDef: flags.capabilityDef ?? [],
      plugin: [],
      ...(flags.requirePinned !== undefined ? { requirePinned: flags.requirePinned } : {}),
      ...(flags.strictCapabilities !== undefined ? { strictCapabilities: flags.strictCapabilities } : {}),
      lockfile: flags.lockfile,
      ...(flags.platform !== undefined ? { platform: flags.platform } : {}),
    },
    cwd,
  );
  const configFile = findConfigFile(cwd, CONFIG_FILE_NAME);
  const baseWatched = configFile ? [configFile] : [resolve(cwd, CONFIG_FILE_NAME)];
  if (!configured.ok) return refused(cwd, undefined, configured.diagnostics, baseWatched);
  const { options, run } = configured;
  const prepared = await prepareLintRun(flags, configured, cwd);
  if (!prepared.catalogue.ok) return refused(cwd, run, prepared.catalogue.refusal.diagnostics, baseWatched);
  const { catalogue: handlers } = prepared.catalogue;
  const { lockfile } = prepared;
  const lintOptions = prepared.lintOptions(false);
  const definitionPaths = [...options.definitions.filter((entry) => !isSourceEntry(entry)), ...options.capabilityDef].map((path) => resolve(cwd, path));
  const gather = (paths: string[]) =>
    gatherRunInputs({ paths, definitionDirs: options.definitions, definitionFiles: options.capabilityDef, cwd }).then((g) => g.inputs);
  let catalogue: Promise<Catalogue> | undefined;
  return {
    cwd,
    run,
    refusal: undefined,
    handlers,
    lockfile,
    lintOptions,
    definitionPaths,
    inputsFor: (file) => gather([file]),
    definitionCatalogue() {
      catalogue ??= gather([]).then((inputs) => lintInputs(inputs, handlers, { keepResolved: false }).catalogue);
      return catalogue;
    },
    watched: [...baseWatched, ...(lockfile.location ? [lockfile.location.path] : []), ...definitionPaths],
  };
}

function refused(cwd: string, run: RunConfig | undefined, refusal: Diagnostic[], watched: string[]): Repository {
  return {
    cwd,
    run,
    refusal,
    handlers: undefined,
    lockfile: undefined,
    lintOptions: {},
    definitionPaths: [],
    inputsFor: async () => [],
    definitionCatalogue: () => Promise.reject(new Error('the repository is refused')),
    watched,
  };
}
