import { assembleCatalogue, type CatalogueAssembly } from '../catalogue/assemble-catalogue.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { PluginRef } from '../catalogue/load-plugins.js';
import { reportProblems } from '../operations/report-problems.js';
import type { Platform } from '../schema/platform-version.js';
import { type ConfigurableOptions, configOf, configureCommand } from './apply-config.js';
import type { LockfileFlags } from './command-lockfile.js';
import { EXIT } from './exit-code.js';
import { formatText, paletteFor } from './format/text.js';
import type { CommandIo } from './io.js';
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

/** A catalogue ready to publish with the platform the config defaults to, or the exit code when loading it failed (diagnostics already printed). */
export type PublishedCatalogue = { ok: true; catalogue: Catalogue; platformDefault: Platform | undefined } | { ok: false; exitCode: number };

/**
 * The catalogue a command publishes (schema, types, capabilities): built-ins, plugins and the
 * definitions of the flags, loaded as the service loads them. Problems go to standard error;
 * any error stops the command (a schema that silently lacked a capability would mislead),
 * warnings do not.
 */
export async function loadPublishedCatalogue(flags: CapabilitySourceOptions & ConfigurableOptions, io: CommandIo): Promise<PublishedCatalogue> {
  const configured = configureCommand(flags, io);
  if (!configured.ok) return { ok: false, exitCode: configured.exitCode };
  const { options } = configured;
  const assembly = await assembleCatalogue({
    plugins: options.plugin,
    definitionDirs: options.definitions,
    definitionFiles: options.capabilityDef,
    cwd: io.cwd,
  });
  const load = assembly.ok ? assembly : assembly.refusal;
  const shown = reportProblems(load.diagnostics).diagnostics;
  if (shown.length > 0) io.stderr(`${formatText(shown, load.sources, paletteFor(io.stderrIsTTY ? { isTTY: true } : {}, io.env))}\n`);
  if (!assembly.ok) return { ok: false, exitCode: assembly.refusal.fatal ? EXIT.usage : EXIT.problems };
  return { ok: true, catalogue: assembly.catalogue, platformDefault: options.platformDefault };
}
