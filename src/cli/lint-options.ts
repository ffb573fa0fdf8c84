import type { PluginRef } from '../catalogue/load-plugins.js';
import type { Platform } from '../schema/platform-version.js';
import type { ConfigurableOptions } from '../sources/apply-config.js';
import type { ColorChoice } from './format/text.js';
import type { ReportTarget } from './report-targets.js';

/** Options of `kurel lint`. */
export interface LintCommandOptions extends ConfigurableOptions {
  definitions: string[];
  capabilityDef: string[];
  plugin: PluginRef[];
  strict?: boolean;
  strictCapabilities?: boolean;
  /** `--require-pinned` (false with `--no-require-pinned`). */
  requirePinned?: boolean;
  /** `--lockfile FILE`, or false for `--no-lockfile`. */
  lockfile?: string | false;
  /** Every `--format FORMAT[=FILE]`; none means text on standard output. */
  format: ReportTarget[];
  /** `--color`; `auto` by default. */
  color?: ColorChoice;
  /** `--quiet`: text and GitHub output show only what fails the run. */
  quiet?: boolean;
  stdinFilepath?: string;
  /** `--platform COMPONENT=VERSION` flags: they win over every profile's spec.platform. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under each profile's own. */
  platformDefault?: Platform;
  /** `--jobs N`: threads that share the files; the cores available by default. */
  jobs?: number;
  /** No command-line flag sets it: with `jobs` over 1, the worker threads judge every file and this one none (a test's way to make sure they take part). */
  workersOnly?: boolean;
}
