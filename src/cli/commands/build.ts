import { realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { appendAll } from '../../core/data.js';
import { compareDiagnostics, type Diagnostic, unsuppressed } from '../../core/diagnostics.js';
import type { FileReport, InputFile } from '../../core/input.js';
import { stringifyJson } from '../../core/json-text.js';
import { PROFILE } from '../../documents/read-input.js';
import { expandFileArguments } from '../../files/expand-globs.js';
import { isDirectory } from '../../files/gather-inputs.js';
import { type ReadResult, readSourceFile } from '../../files/read-file.js';
import { type BuildReport, buildApplication, type ResolvedApplication } from '../../operations/build-application.js';
import { buildEnvelope } from '../../operations/envelopes.js';
import { flagComponentDiagnostics } from '../../operations/platform.js';
import { reportProblems } from '../../operations/report-problems.js';
import type { Platform } from '../../schema/platform-version.js';
import type { CatalogueCommandOptions } from '../../sources/apply-config.js';
import { assembleCommandCatalogue } from '../../sources/command-catalogue.js';
import { lockFollowing } from '../../sources/command-lockfile.js';
import { gatherReadInputs, registeredSourceResolver } from '../../sources/definition-entries.js';
import { platformOfFlags, platformOptions } from '../../sources/platform-flags.js';
import { registryResolver } from '../../sources/registry-resolver.js';
import type { SourceText } from '../../yaml/source.js';
import { yaml } from '../../yaml/yaml-lib.js';
import { configureCommand, textRefusal } from '../configure-command.js';
import { exitCodeOf } from '../exit-code.js';
import { formatTable } from '../format/table.js';
import { type ColorChoice, summarize } from '../format/text.js';
import type { CommandIo } from '../io.js';
import { printResult } from '../print-result.js';
import { lockedSourcesOf, registryAccessOf, unlockedSources } from '../registry-access.js';

/** How `kurel build` prints its result. */
export const BUILD_FORMATS = ['text', 'json'] as const;
/** How `kurel build` prints the resolved application when the format is text. */
export const BUILD_OUTPUTS = ['yaml', 'json'] as const;

/** Options of `kurel build`. */
export interface BuildCommandOptions extends CatalogueCommandOptions {
  /** Every `--profile` (files or globs). */
  profile: string[];
  output: (typeof BUILD_OUTPUTS)[number];
  /** `--color`; `auto` by default. */
  color?: ColorChoice;
  format: (typeof BUILD_FORMATS)[number];
  /** `--platform COMPONENT=VERSION` flags: they win over the profile's spec.platform. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under the profile's own. */
  platformDefault?: Platform;
}

/** The file name of the application in a package directory. */
const APP_FILE = 'app.yaml';

/** One application judged against one profile. */
export interface ProfileResult {
  profile: string;
  valid: boolean;
  diagnostics: Diagnostic[];
  application: ResolvedApplication | null;
}

/**
 * Runs `kurel build <app.yaml|package-dir>`; returns the exit code. The package directory is
 * the app file's folder, and its `definitions/` is always loaded. With several profiles (or a
 * glob), the application is judged against each, and the exit code is 1 when any fails.
 */
export async function runBuild(target: string, flags: BuildCommandOptions, io: CommandIo): Promise<number> {
  const configured = configureCommand(flags, io, (problems, sources) =>
    printResult(
      io,
      { diagnostics: problems, fatal: true },
      {
        json: flags.format === 'json',
        envelope: ({ valid, reported }) => buildEnvelope(valid, reported.diagnostics, [], null),
        text: () => textRefusal(io)(problems, sources),
      },
    ),
  );
  if (!configured.ok) return configured.exitCode;
  const { options, run } = configured;
  const diagnostics: Diagnostic[] = [];
  let fatal = false;
  const isPackageDir = await isDirectory(resolve(io.cwd, target));
  const appFile = isPackageDir ? join(target, APP_FILE) : target;
  const packageDefinitions = join(isPackageDir ? target : dirname(target), 'definitions');

  // The lockfile is read first: a registry source is fetched by the digest it locks (docs/registries.md).
  const assembly = await assembleCommandCatalogue(options, run, io.cwd);
  const lockfile = assembly.ok ? assembly.lockfile : assembly.refusal.lockfile;
  const gathered = await gatherReadInputs(
    {
      definitionDirs: [...options.definitions, ...((await isDirectory(resolve(io.cwd, packageDefinitions))) ? [packageDefinitions] : [])],
      definitionFiles: options.capabilityDef,
      cwd: io.cwd,
    },
    undefined,
    {
      resolve: registeredSourceResolver() ?? registryResolver(registryAccessOf(options, run, io)),
      lockedSources: lockedSourcesOf(options.definitions, lockfile.lock?.sources),
    },
  );
  appendAll(diagnostics, gathered.diagnostics);
  appendAll(diagnostics, unlockedSources(options.definitions, lockfile));
  fatal ||= gathered.fatal;
  const profiles = await expandFileArguments(options.profile, io.cwd);
  appendAll(diagnostics, profiles.diagnostics);
  fatal ||= profiles.diagnostics.length > 0;
  const application = readSourceFile(resolve(io.cwd, appFile), appFile);
  if (!application.ok) {
    diagnostics.push(application.diagnostic);
    fatal ||= application.unreadable;
  }

  if (!assembly.ok) appendAll(diagnostics, assembly.refusal.diagnostics);
  fatal ||= !assembly.ok;
  const catalogue = assembly.ok ? assembly.catalogue : undefined;
  // A --platform component one edit from a known one is likely a slip (docs/platform.md).
  if (catalogue) appendAll(diagnostics, flagComponentDiagnostics(platformOfFlags(options.platform), catalogue));
  appendAll(diagnostics, lockfile.diagnostics);
  fatal ||= lockfile.fatal;
  const lock = lockFollowing(lockfile, io.cwd, 'follow');
  const definitions = await withoutRepeatedFiles(gathered.inputs);

  const results: { profile: string; read: ReadResult; report: BuildReport | undefined }[] = [];
  for (const file of profiles.files) {
    const read = readSourceFile(resolve(io.cwd, file), file);
    if (!read.ok) fatal ||= read.unreadable;
    let report: BuildReport | undefined;
    if (catalogue && application.ok && read.ok) {
      report = buildApplication(
        { application: { file: appFile, content: application.bytes }, profile: { file, content: read.bytes }, definitions },
        catalogue,
        {
          strictCapabilities: options.strictCapabilities === true,
          platform: platformOptions(options.platform, options.platformDefault),
          requirePinned: options.requirePinned === true,
          lock,
        },
      );
    }
    results.push({ profile: file, read, report });
  }
  const sources = new Map<string, SourceText>(lockfile.sources);
  for (const { report } of results) for (const [file, source] of report?.sources ?? []) sources.set(file, source);
  const many = profiles.files.length > 1 || profiles.hadGlob;
  if (!many) return printSingle(results[0], { diagnostics, fatal, sources, appFile, application }, options, io);

  const perProfile: ProfileResult[] = results.map(({ profile, read, report }) => {
    const own = [...diagnostics, ...(read.ok ? [] : [read.diagnostic]), ...(report?.diagnostics ?? [])].sort(compareDiagnostics);
    const valid = exitCodeOf(own, { fatal }) === 0;
    return { profile, valid, diagnostics: own, application: valid ? (report?.application ?? null) : null };
  });
  const all = uniqueDiagnostics(perProfile.flatMap((r) => r.diagnostics).concat(diagnostics));
  const files = uniqueFiles(results.flatMap((r) => r.report?.files ?? []));
  return printResult(
    io,
    { diagnostics: all, fatal, failed: !perProfile.every((r) => r.valid), sources },
    {
      json: options.format === 'json',
      color: options.color,
      envelope: ({ valid, reported }) => ({
        valid,
        diagnostics: reported.diagnostics,
        files,
        results: perProfile.map((r) => ({ ...r, diagnostics: reportProblems(r.diagnostics).diagnostics })),
      }),
      text: ({ reported, problemsText }) => {
        if (all.length > 0) io.stderr(`${withBody(problemsText('stderr', unsuppressed(reported.diagnostics)))}${summarize(reported, files)}\n`);
        io.stdout(
          `${formatProfileTable(
            perProfile,
            results.map((r) => r.report?.versions ?? {}),
          )}\n`,
        );
      },
    },
  );
}

/** One profile: the envelope and output `kurel build` always had. */
function printSingle(
  result: { profile: string; read: ReadResult; report: BuildReport | undefined } | undefined,
  run: { diagnostics: Diagnostic[]; fatal: boolean; sources: Map<string, SourceText>; appFile: string; application: ReadResult },
  options: BuildCommandOptions,
  io: CommandIo,
): number {
  const diagnostics = [...run.diagnostics];
  let fatal = run.fatal;
  if (result && !result.read.ok) {
    diagnostics.push(result.read.diagnostic);
    fatal ||= result.read.unreadable;
  }
  const report = result?.report;
  appendAll(diagnostics, report?.diagnostics ?? []);
  return printResult(
    io,
    { diagnostics, fatal, sources: run.sources },
    {
      json: options.format === 'json',
      color: options.color,
      envelope: ({ valid, reported }) => buildEnvelope(valid, reported.diagnostics, report?.files ?? [], report?.application ?? null),
      text: ({ valid, reported, problemsText }) => {
        if (diagnostics.length > 0) {
          const checked =
            report?.files ?? readReports([run.appFile, 'Application', run.application], ...(result ? [[result.profile, PROFILE, result.read] as const] : []));
          io.stderr(`${withBody(problemsText('stderr', unsuppressed(reported.diagnostics)))}${summarize(reported, checked)}\n`);
        }
        const resolved = valid ? report?.application : undefined;
        if (resolved) {
          io.stdout(options.output === 'json' ? `${stringifyJson(resolved)}\n` : yaml().stringify(resolved, { lineWidth: 0, aliasDuplicateObjects: false }));
        }
      },
    },
  );
}

const TABLE_COLUMNS = ['PROFILE', 'VERDICT', 'VERSIONS', 'FIRST ERROR'] as const;

/**
 * The table a build against several profiles ends with: each profile, its verdict, the
 * definition versions its bindings resolved to, and its first error.
 */
export function formatProfileTable(results: readonly ProfileResult[], versions: readonly Record<string, string>[]): string {
  const rows = results.map((r, i) => {
    const resolved = Object.entries(versions[i] ?? {})
      .map(([key, version]) => `${key}@${version}`)
      .join(', ');
    const first = r.diagnostics.find((d) => d.severity === 'error' && d.suppressed === undefined);
    const error = first ? `${first.file}:${first.line}:${first.column} ${first.code} ${first.message}` : '-';
    return [r.profile, r.valid ? 'valid' : 'invalid', resolved || '-', error];
  });
  return formatTable(TABLE_COLUMNS, rows);
}

function uniqueDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const key = JSON.stringify(d);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.sort(compareDiagnostics);
}

function uniqueFiles(files: readonly FileReport[]): FileReport[] {
  const seen = new Map<string, FileReport>();
  for (const file of files) if (!seen.has(file.path)) seen.set(file.path, file);
  return [...seen.values()];
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
function readReports(...reads: (readonly [path: string, kind: string, read: ReadResult])[]): FileReport[] {
  return reads.filter(([, , read]) => read.ok).map(([path, kind]) => ({ path, kind, status: 'checked' }));
}

// Diagnostics, each with its lines, then the summary; nothing before the summary when every problem was suppressed.
function withBody(text: string): string {
  return text === '' ? '' : `${text}\n`;
}
