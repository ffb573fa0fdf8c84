import type { PluginRef } from '../catalogue/load-plugins.js';
import { compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { Platform } from '../schema/platform-version.js';
import type { SourceText } from '../yaml/source.js';
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
  /** `--offline`: registry sources are read from the cache only (docs/registries.md). */
  offline?: boolean;
  /** `--insecure-registry HOST` flags: registry hosts reached over plain HTTP. */
  insecureRegistry?: string[];
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

/** A run's options with the config put in, and the config itself; or the config's problems, positioned in it (the run is refused: exit 2). */
export type ConfiguredRun<T> =
  | { ok: true; options: T & { definitions: string[]; capabilityDef: string[]; plugin: PluginRef[] }; run: RunConfig | undefined }
  | { ok: false; diagnostics: Diagnostic[]; sources: Map<string, SourceText> };

/**
 * Reads the run's configuration from `cwd` and puts it into a run's options (lists appended to,
 * flags winning over scalars), for the CLI, the language server and the service alike
 * (docs/configuration.md). A configuration with any problem refuses the run, its problems sorted.
 */
export function configureRun<T extends ConfigurableOptions>(options: T, cwd: string): ConfiguredRun<T> {
  const loaded = loadRunConfig(options.config, cwd);
  if (!loaded.ok) return { ok: false, diagnostics: [...loaded.diagnostics].sort(compareDiagnostics), sources: loaded.sources };
  const merged = mergeSources(loaded.run, options, cwd);
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

/** Which configuration a run read, as `--debug` says it. */
export function describeConfig(flag: ConfigurableOptions['config'], file: string | undefined): string {
  if (flag === false) return 'none (--no-config)';
  if (file !== undefined) return file;
  return flag === undefined ? 'none (no .kurel.yaml in the working directory or the folders above it, up to the one holding .git)' : `${flag} (unreadable)`;
}

/** The configuration as `locateLockfile` reads it: its file and its `lockfile` entry (docs/versions.md). */
export function configOf(run: RunConfig | undefined): { file: string; lockfile?: string | undefined } | undefined {
  return run ? { file: run.file, lockfile: run.config.lockfile } : undefined;
}
