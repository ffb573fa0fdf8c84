import { appendAll } from '../../core/data.js';
import { compareDiagnostics, type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import { stringifyJson } from '../../core/json-text.js';
import { gatherInputs, STDIN_NAME } from '../../files/gather-inputs.js';
import { fileOfLockKey } from '../../files/lockfile-location.js';
import type { OutdatedEnvelope } from '../../operations/envelopes.js';
import { lintInputs } from '../../operations/lint.js';
import { type OutdatedRow, outdatedRows } from '../../operations/outdated.js';
import type { Platform } from '../../schema/platform-version.js';
import type { SourceText } from '../../yaml/source.js';
import { type CatalogueCommandOptions, configOf, configureCommand } from '../apply-config.js';
import { loadCommandHandlers } from '../command-catalogue.js';
import { lockFollowing, readCommandLockfile } from '../command-lockfile.js';
import { exitCodeOf } from '../exit-code.js';
import { formatTable } from '../format/table.js';
import { formatText, paletteFor } from '../format/text.js';
import type { CommandIo } from '../io.js';
import { platformOptions } from '../platform-flags.js';

/** Options of `kurel outdated`. */
export interface OutdatedCommandOptions extends CatalogueCommandOptions {
  format: 'text' | 'json';
  stdinFilepath?: string;
  /** `--platform COMPONENT=VERSION` flags: they win over every profile's spec.platform. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under each profile's own. */
  platformDefault?: Platform;
}

/**
 * Runs `kurel outdated` (DESIGN §11): for every binding of a versioned definition, its pin, the
 * version it resolves to (its locked one when locked), the highest its pin allows and the
 * highest release. Without paths, the profiles the lockfile lists. Exit 0 unless the inputs
 * have errors (1) or cannot be read (2).
 */
export async function runOutdated(paths: readonly string[], flags: OutdatedCommandOptions, io: CommandIo): Promise<number> {
  const configured = configureCommand(flags, io, (problems, sources) => finish(flags, io, problems, true, [], sources));
  if (!configured.ok) return configured.exitCode;
  const { options, run } = configured;
  const diagnostics: Diagnostic[] = [];
  const lockfile = readCommandLockfile(options, io.cwd, { config: configOf(run) });
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
  const gathered = await gatherInputs(
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
  const handlers = await loadCommandHandlers(options.plugin, io.cwd);
  if (handlers.refused) {
    diagnostics.push(handlers.diagnostic);
    return finish(options, io, diagnostics, true, []);
  }
  const report = lintInputs(gathered.inputs, handlers.catalogue, {
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
  found: Diagnostic[],
  fatal: boolean,
  rows: OutdatedRow[],
  sources: Map<string, SourceText> = new Map(),
): number {
  const diagnostics = [...found].sort(compareDiagnostics);
  const code = exitCodeOf(diagnostics, { fatal });
  if (options.format === 'json') {
    const envelope: OutdatedEnvelope = { valid: code === 0, diagnostics, bindings: rows };
    io.stdout(`${stringifyJson(envelope)}\n`);
    return code;
  }
  if (diagnostics.length > 0) io.stderr(`${formatText(diagnostics, sources, paletteFor({ isTTY: io.stderrIsTTY }, io.env))}\n`);
  io.stdout(`${formatOutdatedTable(rows)}\n`);
  return code;
}

const COLUMNS = ['PATH', 'KEY', 'TYPE', 'PIN', 'RESOLVED', 'LOCKED', 'WANTED', 'LATEST'] as const;

/** The rows of `kurel outdated` as a plain-text table (`-` for an absent value). */
export function formatOutdatedTable(rows: readonly OutdatedRow[]): string {
  return formatTable(
    COLUMNS,
    rows.map((r) => [r.path, r.key, r.type, r.pin, r.resolved, r.locked, r.wanted, r.latest].map((cell) => cell ?? '-')),
  );
}
