import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { PluginRef } from '../catalogue/load-plugins.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { CONFIG_FILE_NAME, type KurelConfig, readKurelConfig, type SeverityRules } from '../documents/kurel-config.js';
import { findConfigFile } from '../files/find-config.js';
import { readSourceFile } from '../files/read-file.js';
import type { SeverityOf } from '../operations/severity.js';
import type { Platform } from '../schema/platform-version.js';
import type { SourceText } from '../yaml/source.js';
import { isSourceEntry } from './definition-entries.js';

/** The codes `strictCapabilities` makes errors (docs/profiles.md): lint's unknown-capability, build's unvalidated-capability. */
export const STRICT_CAPABILITY_CODES = ['unknown-capability', 'unvalidated-capability'] as const;

/** `--config FILE` (a string), `--no-config` (false), or neither (undefined: discover it). */
export type ConfigFlag = string | false | undefined;

/** The configuration a run uses, with where it is. */
export interface RunConfig {
  /** The file as shown in messages: relative to the working directory when it is below it. */
  file: string;
  /** Its folder, absolute: the config's paths are relative to it. */
  dir: string;
  config: KurelConfig;
}

/** The run's configuration (none without a file), or why the run cannot start (exit 2). */
export type LoadedConfig = { ok: true; run: RunConfig | undefined } | { ok: false; diagnostics: Diagnostic[]; sources: Map<string, SourceText> };

/**
 * Finds and reads the configuration of a run (docs/configuration.md): `--config FILE`, or
 * `.kurel.yaml` found walking up from the working directory (stopping after the folder that
 * holds `.git`), or none with `--no-config`. A file that cannot be read or has any problem
 * refuses the run, with the problems positioned in the file.
 */
export function loadRunConfig(flag: ConfigFlag, cwd: string): LoadedConfig {
  if (flag === false) return { ok: true, run: undefined };
  const path = flag === undefined ? findConfigFile(cwd, CONFIG_FILE_NAME) : resolve(cwd, flag);
  if (path === undefined) return { ok: true, run: undefined };
  const file = flag ?? shown(cwd, path);
  const read = readSourceFile(path, file);
  if (!read.ok) return { ok: false, diagnostics: [read.diagnostic], sources: new Map() };
  const config = readKurelConfig(file, read.bytes);
  if (!config.config) return { ok: false, diagnostics: config.diagnostics, sources: new Map([[file, config.source]]) };
  return { ok: true, run: { file, dir: dirname(path), config: config.config } };
}

/** A config path (relative to the config's folder) as the run names it: relative to the working directory. */
export function configPath(run: RunConfig, entry: string, cwd: string): string {
  return shown(cwd, resolve(run.dir, entry));
}

/**
 * The config's plugin entries (docs/configuration.md): `./`, `../` and `/` entries are paths relative to
 * the config, named relative to the working directory; others are package names resolved
 * from the config's folder.
 */
export function configPlugins(run: RunConfig, cwd: string): PluginRef[] {
  return run.config.plugins.map((entry) => {
    if (!/^(\.{1,2}\/|\/)/.test(entry)) return { spec: entry, from: run.dir };
    const path = configPath(run, entry, cwd);
    return isAbsolute(path) || path.startsWith('../') ? path : `./${path}`;
  });
}

/** The flags a run's capability sources and strictness come from. */
export interface SourceFlags {
  definitions?: readonly string[];
  capabilityDef?: readonly string[];
  plugin?: readonly PluginRef[];
  /** `--strict` (true), `--no-strict` (false), or neither. */
  strict?: boolean | undefined;
  strictCapabilities?: boolean | undefined;
  requirePinned?: boolean | undefined;
}

/** What a run uses once the config and the flags are put together. */
export interface MergedSources {
  definitions: string[];
  capabilityDef: string[];
  plugin: PluginRef[];
  strict: boolean;
  strictCapabilities: boolean;
}

/**
 * Puts the config and the command line together (docs/configuration.md): list flags append to the
 * config's lists, scalar flags override it (`--no-strict` turns a config `true` off). A
 * `definitions` entry that names a registry source (`oci://…`) is kept as written; the others are
 * paths relative to the config.
 */
export function mergeSources(run: RunConfig | undefined, flags: SourceFlags, cwd: string): MergedSources {
  const config = run?.config;
  const paths = (entries: readonly string[] | undefined) => (run && entries ? entries.map((entry) => configPath(run, entry, cwd)) : []);
  const entries = (list: readonly string[] | undefined) =>
    run && list ? list.map((entry) => (isSourceEntry(entry) ? entry : configPath(run, entry, cwd))) : [];
  return {
    definitions: [...entries(config?.definitions), ...(flags.definitions ?? [])],
    capabilityDef: [...paths(config?.capabilityDefs), ...(flags.capabilityDef ?? [])],
    plugin: [...(run ? configPlugins(run, cwd) : []), ...(flags.plugin ?? [])],
    strict: flags.strict ?? config?.strict ?? false,
    strictCapabilities: flags.strictCapabilities ?? config?.strictCapabilities ?? false,
  };
}

/** The settings of the versions and platform work (docs/versions.md) a run takes from its config and flags. */
export interface VersionSettings {
  requirePinned: boolean;
  /** The repository's default platform: versions for components a profile does not name. */
  platform: Platform | undefined;
}

/**
 * The one place `requirePinned` and `platform` of `.kurel.yaml` meet their flags, for every
 * command that takes them: `--require-pinned`/`--no-require-pinned` win over the config. (The
 * lockfile is found by `locateLockfile`, given the config.)
 */
export function versionSettings(run: RunConfig | undefined, flags: { requirePinned?: boolean | undefined }): VersionSettings {
  const config = run?.config;
  return { requirePinned: flags.requirePinned ?? config?.requirePinned ?? false, platform: config?.platform };
}

/**
 * The severities each input file is judged with, in the order docs/configuration.md gives: the built-in
 * severity, then the config's `strictCapabilities`, then its `severity`, then its `overrides`
 * in order (for inputs whose path relative to the config matches), then the command line
 * (`--strict-capabilities`). `--no-strict-capabilities` removes only the config's own layer.
 * `matches` tests a path against globs (picomatch, loaded by the caller when there are overrides).
 */
export function severityLayers(
  run: RunConfig | undefined,
  flags: { strictCapabilities?: boolean | undefined },
  cwd: string,
  matches: (path: string, globs: readonly string[]) => boolean,
  strictCodes: readonly string[],
): SeverityOf {
  const strict = (on: boolean): SeverityRules => (on ? Object.fromEntries(strictCodes.map((code) => [code, 'error'])) : {});
  const config = run?.config;
  const base: SeverityRules = {
    ...strict(flags.strictCapabilities !== false && config?.strictCapabilities === true),
    ...config?.severity,
  };
  const last = strict(flags.strictCapabilities === true);
  const cache = new Map<string, SeverityRules>();
  return (file) => {
    let rules = cache.get(file);
    if (!rules) {
      const layered: Record<string, SeverityRules[string]> = { ...base };
      if (run && config && config.overrides.length > 0) {
        const path = relative(run.dir, resolve(cwd, file)).split('\\').join('/');
        for (const override of config.overrides) if (matches(path, override.files)) Object.assign(layered, override.severity);
      }
      rules = { ...layered, ...last };
      cache.set(file, rules);
    }
    return rules;
  };
}

function shown(cwd: string, path: string): string {
  const rel = relative(resolve(cwd), path);
  if (rel === '') return '.';
  return isAbsolute(rel) ? path : rel;
}
