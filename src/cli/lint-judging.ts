import { setFlagsFromString } from 'node:v8';
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

/**
 * Keeps V8's young generation at the size it has when a lint run starts, until the returned
 * function is called (docs/performance.md). Left alone, the first files judged (the schemas
 * compiled and the code warmed on first use, which outlive a minor collection) grow it to its
 * largest, 16 MiB a half, which a run of small files never needs: at 10,000 files that was
 * about 27 MiB of the peak memory. The growth factor is a process-wide V8 flag, read at each
 * minor collection; it is put back to V8's default when the run ends, so what is compiled
 * afterwards, and the code cache a warm start keeps as the process exits, sees the flags the
 * process started with (V8 refuses a cache made under other flags).
 */
export function holdYoungGeneration(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1');
  return () => setFlagsFromString('--semi-space-growth-factor=2');
}
