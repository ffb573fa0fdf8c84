import { appendAll } from '../../core/data.js';
import { type Diagnostic, fileDiagnostic, hasErrors } from '../../core/diagnostics.js';
import type { FileReport } from '../../core/input.js';
import { sameLock, writeLockText } from '../../documents/capability-lock.js';
import { STDIN_NAME } from '../../files/gather-inputs.js';
import { lockKeyOf } from '../../files/lockfile-location.js';
import { describeReplaceFailure, replaceFiles } from '../../files/write-file.js';
import type { LockEnvelope } from '../../operations/envelopes.js';
import { lintInputs } from '../../operations/lint.js';
import { type LockPlan, planLock } from '../../operations/lock.js';
import type { Platform } from '../../schema/platform-version.js';
import type { CatalogueCommandOptions } from '../../sources/apply-config.js';
import { assembleCommandCatalogue } from '../../sources/command-catalogue.js';
import { lockFollowing, lockKeyExists } from '../../sources/command-lockfile.js';
import { gatherReadInputs } from '../../sources/definition-entries.js';
import { platformOptions } from '../../sources/platform-flags.js';
import type { SourceText } from '../../yaml/source.js';
import { configureCommand } from '../configure-command.js';
import { summarize } from '../format/text.js';
import type { CommandIo } from '../io.js';
import { type PrintedResult, printResult } from '../print-result.js';
import { lockedSourcesOf, recordingResolver, registryAccessOf, sourceOptionsOf, sourcesOfRun } from '../registry-access.js';

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
 * Runs `kurel lock` (docs/versions.md): lints the profiles following the existing lockfile (a
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
  // A lockfile keys each profile by its file: standard input without a name has nowhere to be locked.
  if (paths.includes('-') && !options.stdinFilepath) {
    return finish(options, io, {
      diagnostics: [
        fileDiagnostic('<command line>', 'usage', 'kurel lock keys each profile by its file, and standard input has none', {
          hint: 'name it with --stdin-filepath, such as --stdin-filepath clusters/prod.yaml, or give the file instead of -',
        }),
      ],
      fatal: true,
    });
  }
  const assembly = await assembleCommandCatalogue(options, run, io.cwd, { mayBeMissing: true });
  const lockfile = assembly.ok ? assembly.lockfile : assembly.refusal.lockfile;
  // Registry sources (docs/registries.md): a stable lock fetches each by the digest it locks, and
  // --update resolves every one afresh; what was resolved is what the lockfile's `sources` holds.
  const registry = recordingResolver(registryAccessOf(options, run, io));
  const previousSources = options.update ? undefined : lockedSourcesOf(options.definitions, lockfile.lock?.sources);
  const gathered = await gatherReadInputs(
    {
      paths,
      definitionDirs: options.definitions,
      definitionFiles: options.capabilityDef,
      ...(options.stdinFilepath ? { stdinName: options.stdinFilepath } : {}),
      cwd: io.cwd,
    },
    io.stdin,
    { resolve: registry.resolve, lockedSources: previousSources },
  );
  const diagnostics: Diagnostic[] = [...gathered.diagnostics];
  let fatal = gathered.fatal;
  if (!assembly.ok) appendAll(diagnostics, assembly.refusal.diagnostics);
  fatal ||= !assembly.ok;
  // Bytes read that are not a lockfile (junk, merge markers): --update writes a new one; without it, the way out is named.
  const unreadable = lockfile.fatal && lockfile.readDigest !== undefined;
  const replacing = unreadable && options.update;
  if (!replacing) {
    appendAll(diagnostics, lockfile.diagnostics);
    fatal ||= lockfile.fatal;
  }
  const location = lockfile.location!;
  const sources = new Map(lockfile.sources);
  if (!fatal && !gathered.inputs.some((i) => i.origin !== 'definition')) {
    diagnostics.push(fileDiagnostic(paths.join(' ') || '<command line>', 'io-error', 'no input found: no *.yaml or *.yml files in the paths given'));
    fatal = true;
  }
  if (fatal || !assembly.ok) return finish(options, io, { diagnostics, fatal: true, sources, lockfile: location.display, unreadable });

  const unnamedStdin = options.stdinFilepath ? undefined : STDIN_NAME;
  const following = lockFollowing(lockfile, io.cwd, 'stable', { unnamedStdin, update: options.update });
  const report = lintInputs(gathered.inputs, assembly.catalogue, {
    strictCapabilities: options.strictCapabilities === true,
    platform: platformOptions(options.platform, options.platformDefault),
    requirePinned: options.requirePinned === true,
    lock: following,
  });
  appendAll(diagnostics, report.diagnostics);
  for (const [file, source] of report.sources) sources.set(file, source);
  const checked = report.files;
  if (hasErrors(diagnostics)) return finish(options, io, { diagnostics, fatal: false, sources, lockfile: location.display, checked });

  const planned = planLock(report.profiles, report.catalogue, lockfile.lock, {
    keyOf: (file) => (file === unnamedStdin ? undefined : lockKeyOf(file, location.path, io.cwd)),
    exists: (key) => lockKeyExists(key, location),
  });
  const lockedSources = sourcesOfRun(registry.resolved);
  const withSources = Object.keys(lockedSources).length > 0 ? { ...planned.lock, sources: lockedSources } : planned.lock;
  const plan = { lock: withSources, changed: lockfile.lock === undefined || !sameLock(withSources, lockfile.lock) };
  // --check also asks the registry whether a locked tag still names the locked content.
  if (options.check && previousSources !== undefined && Object.keys(previousSources).length > 0) {
    const { findMovedSources } = await import('../../registry/index.js');
    const moved = await findMovedSources(previousSources, location.display, sourceOptionsOf(registryAccessOf(options, run, io)));
    appendAll(diagnostics, moved);
    if (moved.length > 0)
      return finish(options, io, { diagnostics, fatal: moved.some((d) => d.code !== 'source-moved'), sources, lockfile: location.display, checked });
  }
  if (plan.changed && !options.check) {
    // Replaced only while it holds what was read (README "Writing files"); a symbolic link is written through.
    const outcome = replaceFiles([{ file: location.display, path: location.path, readDigest: lockfile.readDigest ?? null, content: writeLockText(plan.lock) }]);
    for (const note of outcome.notes ?? []) io.stderr(`warning: ${note.message}\n`);
    if (!outcome.ok) {
      for (const { file, message } of describeReplaceFailure(outcome, 'kurel lock')) diagnostics.push(fileDiagnostic(file, 'io-error', message));
      return finish(options, io, { diagnostics, fatal: true, sources, lockfile: location.display, checked });
    }
  }
  return finish(options, io, { diagnostics, fatal: false, sources, lockfile: location.display, plan, checked, replaced: replacing });
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
  /** True when the lockfile's bytes could not be read as a lockfile. */
  unreadable?: boolean;
  /** True when `--update` replaced a lockfile that could not be read as one. */
  replaced?: boolean;
}

