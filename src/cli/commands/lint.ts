import type { PluginRef } from '../../catalogue/load-plugins.js';
import { compareDiagnostics, type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import { gatherInputs } from '../../files/gather-inputs.js';
import { type LintReport, lintInputs } from '../../operations/lint.js';
import type { Platform } from '../../schema/platform-version.js';
import { type ConfigurableOptions, configureCommand } from '../apply-config.js';
import { loadCommandHandlers } from '../command-catalogue.js';
import { exitCodeOf } from '../exit-code.js';
import { type LintFormat, renderReport } from '../format/index.js';
import { paletteFor } from '../format/text.js';
import { globMatcher } from '../glob.js';
import type { CommandIo } from '../io.js';
import { platformOptions } from '../platform-flags.js';
import { severityLayers } from '../run-config.js';

/** The codes `strictCapabilities` makes errors (DESIGN §4.5): lint's unknown-capability, build's unvalidated-capability. */
export const STRICT_CAPABILITY_CODES = ['unknown-capability', 'unvalidated-capability'] as const;

/** Options of `kurel lint`. */
export interface LintCommandOptions extends ConfigurableOptions {
  definitions: string[];
  capabilityDef: string[];
  plugin: PluginRef[];
  strict?: boolean;
  strictCapabilities?: boolean;
  format: LintFormat;
  stdinFilepath?: string;
  /** `--platform COMPONENT=VERSION` flags: they win over every profile's spec.platform. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under each profile's own. */
  platformDefault?: Platform;
}

/** Runs `kurel lint`; returns the exit code. */
export async function runLint(paths: readonly string[], flags: LintCommandOptions, io: CommandIo): Promise<number> {
  const palette = paletteFor(io.stdoutIsTTY ? { isTTY: true } : {}, io.env);
  const configured = configureCommand(flags, io, (diagnostics, sources) => {
    // A configuration that cannot be used is reported like any other problem, in the chosen format.
    io.stdout(`${renderReport(flags.format, { valid: false, diagnostics, files: [], sources, palette })}\n`);
  });
  if (!configured.ok) return configured.exitCode;
  const { options, run } = configured;
  const gathered = await gatherInputs(
    {
      paths,
      definitionDirs: options.definitions,
      definitionFiles: options.capabilityDef,
      ...(options.stdinFilepath ? { stdinName: options.stdinFilepath } : {}),
      cwd: io.cwd,
    },
    io.stdin,
  );
  let fatal = gathered.fatal;
  const extra: Diagnostic[] = [...gathered.diagnostics];
  const handlers = await loadCommandHandlers(options.plugin, io.cwd);
  if (handlers.refused) extra.push(handlers.diagnostic);
  fatal ||= handlers.refused;
  // An unreadable path still exits 2, but the readable inputs are linted and reported too.
  const report: Pick<LintReport, 'diagnostics' | 'files' | 'sources'> = handlers.refused
    ? { diagnostics: [], files: [], sources: new Map() }
    : lintInputs(gathered.inputs, handlers.catalogue, {
        severityOf: severityLayers(run, flags, io.cwd, await globMatcher(run), STRICT_CAPABILITY_CODES),
        platform: platformOptions(options.platform, options.platformDefault),
      });
  if (!fatal && !gathered.inputs.some((i) => i.origin !== 'definition') && extra.length === 0) {
    extra.push(fileDiagnostic(paths.join(' ') || '<command line>', 'io-error', 'no input found: no *.yaml or *.yml files in the paths given'));
    fatal = true;
  }
  const diagnostics = [...extra, ...report.diagnostics].sort(compareDiagnostics);
  const code = exitCodeOf(diagnostics, { fatal, strict: options.strict === true });
  const text = renderReport(options.format, {
    valid: code === 0,
    diagnostics,
    files: report.files,
    sources: report.sources,
    palette,
    strict: options.strict === true,
  });
  io.stdout(`${text}\n`);
  return code;
}
