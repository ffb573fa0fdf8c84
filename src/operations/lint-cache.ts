import type { Catalogue } from '../catalogue/catalogue.js';
import { registryLines } from '../catalogue/registry-digest.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { FileReport } from '../core/input.js';
import { sha256Digest } from '../core/sha256.js';
import type { ProfileOutcome } from './profile-outcome.js';

/**
 * What a lint run found for one file that holds no definition, as the report uses it: the file's
 * report and its problems once comments and severities were applied (docs/cli.md, `--cache`).
 */
export interface CachedLintResult {
  report: FileReport;
  diagnostics: Diagnostic[];
  outcome?: ProfileOutcome | undefined;
}

/**
 * Results of earlier runs, by file (`kurel lint --cache`). A result is reused only for the same
 * path, the same bytes and the same judging (the catalogue the file was judged against); what
 * else judged it (flags, configuration, lockfile, kurel's version) the cache holds for all of its
 * results at once.
 */
export interface LintResultCache {
  /**
   * The result recorded for `file` with this judging when the file looks unchanged without
   * reading it (its size and modification time as recorded), or undefined.
   */
  lookupUnread(file: string, judging: string): CachedLintResult | undefined;
  /** The result recorded for `file` with this content and judging, or undefined. */
  lookup(file: string, content: Uint8Array | string, judging: string): CachedLintResult | undefined;
  /** Records a file's result. */
  record(file: string, content: Uint8Array | string, judging: string, result: CachedLintResult): void;
}

const judgings = new WeakMap<Catalogue, string>();

/**
 * The digest of everything in a catalogue that can change a profile's verdict: the registry's
 * lines (kurel's version, every handler, every definition version by digest), what the digest
 * leaves out of a definition but a profile's report shows (its deprecation note, its file), and
 * the names whose definitions failed to load.
 */
export function judgingDigest(catalogue: Catalogue): string {
  let digest = judgings.get(catalogue);
  if (!digest) {
    const lines = registryLines(catalogue);
    for (const entry of catalogue.listDefinitions()) {
      lines.push(`file ${entry.name}@${entry.version ?? '-'} ${JSON.stringify(entry.file)} ${JSON.stringify(entry.deprecation ?? null)}`);
    }
    for (const name of catalogue.listBrokenNames()) lines.push(`broken ${name}`);
    digest = sha256Digest(lines.map((line) => `${line}\n`).join(''));
    judgings.set(catalogue, digest);
  }
  return digest;
}
