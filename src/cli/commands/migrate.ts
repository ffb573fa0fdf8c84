import { resolve } from 'node:path';
import { appendAll, compareBytes } from '../../core/data.js';
import { type Diagnostic, fileDiagnostic, hasErrors } from '../../core/diagnostics.js';
import { STDIN_NAME } from '../../files/gather-inputs.js';
import { contentDigest, describeReplaceFailure, replaceFiles } from '../../files/write-file.js';
import type { MigrateEnvelope } from '../../operations/envelopes.js';
import { type MigratedFile, type MigrateReport, migrateInputs, readMigrationTargets } from '../../operations/migrate.js';
import { unifiedDiff } from '../../operations/unified-diff.js';
import type { Platform } from '../../schema/platform-version.js';
import type { CatalogueCommandOptions } from '../../sources/apply-config.js';
import { assembleCommandCatalogue } from '../../sources/command-catalogue.js';
import { lockFollowing } from '../../sources/command-lockfile.js';
import { gatherReadInputs } from '../../sources/definition-entries.js';
import { platformOptions } from '../../sources/platform-flags.js';
import type { SourceText } from '../../yaml/source.js';
import { configureCommand } from '../configure-command.js';
import { EXIT, exitCodeOf } from '../exit-code.js';
import { escapeControls } from '../format/escape.js';
import { type Palette, summarize } from '../format/text.js';
import type { CommandIo } from '../io.js';
import { printResult } from '../print-result.js';

/** Options of `kurel migrate`. */
export interface MigrateCommandOptions extends CatalogueCommandOptions {
  /** `--to NAME@VERSION` flags. */
  to: string[];
  write: boolean;
  check: boolean;
  lossy: boolean;
  format: 'text' | 'json';
  stdinFilepath?: string;
  /** `--platform COMPONENT=VERSION` flags: they win over every profile's spec.platform. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under each profile's own. */
  platformDefault?: Platform;
}

/**
 * Runs `kurel migrate` (docs/migrate.md): prints the unified diff of every profile that would
 * change; `--check` exits 1 when any would; `--write` rewrites them, atomically and only when the
 * run has no error. Exit 0 for a clean migration, 1 for errors, 2 for bad usage.
 */
export async function runMigrate(paths: readonly string[], flags: MigrateCommandOptions, io: CommandIo): Promise<number> {
  const configured = configureCommand(flags, io, (diagnostics, sources) => finish(flags, io, { diagnostics, fatal: true, sources }));
  if (!configured.ok) return configured.exitCode;
  const { options, run } = configured;
  const usage = (message: string) => fileDiagnostic('<command line>', 'usage', message);
  const reading = readMigrationTargets(options.to);
  if (reading.problems.length > 0) return finish(options, io, { diagnostics: reading.problems.map((p) => usage(`--to ${p}`)), fatal: true });
  if (options.write && paths.includes('-'))
    return finish(options, io, { diagnostics: [usage('--write cannot rewrite standard input; name the file instead')], fatal: true });

  const gathered = await gatherReadInputs(
    {
      paths,
      definitionDirs: options.definitions,
      definitionFiles: options.capabilityDef,
      ...(options.stdinFilepath ? { stdinName: options.stdinFilepath } : {}),
      cwd: io.cwd,
    },
    io.stdin,
  );
  const diagnostics: Diagnostic[] = [...gathered.diagnostics];
  let fatal = gathered.fatal;
  const assembly = await assembleCommandCatalogue(options, run, io.cwd);
  // A refused start stops the run before its lockfile is judged.
  if (!assembly.ok) {
    appendAll(diagnostics, assembly.refusal.diagnostics);
    return finish(options, io, { diagnostics, fatal: true });
  }
  const { lockfile } = assembly;
  appendAll(diagnostics, lockfile.diagnostics);
  fatal ||= lockfile.fatal;
  if (!fatal && !gathered.inputs.some((i) => i.origin !== 'definition')) {
    diagnostics.push(fileDiagnostic(paths.join(' ') || '<command line>', 'io-error', 'no input found: no *.yaml or *.yml files in the paths given'));
    fatal = true;
  }
  if (fatal) return finish(options, io, { diagnostics, fatal, sources: lockfile.sources });

  const report = migrateInputs(gathered.inputs, assembly.catalogue, reading.targets, {
    lossy: options.lossy,
    strictCapabilities: options.strictCapabilities === true,
    requirePinned: options.requirePinned === true,
    platform: platformOptions(options.platform, options.platformDefault),
    lock: lockFollowing(lockfile, io.cwd, 'follow', { unnamedStdin: options.stdinFilepath ? undefined : STDIN_NAME }),
  });
  appendAll(diagnostics, report.diagnostics);
  const sources = new Map([...lockfile.sources, ...report.sources]);
  const code = exitCodeOf(diagnostics, { fatal: report.fatal });
  let written = false;
  if (options.write && code === EXIT.ok) {
    const changed = report.files.filter((f) => f.changed);
    // Each file is replaced only while it holds the bytes the migration read (README "Writing files").
    const read = new Map(gathered.inputs.map((input) => [input.file, input.content]));
    const outcome = replaceFiles(
      changed.map((f) => ({
        file: f.path,
        path: resolve(io.cwd, f.path),
        readDigest: contentDigest(read.get(f.path) ?? ''),
        content: f.bom ? `\ufeff${f.after}` : f.after,
      })),
    );
    if (!outcome.ok) {
      for (const { file, message } of describeReplaceFailure(outcome, 'kurel migrate')) {
        diagnostics.push(fileDiagnostic(file, 'io-error', message));
        // About the whole file: no excerpt of its first line.
        sources.delete(file);
      }
      return finish(options, io, { diagnostics, fatal: true, sources, report });
    }
    written = changed.length > 0;
  }
  return finish(options, io, { diagnostics, fatal: report.fatal, sources, report, written });
}

