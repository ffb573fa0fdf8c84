import { LIMITS } from '../core/input-limits.js';
import { STDIN_NAME } from '../files/gather-inputs.js';
import type { GlobMatch } from '../sources/glob.js';
import { type LintRun, prepareLintRun } from '../sources/lint-run.js';
import type { Configured } from './configure-command.js';
import type { CommandIo } from './io.js';
import type { LintCommandOptions } from './lint-options.js';

/** What a lint run judges with: the catalogue (or the refused start), the lockfile, and the options of `lintInputs`. */
export type LintJudging = LintRun;

/**
 * Everything a lint run judges files with, from its flags and configuration (`prepareLintRun`).
 * The main thread and every `--jobs` worker build it the same way, so each judges a file alike.
 */
export async function prepareJudging(
  flags: LintCommandOptions,
  configured: Extract<Configured<LintCommandOptions>, { ok: true }>,
  io: CommandIo,
  matches?: GlobMatch,
): Promise<LintJudging> {
  const run = await prepareLintRun(flags, configured, io.cwd, {
    ...(matches ? { matches } : {}),
    unnamedStdin: configured.options.stdinFilepath ? undefined : STDIN_NAME,
  });
  return {
    ...run,
    // A run over many files keeps only the problems its report can show, and their texts.
    lintOptions: (keepResolved) => ({ ...run.lintOptions(keepResolved), reportLimit: LIMITS.maxReportedProblems }),
  };
}
