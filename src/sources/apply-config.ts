import type { PluginRef } from '../catalogue/load-plugins.js';
import { compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { Platform } from '../schema/platform-version.js';
import type { SourceText } from '../yaml/source.js';
import { EXIT } from './exit-code.js';
import { formatText, paletteFor } from './format/text.js';
import type { CommandIo } from './io.js';
import { type ConfigFlag, loadRunConfig, mergeSources, type RunConfig, versionSettings } from './run-config.js';

/** The options every command that reads `.kurel.yaml` shares (docs/configuration.md). */
export interface ConfigurableOptions {
  /** `--config FILE`, `--no-config` (false), or neither. */
  config?: ConfigFlag;
  definitions?: string[];
  capabilityDef?: string[];
  plugin?: PluginRef[];
  strict?: boolean;
  strictCapabilities?: boolean;
  requirePinned?: boolean;
  /** The repository's default platform: filled from the config's `platform`. */
  platformDefault?: Platform;
  /** `--debug`: say on standard error which configuration file the run read. */
  debug?: boolean;
}

/** The flags of a command that reads profiles against a catalogue and a lockfile. */
export interface CatalogueCommandOptions extends ConfigurableOptions {
  definitions: string[];
  capabilityDef: string[];
  plugin: PluginRef[];
  strictCapabilities?: boolean;
  /** `--require-pinned` (false or absent with `--no-require-pinned`). */
  requirePinned?: boolean;
  /** `--lockfile FILE`, or false for `--no-lockfile`. */
  lockfile?: string | false;
}

/** A command's options with the config put in, and the config itself. */
export type Configured<T> =
  | { ok: true; options: T & { definitions: string[]; capabilityDef: string[]; plugin: PluginRef[] }; run: RunConfig | undefined }
  | { ok: false; exitCode: number };

/**
 * Reads the run's configuration and puts it into a command's options (lists appended to, flags
 * winning over scalars). A configuration with any problem stops the command with exit 2, the
 * problems printed by `refuse` (standard error as text, unless the command prints them in its
 * own format).
 */
export function configureCommand<T extends ConfigurableOptions>(
  options: T,
  io: CommandIo,
  refuse: (diagnostics: Diagnostic[], sources: Map<string, SourceText>) => void = textRefusal(io),
): Configured<T> {
  const loaded = loadRunConfig(options.config, io.cwd);
  if (options.debug) io.stderr(`kurel: configuration: ${describeConfig(options.config, loaded.ok ? loaded.run?.file : undefined)}\n`);
  if (!loaded.ok) {
    refuse([...loaded.diagnostics].sort(compareDiagnostics), loaded.sources);
    return { ok: false, exitCode: EXIT.usage };
  }
  const merged = mergeSources(loaded.run, options, io.cwd);
  const versions = versionSettings(loaded.run, options);
  return {
    ok: true,
    run: loaded.run,
    options: {
      ...options,
      definitions: merged.definitions,
      capabilityDef: merged.capabilityDef,
      plugin: merged.plugin,
      strict: merged.strict,
      strictCapabilities: merged.strictCapabilities,
      requirePinned: versions.requirePinned,
      ...(versions.platform !== undefined && options.platformDefault === undefined ? { platformDefault: versions.platform } : {}),
    },
  };
}

// Which configuration a run read, for --debug.
function describeConfig(flag: ConfigurableOptions['config'], file: string | undefined): string {
  if (flag === false) return 'none (--no-config)';
  if (file !== undefined) return file;
  return flag === undefined ? 'none (no .kurel.yaml in the working directory or the folders above it, up to the one holding .git)' : `${flag} (unreadable)`;
}

/** Prints configuration problems as text on standard error. */
export function textRefusal(io: CommandIo): (diagnostics: Diagnostic[], sources: Map<string, SourceText>) => void {
  return (diagnostics, sources) => io.stderr(`${formatText(diagnostics, sources, paletteFor(io.stderrIsTTY ? { isTTY: true } : {}, io.env))}\n`);
}

/** The configuration as `locateLockfile` reads it: its file and its `lockfile` entry (docs/versions.md). */
export function configOf(run: RunConfig | undefined): { file: string; lockfile?: string | undefined } | undefined {
  return run ? { file: run.file, lockfile: run.config.lockfile } : undefined;
}
