import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importModule } from '../core/import-module.js';
import { packageRoot } from '../files/package-files.js';
import type { Catalogue, HandlerCandidate } from './catalogue.js';
import { RegistryError } from './errors.js';

/** A plugin module that cannot be used at all: not found, throws while loading, or exports no handler. */
export class PluginLoadError extends RegistryError {
  constructor(
    readonly plugin: string,
    reason: string,
  ) {
    super('(none)', reason, `plugin:${plugin}`);
    this.name = 'PluginLoadError';
    this.message = `plugin ${plugin}: ${reason}`;
  }
}

/**
 * A plugin as named: a path or a package name, resolved from `cwd` or, for one named in a
 * configuration file, from `from` (the file's folder).
 */
export type PluginRef = string | { spec: string; from: string };

/**
 * Loads handler plugins (docs/plugins.md): each is an ES module whose default export is a handler
 * or an array of handlers. `spec` is a path (relative to `cwd`) or a package name (resolved
 * from `cwd`). Returns the handlers to put into a catalogue (which asserts the handler
 * contract); throws {@link PluginLoadError} naming the plugin when it cannot be loaded or
 * exports no handler.
 */
export async function loadPlugins(refs: readonly PluginRef[], cwd: string = process.cwd()): Promise<HandlerCandidate[]> {
  const handlers: HandlerCandidate[] = [];
  for (const ref of refs) {
    const spec = typeof ref === 'string' ? ref : ref.spec;
    const exported = await importPlugin(spec, typeof ref === 'string' ? cwd : ref.from);
    const candidates: unknown[] = Array.isArray(exported) ? exported : [exported];
    if (candidates.length === 0) throw new PluginLoadError(spec, 'the default export is an empty array; expected a handler or an array of handlers');
    for (const handler of candidates) handlers.push({ handler, source: `plugin:${spec}` });
  }
  return handlers;
}

/**
 * A catalogue with the plugins' handlers added, each through the startup assertion; throws
 * {@link RegistryError} naming the plugin when one breaks the contract or claims a type already
 * held, and {@link PluginLoadError} when a handler cannot even be read (a getter that throws).
 */
export function withPlugins(catalogue: Catalogue, handlers: readonly HandlerCandidate[]): Catalogue {
  let current = catalogue;
  for (const candidate of handlers) {
    try {
      const type = typeof candidate.handler === 'object' && candidate.handler !== null ? (candidate.handler as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && current.handler(type)?.source === 'builtin') {
        throw new RegistryError(type, `the plugin claims the type of the built-in handler "${type}"; a plugin may not replace a built-in`, candidate.source);
      }
      current = current.withHandlers([candidate]);
    } catch (err) {
      if (err instanceof RegistryError) throw err;
      // A getter that throws, a proxy that refuses to be read: still the plugin's fault, still named.
      throw new PluginLoadError(candidate.source.slice('plugin:'.length), `a handler could not be read: ${messageOf(err)}`);
    }
  }
  return current;
}

async function importPlugin(spec: string, cwd: string): Promise<unknown> {
  const url = locatePlugin(spec, cwd);
  let module: Record<string, unknown>;
  try {
    module = (await importModule(url)) as Record<string, unknown>;
  } catch (err) {
    throw new PluginLoadError(spec, `the plugin failed to load: ${messageOf(err)}`);
  }
  if (!Object.hasOwn(module, 'default') || module['default'] === undefined) {
    const named = Object.keys(module).filter((key) => key !== 'default');
    const found = named.length === 0 ? 'it exports nothing' : `found only named exports: ${named.join(', ')}`;
    throw new PluginLoadError(spec, `the plugin has no default export (a handler or an array of handlers); ${found}`);
  }
  return module['default'];
}

const SCRIPT_FILE = /\.(m|c)?js$/;

/** The URL to import: a file for a path, the package's entry for a package name. */
function locatePlugin(spec: string, cwd: string): string {
  const asPath = resolve(cwd, spec);
  if (spec.startsWith('.') || isAbsolute(spec) || SCRIPT_FILE.test(spec) || isFile(asPath)) {
    if (!isFile(asPath)) throw new PluginLoadError(spec, `cannot find the plugin file ${asPath}`);
    return pathToFileURL(asPath).href;
  }
  const entry = resolvePackageEntry(spec, cwd) ?? resolveWithRequire(spec, cwd);
  if (entry !== undefined) return pathToFileURL(entry).href;
  // Neither found it from `cwd`: it may still be installed where kurel is (a global install).
  // Looked for here, so a package found nowhere is named from `cwd`, not from kurel's files.
  const beside = resolvePackageEntry(spec, packageRoot()) ?? resolveWithRequire(spec, packageRoot());
  if (beside !== undefined) return pathToFileURL(beside).href;
  throw new PluginLoadError(spec, `cannot find the package ${spec} from ${resolve(cwd)}; install it there, or give the plugin's path (./${spec}.mjs)`);
}

/** Finds an ES module package's entry from `cwd` upwards, honouring `exports` with the import conditions. */
function resolvePackageEntry(spec: string, cwd: string): string | undefined {
  const parts = spec.split('/');
  const nameLength = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  const subpath = ['.', ...parts.slice(nameLength)].join('/');
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', name);
    const manifest = readManifest(join(root, 'package.json'));
    if (manifest) {
      const target = exportTarget(manifest['exports'], subpath) ?? (subpath === '.' && manifest['exports'] === undefined ? mainOf(manifest) : undefined);
      const file = target === undefined ? undefined : resolve(root, target);
      return file !== undefined && isFile(file) ? file : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function resolveWithRequire(spec: string, cwd: string): string | undefined {
  try {
    return createRequire(join(resolve(cwd), 'package.json')).resolve(spec);
  } catch {
    return undefined;
  }
}

function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (exports === undefined || exports === null) return undefined;
  const isSubpathMap = typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'));
  if (!isSubpathMap) return subpath === '.' ? pickCondition(exports) : undefined;
  return pickCondition((exports as Record<string, unknown>)[subpath]);
}

const IMPORT_CONDITIONS = new Set(['import', 'node', 'default']);

/** The first target whose condition applies to an `import` under Node, in the order the package lists them. */
function pickCondition(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (Array.isArray(entry)) {
    for (const option of entry) {
      const target = pickCondition(option);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (typeof entry === 'object' && entry !== null) {
    for (const [condition, value] of Object.entries(entry)) {
      if (!IMPORT_CONDITIONS.has(condition)) continue;
      const target = pickCondition(value);
      if (target !== undefined) return target;
    }
  }
  return undefined;
}

function mainOf(manifest: Record<string, unknown>): string {
  return typeof manifest['main'] === 'string' ? manifest['main'] : 'index.js';
}

function readManifest(path: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  try {
    return `it threw ${String(err)}`;
  } catch {
    return 'it threw a value that cannot be printed';
  }
}

/** A catalogue with the plugins named by `specs` imported and added (see {@link loadPlugins} and {@link withPlugins}). */
export async function addPlugins(catalogue: Catalogue, specs: readonly PluginRef[], cwd: string = process.cwd()): Promise<Catalogue> {
  return withPlugins(catalogue, await loadPlugins(specs, cwd));
}
