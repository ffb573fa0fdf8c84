import type { CatalogueAssembly } from '../catalogue/assemble-catalogue.js';
import type { CatalogueLockfile } from '../catalogue/lockfile.js';
import type { LintOptions } from '../operations/lint.js';
import type { CatalogueCommandOptions } from './apply-config.js';
import { assembleCommandCatalogue } from './command-catalogue.js';
import { lockFollowing } from './command-lockfile.js';
import { type GlobMatch, globMatcher } from './glob.js';
import { platformOptions } from './platform-flags.js';
import { type RunConfig, STRICT_CAPABILITY_CODES, severityLayers } from './run-config.js';

/** The options a lint run judges with once the configuration is put in: `kurel lint`'s, and the language server's. */
export interface LintRunOptions extends CatalogueCommandOptions {
  /** `--platform COMPONENT=VERSION` flags: they win over every profile's spec.platform. */
  platform?: string[];
}

/** What a lint run judges with: the catalogue (or the refused start), the lockfile, and the options of `lintInputs`. */
export interface LintRun {
  catalogue: CatalogueAssembly;
  lockfile: CatalogueLockfile;
  /** The options of `lintInputs`; `keepResolved` when a report shows resolved profiles. */
  lintOptions(keepResolved: boolean): LintOptions;
}

/**
 * Everything a lint run judges files with, from its flags and its configured options: the
 * handlers and the lockfile (docs/versions.md "Where the lockfile is"), the severity layers
 * (docs/configuration.md), the platform (docs/platform.md). `kurel lint`, each of its `--jobs`
 * workers and the language server build it here, so each judges a file alike.
 */
export async function prepareLintRun(
  /** The command line's own flags, before the configuration: `--strict-capabilities` is the last severity layer. */
  flags: { strictCapabilities?: boolean | undefined },
  configured: { options: LintRunOptions; run: RunConfig | undefined },
  cwd: string,
  more: {
    /** The run's matcher when it has one, so the compiled globs are kept once per run. */
    matches?: GlobMatch;
    /** The name standard input has when no `--stdin-filepath` names it: it resolves as if unlocked. */
    unnamedStdin?: string | undefined;
  } = {},
): Promise<LintRun> {
  const { options, run } = configured;
  const matches = more.matches ?? (await globMatcher(run));
  const catalogue = await assembleCommandCatalogue(options, run, cwd);
  const lockfile = catalogue.ok ? catalogue.lockfile : catalogue.refusal.lockfile;
  return {
    catalogue,
    lockfile,
    lintOptions: (keepResolved) => ({
      severityOf: severityLayers(run, flags, cwd, matches, STRICT_CAPABILITY_CODES),
      platform: platformOptions(options.platform, options.platformDefault),
      requirePinned: options.requirePinned === true,
      lock: lockFollowing(lockfile, cwd, 'follow', more.unnamedStdin !== undefined ? { unnamedStdin: more.unnamedStdin } : {}),
      keepResolved,
    }),
  };
}
