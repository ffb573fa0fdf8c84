import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RegistryError } from './errors.js';
import type { Registry } from './registry.js';

/**
 * Loads handler plugins (DESIGN §5.3) and registers them through the startup assertion. A
 * plugin is an ES module whose default export is a handler or an array of handlers. `spec` is
 * a path (relative to `cwd`) or a package name. Throws {@link RegistryError} naming the plugin.
 */
export async function loadPlugins(specs: readonly string[], registry: Registry, cwd: string = process.cwd()): Promise<void> {
  for (const spec of specs) {
    const exported = await importPlugin(spec, cwd);
    const handlers = Array.isArray(exported) ? exported : [exported];
    if (handlers.length === 0) throw new RegistryError('(none)', 'the plugin exports an empty array of handlers', `plugin:${spec}`);
    for (const handler of handlers) registry.register(handler, `plugin:${spec}`);
  }
}

async function importPlugin(spec: string, cwd: string): Promise<unknown> {
  let url: string;
  const asPath = isAbsolute(spec) ? spec : resolve(cwd, spec);
  if (spec.startsWith('.') || isAbsolute(spec) || existsSync(asPath)) {
    if (!existsSync(asPath)) throw new RegistryError('(none)', `cannot find the plugin file ${asPath}`, `plugin:${spec}`);
    url = pathToFileURL(asPath).href;
  } else {
    try {
      url = pathToFileURL(createRequire(resolve(cwd, 'package.json')).resolve(spec)).href;
    } catch {
      url = spec;
    }
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (err) {
    throw new RegistryError('(none)', `the plugin failed to load: ${(err as Error).message ?? String(err)}`, `plugin:${spec}`);
  }
  if (!('default' in module) || module['default'] === undefined) {
    throw new RegistryError('(none)', 'the plugin has no default export (a handler or an array of handlers)', `plugin:${spec}`);
  }
  return module['default'];
}
