import type { LintReport } from '../../src/operations/lint.js';
import { withoutFastPath } from '../../src/yaml/read-yaml.js';

// What test/operations/fast-path.test.ts and fast-path-generated.test.ts compare.

/** Runs `work` with and without the fast path; both must give the same result. */
export function bothWays<T>(work: () => T): { fast: T; full: T } {
  return { fast: work(), full: withoutFastPath(work) };
}

/**
 * What a run reports: its diagnostics, files and profiles, and the source text of every file a
 * diagnostic names (what is printed under it). A run may keep other texts it happened to read in
 * full; which ones differs with the reader, and nothing shows them.
 */
export function reportOf(report: Pick<LintReport, 'diagnostics' | 'files' | 'sources'> & Partial<LintReport>) {
  const named = new Set(report.diagnostics.map((d) => d.file));
  return {
    diagnostics: report.diagnostics,
    files: report.files,
    profiles: report.profiles,
    sources: [...named].sort().map((file) => [file, report.sources.get(file)?.text]),
  };
}
