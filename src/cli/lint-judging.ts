import { STDIN_NAME } from '../files/gather-inputs.js';
import type { LintOptions } from '../operations/lint.js';
import type { Configured } from './apply-config.js';
import { configOf } from './apply-config.js';
import { type CommandHandlers, loadCommandHandlers } from './command-catalogue.js';
import { type CommandLockfile, lockFollowing, readCommandLockfile } from './command-lockfile.js';
import type { LintCommandOptions } from './commands/lint.js';
import { globMatcher } from './glob.js';
import type { CommandIo } from './io.js';
import { platformOptions } from './platform-flags.js';
import { STRICT_CAPABILITY_CODES, severityLayers } from './run-config.js';

/** What a lint run judges with: the handlers (or the refused start), the lockfile, and the options of `lintInputs`. */
export interface LintJudging {
  handlers: CommandHandlers;
  lockfile: CommandLockfile;
  /** The options of `lintInputs`; `keepResolved` when a report shows resolved profiles. */
  lintOptions(keepResolved: boolean): LintOptions;
}

/**
 * Everything a lint run judges files with, from its flags and configuration. The main thread
 * and every `--jobs` worker build it the same way, so each judges a file alike.
 */
export async function prepareJudging(
  flags: LintCommandOptions,
  configured: Extract<Configured<LintCommandOptions>, { ok: true }>,
  io: CommandIo,
): Promise<LintJudging> {
  const { options, run } = configured;
  const matches = await globMatcher(run);
  const handlers = await loadCommandHandlers(options.plugin, io.cwd);
  const lockfile = readCommandLockfile(options, io.cwd, { config: configOf(run) });
  return {
    handlers,
    lockfile,
    lintOptions: (keepResolved) => ({
      severityOf: severityLayers(run, flags, io.cwd, matches, STRICT_CAPABILITY_CODES),
      platform: platformOptions(options.platform, options.platformDefault),
      requirePinned: options.requirePinned === true,
      lock: lockFollowing(lockfile, io.cwd, 'follow', { unnamedStdin: options.stdinFilepath ? undefined : STDIN_NAME }),
      keepResolved,
    }),
  };
}
