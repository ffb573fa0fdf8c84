import { assembleCatalogue } from '../../catalogue/assemble-catalogue.js';
import { readCatalogueLockfile } from '../../catalogue/lockfile.js';
import { appendAll } from '../../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import { STDIN_NAME } from '../../files/gather-inputs.js';
import { fileOfLockKey } from '../../files/lockfile-location.js';
import type { OutdatedEnvelope } from '../../operations/envelopes.js';
import { lintInputs } from '../../operations/lint.js';
import { isOutdated, type OutdatedRow, outdatedRows } from '../../operations/outdated.js';
import type { Platform } from '../../schema/platform-version.js';
import { type CatalogueCommandOptions, configOf } from '../../sources/apply-config.js';
import { lockFollowing } from '../../sources/command-lockfile.js';
import { gatherReadInputs } from '../../sources/definition-entries.js';
import { platformOptions } from '../../sources/platform-flags.js';
import type { SourceText } from '../../yaml/source.js';
import { configureCommand } from '../configure-command.js';
import { formatTable } from '../format/table.js';
import type { CommandIo } from '../io.js';
import { printResult } from '../print-result.js';

/** Options of `kurel outdated`. */
export interface OutdatedCommandOptions extends CatalogueCommandOptions {
  format: 'text' | 'json';
  /** `--check`: exit 1 when any binding is outdated (for CI). */
  check?: boolean;
  stdinFilepath?: string;
  /** `--platform COMPONENT=VERSION` flags: they win over every profile's spec.platform. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under each profile's own. */
  platformDefault?: Platform;
}

/**
 * Runs `kurel outdated` (docs/versions.md): for every binding of a versioned definition, its pin, the
 * version it resolves to (its locked one when locked), the highest its pin allows and the
 * highest release. Without paths, the profiles the lockfile lists. Exit 0 unless the inputs
 * have errors (1), `--check` finds a binding outdated (1), or the inputs cannot be read (2).
 */
export async function runOutdated(paths: readonly string[], flags: OutdatedCommandOptions, io: CommandIo): Promise<number> {
  const configured = configureCommand(flags, io, (problems, sources) => finish(flags, io, problems, true, [], sources));
  if (!configured.ok) return configured.exitCode;
  const { options, run } = configured;
  const diagnostics: Diagnostic[] = [];
  // Read before the catalogue: without paths, the profiles to read are the ones it lists.
  const lockfile = readCatalogueLockfile({ flag: options.lockfile, config: configOf(run) }, io.cwd);
  appendAll(diagnostics, lockfile.diagnostics);
  let fatal = lockfile.fatal;
  let inputs = [...paths];
  if (inputs.length === 0 && !fatal) {
    if (!lockfile.lock || !lockfile.location) {
      diagnostics.push(fileDiagnostic('<command line>', 'usage', 'kurel outdated needs profiles to read: name them, or run it where a lockfile lists them'));
      return finish(options, io, diagnostics, true, []);
    }
    const location = lockfile.location;
    inputs = Object.keys(lockfile.lock.profiles).map((key) => fileOfLockKey(key, location.path, io.cwd));
  }
  const gathered = await gatherReadInputs(
    {
      paths: inputs,
      definitionDirs: options.definitions,
      definitionFiles: options.capabilityDef,
      ...(options.stdinFilepath ? { stdinName: options.stdinFilepath } : {}),
      cwd: io.cwd,
    },
    io.stdin,
  );
  appendAll(diagnostics, gathered.diagnostics);
  fatal ||= gathered.fatal;
  const assembly = await assembleCatalogue({ plugins: options.plugin, cwd: io.cwd, lockfile: { read: lockfile } });
  if (!assembly.ok) {
    appendAll(diagnostics, assembly.refusal.diagnostics);
    return finish(options, io, diagnostics, true, []);
  }
  const report = lintInputs(gathered.inputs, assembly.catalogue, {
    strictCapabilities: options.strictCapabilities === true,
    platform: platformOptions(options.platform, options.platformDefault),
    requirePinned: options.requirePinned === true,
    lock: lockFollowing(lockfile, io.cwd, 'follow', { unnamedStdin: options.stdinFilepath ? undefined : STDIN_NAME }),
  });
  appendAll(diagnostics, report.diagnostics);
  const sources = new Map([...lockfile.sources, ...report.sources]);
  return finish(options, io, diagnostics, fatal, outdatedRows(report.profiles, report.catalogue), sources);
}

function finish(
  options: OutdatedCommandOptions,
  io: CommandIo,
  diagnostics: Diagnostic[],
  fatal: boolean,
  rows: OutdatedRow[],
  sources: Map<string, SourceText> = new Map(),
): number {
  const outdated = rows.filter(isOutdated).length;
  const failed = options.check === true && outdated > 0;
  return printResult(
    io,
    { diagnostics, fatal, failed, sources },
    {
      json: options.format === 'json',
      envelope: ({ valid, reported }): OutdatedEnvelope => ({ valid, diagnostics: reported.diagnostics, bindings: rows }),
      text: ({ reported, problemsText }) => {
        if (reported.diagnostics.length > 0) io.stderr(`${problemsText('stderr')}\n`);
        io.stdout(`${formatOutdatedTable(rows)}\n`);
        if (failed) io.stderr(`${outdated} of ${rows.length} binding${rows.length === 1 ? '' : 's'} outdated: below WANTED or LATEST\n`);
      },
    },
  );
}

const COLUMNS = ['PATH', 'KEY', 'TYPE', 'PIN', 'RESOLVED', 'LOCKED', 'WANTED', 'LATEST'] as const;

/** The rows of `kurel outdated` as a plain-text table (`-` for an absent value). */
export function formatOutdatedTable(rows: readonly OutdatedRow[]): string {
  return formatTable(
    COLUMNS,
    rows.map((r) => [r.path, r.key, r.type, r.pin, r.resolved, r.locked, r.wanted, r.latest].map((cell) => cell ?? '-')),
  );
}
