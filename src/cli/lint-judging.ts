import type { CatalogueAssembly } from '../catalogue/assemble-catalogue.js';
import type { CatalogueLockfile } from '../catalogue/lockfile.js';
import { LIMITS } from '../core/input-limits.js';
import { STDIN_NAME } from '../files/gather-inputs.js';
import type { LintOptions } from '../operations/lint.js';
import type { Configured } from './apply-config.js';
import { assembleCommandCatalogue } from './command-catalogue.js';
import { lockFollowing } from './command-lockfile.js';
import type { LintCommandOptions } from './commands/lint.js';
import { type GlobMatch, globMatcher } from './glob.js';
import type { CommandIo } from './io.js';
import { platformOptions } from './platform-flags.js';
import { STRICT_CAPABILITY_CODES, severityLayers } from './run-config.js';

/** What a lint run judges with: the catalogue (or the refused start), the lockfile, and the options of `lintInputs`. */
export interface LintJudging {
  catalogue: CatalogueAssembly;
  lockfile: CatalogueLockfile;
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
  matches?: GlobMatch,
): Promise<LintJudging> {
  const { options, run } = configured;
  // The command's own matcher when it has one: the compiled globs are kept once per run.
  matches ??= await globMatcher(run);
  const catalogue = await assembleCommandCatalogue(options, run, io.cwd);
  const lockfile = catalogue.ok ? catalogue.lockfile : catalogue.refusal.lockfile;
  return {
    catalogue,
    lockfile,
    lintOptions: (keepResolved) => ({
      severityOf: severityLayers(run, flags, io.cwd, matches, STRICT_CAPABILITY_CODES),
      platform: platformOptions(options.platform, options.platformDefault),
      requirePinned: options.requirePinned === true,
      lock: lockFollowing(lockfile, io.cwd, 'follow', { unnamedStdin: options.stdinFilepath ? undefined : STDIN_NAME }),
      keepResolved,
      // A run over many files keeps only the problems its report can show, and their texts.
      reportLimit: LIMITS.maxReportedProblems,
    }),
  };
}