function finish(options: LockCommandOptions, io: CommandIo, outcome: LockOutcome): number {
  const changed = outcome.plan?.changed ?? false;
  const result = { diagnostics: outcome.diagnostics, fatal: outcome.fatal, failed: options.check && changed, sources: outcome.sources ?? new Map() };
  return printResult(io, result, {
    json: options.format === 'json',
    envelope: ({ valid, reported }): LockEnvelope => ({ valid, diagnostics: reported.diagnostics, lockfile: outcome.lockfile ?? null, changed }),
    text: (printed) => io.stdout(`${[...problemLines(printed, outcome), ...statusLines(options, outcome, changed)].join('\n')}\n`),
  });
}

function problemLines({ reported, problemsText }: PrintedResult, outcome: LockOutcome): string[] {
  return reported.diagnostics.length > 0 ? [problemsText('stdout'), summarize(reported, outcome.checked ?? [])] : [];
}

function statusLines(options: LockCommandOptions, outcome: LockOutcome, changed: boolean): string[] {
  const lines: string[] = [];
  const name = outcome.lockfile ?? 'the lockfile';
  if (outcome.replaced) lines.push(`${name} could not be read as a lockfile; --update writes a new one from the profiles given`);
  if (!outcome.plan) {
    if (outcome.unreadable)
      lines.push(`${name} cannot be read as a lockfile: remove it and run kurel lock to write a new one, or run kurel lock --update to replace it`);
    else if (outcome.lockfile !== undefined) lines.push(`${name} not written: fix the errors above first`);
  } else if (!changed) {
    lines.push(`${name} is up to date`);
  } else if (options.check) {
    lines.push(`${name} is out of date: run kurel lock to update it`);
  } else {
    const profiles = Object.keys(outcome.plan.lock.profiles).length;
    const versions = Object.values(outcome.plan.lock.definitions).reduce((n, byVersion) => n + Object.keys(byVersion).length, 0);
    lines.push(`wrote ${name}: ${profiles} profile${profiles === 1 ? '' : 's'}, ${versions} definition version${versions === 1 ? '' : 's'}`);
  }
  return lines;
}
