import type { Diagnostic } from '../core/diagnostics.js';
import { type ConfigurableOptions, type ConfiguredRun, configureRun, describeConfig } from '../sources/apply-config.js';
import type { SourceText } from '../yaml/source.js';
import { EXIT } from './exit-code.js';
import { formatText, paletteFor } from './format/text.js';
import type { CommandIo } from './io.js';

/** A command's options with the config put in, and the config itself; or the exit code when the config refused the run (its problems printed). */
export type Configured<T> = Extract<ConfiguredRun<T>, { ok: true }> | { ok: false; exitCode: number };

/**
 * Reads the run's configuration and puts it into a command's options (`configureRun`). A
 * configuration with any problem stops the command with exit 2, the problems printed by `refuse`
 * (standard error as text, unless the command prints them in its own format).
 */
export function configureCommand<T extends ConfigurableOptions>(
  options: T,
  io: CommandIo,
  refuse: (diagnostics: Diagnostic[], sources: Map<string, SourceText>) => void = textRefusal(io),
): Configured<T> {
  const configured = configureRun(options, io.cwd);
  if (options.debug) io.stderr(`kurel: configuration: ${describeConfig(options.config, configured.ok ? configured.run?.file : undefined)}\n`);
  if (!configured.ok) {
    refuse(configured.diagnostics, configured.sources);
    return { ok: false, exitCode: EXIT.usage };
  }
  return configured;
}

/** Prints configuration problems as text on standard error. */
export function textRefusal(io: CommandIo): (diagnostics: Diagnostic[], sources: Map<string, SourceText>) => void {
  return (diagnostics, sources) => io.stderr(`${formatText(diagnostics, sources, paletteFor(io.stderrIsTTY ? { isTTY: true } : {}, io.env))}\n`);
}
