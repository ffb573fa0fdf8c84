import { realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { PluginRef } from '../../catalogue/load-plugins.js';
import { compareDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import type { FileReport, InputFile } from '../../core/input.js';
import { stringifyJson } from '../../core/json-text.js';
import { PROFILE } from '../../documents/read-input.js';
import { gatherInputs, isDirectory } from '../../files/gather-inputs.js';
import { type ReadResult, readSourceFile } from '../../files/read-file.js';
import { type BuildReport, buildApplication } from '../../operations/build-application.js';
import { buildEnvelope } from '../../operations/envelopes.js';
import type { Platform } from '../../schema/platform-version.js';
import { type ConfigurableOptions, configureCommand, textRefusal } from '../apply-config.js';
import { loadCommandHandlers } from '../command-catalogue.js';
import { exitCodeOf } from '../exit-code.js';
import { formatText, paletteFor, summarize } from '../format/text.js';
import type { CommandIo } from '../io.js';
import { platformOptions } from '../platform-flags.js';

/** How `kurel build` prints its result. */
export const BUILD_FORMATS = ['text', 'json'] as const;
/** How `kurel build` prints the resolved application when the format is text. */
export const BUILD_OUTPUTS = ['yaml', 'json'] as const;

/** Options of `kurel build`. */
export interface BuildCommandOptions extends ConfigurableOptions {
  profile: string;
  definitions: string[];
  capabilityDef: string[];
  plugin: PluginRef[];
  strictCapabilities?: boolean;
  output: (typeof BUILD_OUTPUTS)[number];
  format: (typeof BUILD_FORMATS)[number];
  /** `--platform COMPONENT=VERSION` flags: they win over the profile's spec.platform. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under the profile's own. */
  platformDefault?: Platform;
}

/** The file name of the application in a package directory. */
const APP_FILE = 'app.yaml';

/**
 * Runs `kurel build <app.yaml|package-dir>`; returns the exit code. The package directory is
 * the app file's folder, and its `definitions/` is always loaded.
 */
export async function runBuild(target: string, flags: BuildCommandOptions, io: CommandIo): Promise<number> {
  const configured = configureCommand(flags, io, (problems, sources) => {
    if (flags.format === 'json') io.stdout(`${stringifyJson(buildEnvelope(false, problems, [], null))}\n`);
    else textRefusal(io)(problems, sources);
  });
  if (!configured.ok) return configured.exitCode;
  const { options } = configured;
  const diagnostics: Diagnostic[] = [];
  let fatal = false;
  const isPackageDir = await isDirectory(target);
  const appFile = isPackageDir ? join(target, APP_FILE) : target;
  const packageDefinitions = join(isPackageDir ? target : dirname(target), 'definitions');

  const gathered = await gatherInputs({
    definitionDirs: [...options.definitions, ...((await isDirectory(packageDefinitions)) ? [packageDefinitions] : [])],
    definitionFiles: options.capabilityDef,
  });
  diagnostics.push(...gathered.diagnostics);
  fatal ||= gathered.fatal;
  const application = readSourceFile(appFile);
  const profile = readSourceFile(options.profile);
  for (const read of [application, profile]) {
    if (read.ok) continue;
    diagnostics.push(read.diagnostic);
    fatal ||= read.unreadable;
  }

  const handlers = await loadCommandHandlers(options.plugin, io.cwd);
  if (handlers.refused) diagnostics.push(handlers.diagnostic);
  fatal ||= handlers.refused;

  let report: BuildReport | undefined;
  if (!handlers.refused && application.ok && profile.ok) {
    report = buildApplication(
      {
        application: { file: appFile, content: application.bytes },
        profile: { file: options.profile, content: profile.bytes },
        definitions: await withoutRepeatedFiles(gathered.inputs),
      },
      handlers.catalogue,
      { strictCapabilities: options.strictCapabilities === true, platform: platformOptions(options.platform, options.platformDefault) },
    );
    diagnostics.push(...report.diagnostics);
  }
  diagnostics.sort(compareDiagnostics);
  const code = exitCodeOf(diagnostics, { fatal });
  const resolved = code === 0 ? (report?.application ?? null) : null;

  if (options.format === 'json') {
    io.stdout(`${stringifyJson(buildEnvelope(code === 0, diagnostics, report?.files ?? [], resolved))}\n`);
    return code;
  }
  if (diagnostics.length > 0) {
    const palette = paletteFor({ isTTY: io.stderrIsTTY }, io.env);
    const checked = report?.files ?? readReports([appFile, 'Application', application], [options.profile, PROFILE, profile]);
    io.stderr(`${formatText(diagnostics, report?.sources ?? new Map(), palette)}\n${summarize(diagnostics, checked)}\n`);
  }
  if (resolved) {
    io.stdout(options.output === 'json' ? `${stringifyJson(resolved)}\n` : stringify(resolved, { lineWidth: 0, aliasDuplicateObjects: false }));
  }
  return code;
}

/** The same definition file reached twice (a `--capability-def` inside the package's `definitions/`) is read once. */
async function withoutRepeatedFiles(inputs: readonly InputFile[]): Promise<InputFile[]> {
  const seen = new Set<string>();
  const unique: InputFile[] = [];
  for (const input of inputs) {
    const real = await realpath(input.file).catch(() => resolve(input.file));
    if (seen.has(real)) continue;
    seen.add(real);
    unique.push(input);
  }
  return unique;
}

// What a build that stopped before reading its documents can still count: the files it read.
function readReports(...reads: [path: string, kind: string, read: ReadResult][]): FileReport[] {
  return reads.filter(([, , read]) => read.ok).map(([path, kind]) => ({ path, kind, status: 'checked' }));
}
