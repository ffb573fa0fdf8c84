import { appendAll } from '../../core/data.js';
import { compareDiagnostics, type Diagnostic, fileDiagnostic, hasErrors } from '../../core/diagnostics.js';
import type { FileReport } from '../../core/input.js';
import { stringifyJson } from '../../core/json-text.js';
import { writeLockText } from '../../documents/capability-lock.js';
import { gatherInputs, STDIN_NAME } from '../../files/gather-inputs.js';
import { lockKeyOf } from '../../files/lockfile-location.js';
import { writeFileAtomically } from '../../files/write-file.js';
import type { LockEnvelope } from '../../operations/envelopes.js';
import { lintInputs } from '../../operations/lint.js';
import { type LockPlan, planLock } from '../../operations/lock.js';
import { reportProblems } from '../../operations/report-problems.js';
import type { Platform } from '../../schema/platform-version.js';
import type { SourceText } from '../../yaml/source.js';
import { type CatalogueCommandOptions, configOf, configureCommand } from '../apply-config.js';
import { loadCommandHandlers } from '../command-catalogue.js';
import { lockFollowing, lockKeyExists, readCommandLockfile } from '../command-lockfile.js';
import { EXIT, exitCodeOf } from '../exit-code.js';
import { formatText, paletteFor, summarize } from '../format/text.js';
import type { CommandIo } from '../io.js';
import { platformOptions } from '../platform-flags.js';

/** Options of `kurel lock`. */
export interface LockCommandOptions extends CatalogueCommandOptions {
  check: boolean;
  update: boolean;
  format: 'text' | 'json';
  stdinFilepath?: string;
  /** `--platform COMPONENT=VERSION` flags: they win over every profile's spec.platform. */
  platform?: string[];
  /** The repository's default platform (the config file's `platform`), under each profile's own. */
  platformDefault?: Platform;
}

/**
 * Runs `kurel lock` (DESIGN §8.3, §11): lints the profiles following the existing lockfile (a
 * lock is stable), then writes the lockfile when its data changes; `--check` writes nothing and
 * exits 1 when it would; any error in the inputs writes nothing (exit 1).
 */
export async function runLock(paths: readonly string[], flags: LockCommandOptions, io: CommandIo): Promise<number> {
  const configured = configureCommand(flags, io, (diagnostics, sources) => finish(flags, io, { diagnostics, fatal: true, sources }));
  if (!configured.ok) return configured.exitCode;
  const { options, run } = configured;
  if (options.lockfile === false) {
    return finish(options, io, {
      diagnostics: [fileDiagnostic('<command line>', 'usage', 'kurel lock writes a lockfile; --no-lockfile leaves it nowhere to go')],
      fatal: true,
    });
  }
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
  const diagnostics: Diagnostic[] = [...gathered.diagnostics];
  let fatal = gathered.fatal;
  const handlers = await loadCommandHandlers(options.plugin, io.cwd);
  if (handlers.refused) diagnostics.push(handlers.diagnostic);
  fatal ||= handlers.refused;
  const lockfile = readCommandLockfile(options, io.cwd, { config: configOf(run), mayBeMissing: true });
  appendAll(diagnostics, lockfile.diagnostics);
  fatal ||= lockfile.fatal;
  const location = lockfile.location!;
  const sources = new Map(lockfile.sources);
  if (!fatal && !gathered.inputs.some((i) => i.origin !== 'definition')) {
    diagnostics.push(fileDiagnostic(paths.join(' ') || '<command line>', 'io-error', 'no input found: no *.yaml or *.yml files in the paths given'));
    fatal = true;
  }
  if (fatal || handlers.refused) return finish(options, io, { diagnostics, fatal: true, sources, lockfile: location.display });

  const unnamedStdin = options.stdinFilepath ? undefined : STDIN_NAME;
  const following = lockFollowing(lockfile, io.cwd, 'stable', { unnamedStdin, update: options.update });
  const report = lintInputs(gathered.inputs, handlers.catalogue, {
    strictCapabilities: options.strictCapabilities === true,
    platform: platformOptions(options.platform, options.platformDefault),
    requirePinned: options.requirePinned === true,
    lock: following,
  });
  appendAll(diagnostics, report.diagnostics);
  for (const [file, source] of report.sources) sources.set(file, source);
  const checked = report.files;
  if (hasErrors(diagnostics)) return finish(options, io, { diagnostics, fatal: false, sources, lockfile: location.display, checked });

  const plan = planLock(report.profiles, report.catalogue, lockfile.lock, {
    keyOf: (file) => (file === unnamedStdin ? undefined : lockKeyOf(file, location.path, io.cwd)),
    exists: (key) => lockKeyExists(key, location),
  });
  if (plan.changed && !options.check) {
    try {
      writeFileAtomically(location.path, writeLockText(plan.lock));
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? String(err);
      diagnostics.push(fileDiagnostic(location.display, 'io-error', `cannot write ${location.display}: ${reason}`));
      return finish(options, io, { diagnostics, fatal: true, sources, lockfile: location.display, checked });
    }
  }
  return finish(options, io, { diagnostics, fatal: false, sources, lockfile: location.display, plan, checked });
}

interface LockOutcome {
  diagnostics: Diagnostic[];
  fatal: boolean;
  sources?: Map<string, SourceText>;
  lockfile?: string;
  /** Present when the inputs were clean and a lockfile was planned. */
  plan?: LockPlan;
  /** The files read, for the summary line. */
  checked?: readonly FileReport[];
}

function finish(options: LockCommandOptions, io: CommandIo, outcome: LockOutcome): number {
  const all = [...outcome.diagnostics].sort(compareDiagnostics);
  const reported = reportProblems(all);
  const diagnostics = reported.diagnostics;
  const changed = outcome.plan?.changed ?? false;
  let code = exitCodeOf(all, { fatal: outcome.fatal });
  if (code === EXIT.ok && options.check && changed) code = EXIT.problems;
  if (options.format === 'json') {
    const envelope: LockEnvelope = { valid: code === EXIT.ok, diagnostics, lockfile: outcome.lockfile ?? null, changed };
    io.stdout(`${stringifyJson(envelope)}\n`);
    return code;
  }
  const lines: string[] = [];
  if (diagnostics.length > 0) {
    lines.push(formatText(diagnostics, outcome.sources ?? new Map(), paletteFor(io.stdoutIsTTY ? { isTTY: true } : {}, io.env)));
    lines.push(summarize(reported, outcome.checked ?? []));
  }
  const name = outcome.lockfile ?? 'the lockfile';
  if (!outcome.plan) {
    if (outcome.lockfile !== undefined) lines.push(`${name} not written: fix the errors above first`);
  } else if (!changed) {
    lines.push(`${name} is up to date`);
  } else if (options.check) {
    lines.push(`${name} is out of date: run kurel lock to update it`);
  } else {
    const profiles = Object.keys(outcome.plan.lock.profiles).length;
    const versions = Object.values(outcome.plan.lock.definitions).reduce((n, byVersion) => n + Object.keys(byVersion).length, 0);
    lines.push(`wrote ${name}: ${profiles} profile${profiles === 1 ? '' : 's'}, ${versions} definition version${versions === 1 ? '' : 's'}`);
  }
  io.stdout(`${lines.join('\n')}\n`);
  return code;
}
