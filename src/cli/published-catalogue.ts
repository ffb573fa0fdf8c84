import type { Catalogue } from '../catalogue/catalogue.js';
import { reportProblems } from '../operations/report-problems.js';
import type { Platform } from '../schema/platform-version.js';
import type { ConfigurableOptions } from '../sources/apply-config.js';
import { assemblePublishedCatalogue, type CapabilitySourceOptions } from '../sources/command-catalogue.js';
import { configureCommand } from './configure-command.js';
import { EXIT } from './exit-code.js';
import { formatText, paletteFor } from './format/text.js';
import type { CommandIo } from './io.js';

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
  const assembly = await assemblePublishedCatalogue(options, io.cwd);
  const load = assembly.ok ? assembly : assembly.refusal;
  const shown = reportProblems(load.diagnostics).diagnostics;
  if (shown.length > 0) io.stderr(`${formatText(shown, load.sources, paletteFor(io.stderrIsTTY ? { isTTY: true } : {}, io.env))}\n`);
  if (!assembly.ok) return { ok: false, exitCode: assembly.refusal.fatal ? EXIT.usage : EXIT.problems };
  return { ok: true, catalogue: assembly.catalogue, platformDefault: options.platformDefault };
}
