import { join } from 'node:path';
import { VERSION } from '../core/package-version.js';
import { sha256Hex } from '../core/sha256.js';
import { defaultCacheDir } from '../files/cache-dir.js';
import type { CachedLintResult, LintResultCache } from '../operations/lint-cache.js';
import { LintCacheFile } from '../sources/lint-cache-file.js';
import type { Repository, RepositoryFlags } from './repository.js';

/** How many results the server keeps for one repository, and their size in all: those of the texts it judged last. */
export const JUDGE_CACHE_ENTRIES = 1_000;
export const JUDGE_CACHE_CHARS = 16 * 1024 * 1024;

/** Where the server keeps a repository's results: kurel's cache folder, `lsp/`, a file named by the repository's folder. */
export function judgeCachePath(env: NodeJS.ProcessEnv, cwd: string): string {
  return join(defaultCacheDir(env), 'lsp', `${sha256Hex(cwd).slice(0, 32)}.kurelcache`);
}

/**
 * The results of the texts the server judged in one repository (docs/editors.md, "Cache"), in a
 * file of the form `kurel lint --cache` keeps: a text judged again with the same bytes under the
 * same judging (the catalogue, the configuration, the lockfile, the server's flags, kurel's
 * version) gets the result recorded, so reopening a file or restarting the editor does not judge
 * it again. What is judged is the editor's text, never the file on disk: results are found by
 * their bytes only.
 */
export class JudgeCache implements LintResultCache {
  private failed = false;

  private constructor(private readonly file: LintCacheFile) {}

  /** The cache of `repository`, as the server started with `flags` judges it; undefined for a repository lint refuses. */
  static open(repository: Repository, flags: RepositoryFlags, env: NodeJS.ProcessEnv): JudgeCache | undefined {
    if (repository.refusal || !repository.handlers) return undefined;
    const { cwd, run, lockfile } = repository;
    const key = {
      kurel: VERSION,
      judge: 'lsp',
      cwd,
      flags: JSON.parse(JSON.stringify(flags)),
      config: run ? { file: run.file, dir: run.dir, data: JSON.parse(JSON.stringify(run.config)) } : null,
      lockfile: lockfile?.location ? { file: lockfile.location.display, bytes: lockfile.readDigest ?? null } : null,
    };
    return new JudgeCache(LintCacheFile.open(judgeCachePath(env, cwd), cwd, key, { maxEntries: JUDGE_CACHE_ENTRIES, maxChars: JUDGE_CACHE_CHARS }));
  }

  /** Never: the file on disk is not the text judged. */
  lookupUnread(): undefined {
    return undefined;
  }

  lookup(file: string, content: Uint8Array | string, judging: string): CachedLintResult | undefined {
    return this.file.lookup(file, content, judging);
  }

  record(file: string, content: Uint8Array | string, judging: string, result: CachedLintResult): void {
    this.file.record(file, content, judging, result);
  }

  /** Writes what was recorded; a cache that cannot be written costs only time, and is said once on standard error. */
  save(): void {
    const saved = this.file.save();
    if (saved.ok || this.failed) return;
    this.failed = true;
    process.stderr.write(`kurel lsp: ${saved.message}\n`);
  }
}
