import type { PluginRef } from '../../catalogue/load-plugins.js';
import { appendAll } from '../../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import { gatherInputs, STDIN_NAME } from '../../files/gather-inputs.js';
import { type LintReport, lintInputs } from '../../operations/lint.js';
import { reportProblems } from '../../operations/report-problems.js';
import type { Platform } from '../../schema/platform-version.js';
import { type ConfigurableOptions, configOf, configureCommand } from '../apply-config.js';
import { loadCommandHandlers } from '../command-catalogue.js';
import { lockFollowing, readCommandLockfile } from '../command-lockfile.js';
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
  /** `--require-pinned` (false with `--no-require-pinned`). */
  requirePinned?: boolean;
  /** `--lockfile FILE`, or false for `--no-lockfile`. */
  lockfile?: string | false;
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
    const reported = reportProblems(diagnostics);
    io.stdout(`${renderReport(flags.format, { valid: false, diagnostics: reported.diagnostics, problems: reported, files: [], sources, palette })}\n`);
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
  const lockfile = readCommandLockfile(options, io.cwd, { config: configOf(run) });
  appendAll(extra, lockfile.diagnostics);
  fatal ||= lockfile.fatal;
  // An unreadable path still exits 2, but the readable inputs are linted and reported too.
  const report: Pick<LintReport, 'diagnostics' | 'files' | 'sources'> = handlers.refused
    ? { diagnostics: [], files: [], sources: new Map() }
    : lintInputs(gathered.inputs, handlers.catalogue, {
        severityOf: severityLayers(run, flags, io.cwd, await globMatcher(run), STRICT_CAPABILITY_CODES),
        platform: platformOptions(options.platform, options.platformDefault),
        requirePinned: options.requirePinned === true,
        lock: lockFollowing(lockfile, io.cwd, 'follow', { unnamedStdin: options.stdinFilepath ? undefined : STDIN_NAME }),
      });
  for (const [file, source] of lockfile.sources) report.sources.set(file, source);
  if (!fatal && !gathered.inputs.some((i) => i.origin !== 'definition') && extra.length === 0) {
    extra.push(fileDiagnostic(paths.join(' ') || '<command line>', 'io-error', 'no input found: no *.yaml or *.yml files in the paths given'));
    fatal = true;
  }
  const diagnostics = [...extra, ...report.diagnostics];
  const code = exitCodeOf(diagnostics, { fatal, strict: options.strict === true });
  const reported = reportProblems(diagnostics);
  const text = renderReport(options.format, {
    valid: code === 0,
    diagnostics: reported.diagnostics,
    problems: reported,
    files: report.files,
    sources: report.sources,
    palette,
    strict: options.strict === true,
  });
  io.stdout(`${text}\n`);
  return code;
}