interface MigrateOutcome {
  diagnostics: Diagnostic[];
  fatal: boolean;
  sources?: Map<string, SourceText>;
  report?: MigrateReport;
  written?: boolean;
}

function finish(options: MigrateCommandOptions, io: CommandIo, outcome: MigrateOutcome): number {
  const files = outcome.fatal ? [] : [...(outcome.report?.files ?? [])].sort((a, b) => compareBytes(a.path, b.path));
  const changed = files.filter((f) => f.changed);
  const written = outcome.written === true;
  const lockOutdated = outcome.report?.lockOutdated ?? false;
  const result = { diagnostics: outcome.diagnostics, fatal: outcome.fatal, failed: options.check && changed.length > 0, sources: outcome.sources ?? new Map() };
  return printResult(io, result, {
    json: options.format === 'json',
    envelope: ({ valid, reported }): MigrateEnvelope => ({
      valid,
      diagnostics: reported.diagnostics,
      files: files.map((f) => ({ path: f.path, changed: f.changed, diff: unifiedDiff(f.path, f.before, f.after) })),
      written,
      lockOutdated,
    }),
    text: ({ reported, palette, problemsText }) => {
      const diff = changed.map((f) => printableDiff(unifiedDiff(f.path, f.before, f.after), palette('stdout'))).join('');
      if (diff !== '') io.stdout(diff);
      const lines: string[] = [];
      if (reported.diagnostics.length > 0) {
        lines.push(problemsText('stderr'));
        if (!outcome.fatal) lines.push(summarize(reported, files.length));
      }
      if (outcome.report && !outcome.fatal) lines.push(statusLine(options, hasErrors(outcome.diagnostics), changed, written));
      if (written && lockOutdated) lines.push('run kurel lock');
      if (lines.length > 0) io.stderr(`${lines.join('\n')}\n`);
    },
  });
}

function statusLine(options: MigrateCommandOptions, failed: boolean, changed: readonly MigratedFile[], written: boolean): string {
  const count = `${changed.length} file${changed.length === 1 ? '' : 's'}`;
  if (written) return `migrated ${count}: ${changed.map((f) => escapeControls(f.path)).join(', ')}`;
  if (failed) return options.write ? 'nothing written: fix the errors above first' : 'the migration has errors: fix them before writing it';
  if (changed.length === 0) return 'nothing to migrate: every binding is already at the version asked for';
  if (options.check) return `${count} would change: run kurel migrate with --write`;
  return `${count} would change; run again with --write to rewrite ${changed.length === 1 ? 'it' : 'them'}`;
}

/**
 * A diff made safe to print (docs/profiles.md): control characters in the files' lines are escaped,
 * except tabs and the carriage return of a CRLF line ending; on a terminal, removed lines are red
 * and added ones green.
 */
function printableDiff(diff: string, palette: Palette): string {
  return diff
    .split('\n')
    .map((line, index, all) => {
      if (index === all.length - 1) return line;
      const crlf = line.endsWith('\r');
      const body = escapeControls(crlf ? line.slice(0, -1) : line) + (crlf ? '\r' : '');
      if (line.startsWith('+') && !line.startsWith('+++ ')) return palette.green(body);
      if (line.startsWith('-') && !line.startsWith('--- ')) return palette.red(body);
      return body;
    })
    .join('\n');
}
