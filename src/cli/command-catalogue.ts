import type { Catalogue } from '../catalogue/catalogue.js';
import { RegistryError } from '../catalogue/errors.js';
import { loadCatalogue, loadHandlers, refusalDiagnostic } from '../catalogue/load-catalogue.js';
import type { PluginRef } from '../catalogue/load-plugins.js';
import { type Diagnostic, hasErrors } from '../core/diagnostics.js';
import { reportProblems } from '../operations/report-problems.js';
import type { Platform } from '../schema/platform-version.js';
import { type ConfigurableOptions, configureCommand } from './apply-config.js';
import { EXIT } from './exit-code.js';
import { formatText, paletteFor } from './format/text.js';
import type { CommandIo } from './io.js';

/** The built-ins plus the plugins a command line names, or the refused start (exit 2). */
export type CommandHandlers = { refused: false; catalogue: Catalogue } | { refused: true; diagnostic: Diagnostic };

/**
 * A command's handlers: built-ins, then each `--plugin` through the startup assertion. A
 * refused plugin becomes a `usage` diagnostic naming it; other failures throw.
 */
export async function loadCommandHandlers(plugins: readonly PluginRef[], cwd: string): Promise<CommandHandlers> {
  try {
    return { refused: false, catalogue: await loadHandlers(plugins, cwd) };
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    return { refused: true, diagnostic: refusalDiagnostic(err) };
  }
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
  const load = await loadCatalogue({ plugins: options.plugin, definitionDirs: options.definitions, definitionFiles: options.capabilityDef, cwd: io.cwd });
  const diagnostics = load.diagnostics;
  const shown = reportProblems(diagnostics).diagnostics;
  if (shown.length > 0) io.stderr(`${formatText(shown, load.sources, paletteFor(io.stderrIsTTY ? { isTTY: true } : {}, io.env))}\n`);
  if (load.fatal || !load.catalogue) return { ok: false, exitCode: EXIT.usage };
  if (hasErrors(diagnostics)) return { ok: false, exitCode: EXIT.problems };
  return { ok: true, catalogue: load.catalogue, platformDefault: options.platformDefault };
}
