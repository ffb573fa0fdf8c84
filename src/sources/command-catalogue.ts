import { assembleCatalogue, type CatalogueAssembly } from '../catalogue/assemble-catalogue.js';
import type { PluginRef } from '../catalogue/load-plugins.js';
import { noLockfile } from '../catalogue/lockfile.js';
import type { Platform } from '../schema/platform-version.js';
import { configOf } from './apply-config.js';
import type { LockfileFlags } from './command-lockfile.js';
import { definitionInputsOf, isSourceEntry, readDefinitionEntries } from './definition-entries.js';
import type { RunConfig } from './run-config.js';

/**
 * A command's catalogue: built-ins, then each `--plugin` through the startup assertion (a
 * refused one is the refusal, a `usage` diagnostic naming it), and its lockfile, found from
 * the flags and the configuration. Definitions are not loaded here: lint, build, lock,
 * outdated and migrate read them with their inputs, definitions first.
 */
export function assembleCommandCatalogue(
  options: { plugin: readonly PluginRef[] } & LockfileFlags,
  run: RunConfig | undefined,
  cwd: string,
  lockfile: { mayBeMissing?: boolean } = {},
): Promise<CatalogueAssembly> {
  return assembleCatalogue({ plugins: options.plugin, cwd, lockfile: { flag: options.lockfile, config: configOf(run), ...lockfile } });
}

/** The flags that choose which capabilities a command knows besides the built-ins (with the config's entries before them). */
export interface CapabilitySourceOptions {
  definitions: string[];
  capabilityDef: string[];
  plugin: PluginRef[];
}

/** The flags of a command that publishes schemas narrowed to a platform (`kurel schema`, `kurel types`). */
export interface PublishOptions extends CapabilitySourceOptions {
  /** `--platform COMPONENT=VERSION` flags. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under the flags. */
  platformDefault?: Platform;
}

/**
 * The catalogue a command publishes (schema, types, capabilities): built-ins, plugins and the
 * definitions of the options (the configuration already put in), loaded as the service loads them.
 */
export async function assemblePublishedCatalogue(options: CapabilitySourceOptions, cwd: string): Promise<CatalogueAssembly> {
  if (!options.definitions.some(isSourceEntry)) {
    return assembleCatalogue({ plugins: options.plugin, definitionDirs: options.definitions, definitionFiles: options.capabilityDef, cwd });
  }
  // With a registry source, every definition is read by the one reader of definition entries first.
  const read = await readDefinitionEntries({
    entries: options.definitions.map((entry) => ({ path: entry, name: entry })),
    files: options.capabilityDef,
    cwd,
  });
  if (!read.ok) {
    const refusal = { diagnostics: read.diagnostics, sources: new Map(), files: [], lockfile: noLockfile(), fatal: true, catalogue: undefined };
    return { ok: false, refusal };
  }
  const assembly = await assembleCatalogue({ plugins: options.plugin, definitionInputs: definitionInputsOf(read.definitions), cwd });
  if (!assembly.ok) return { ok: false, refusal: { ...assembly.refusal, diagnostics: [...read.diagnostics, ...assembly.refusal.diagnostics] } };
  return { ...assembly, diagnostics: [...read.diagnostics, ...assembly.diagnostics] };
}
