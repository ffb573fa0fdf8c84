import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { reportProblems } from '../../src/operations/report-problems.js';

// Issue #10, item 5 (docs/profiles.md): a run reports its first 1,000 problems in sorted order
// and counts the rest in one too-many-problems warning at 1:1 of the file of the first hidden one.
const problem = (file: string, line: number, severity: 'error' | 'warning' = 'error'): Diagnostic => ({
  code: severity === 'error' ? 'duplicate-key' : 'unknown-capability',
  severity,
  message: `problem on line ${line}`,
  file,
  line,
  column: 3,
  endLine: line,
  endColumn: 4,
  path: `/k${line}`,
});
const lines = (file: string, from: number, count: number, severity: 'error' | 'warning' = 'error') =>
  Array.from({ length: count }, (_, i) => problem(file, from + i, severity));
const where = (d: Diagnostic | undefined) => `${d?.file}:${d?.line}:${d?.column} ${d?.code}`;

describe('reporting a run of problems', () => {
  it('shows 1,000 problems, sorted, with no summary', () => {
    const reported = reportProblems(lines('a.yaml', 1, 1_000).reverse());
    expect(reported.diagnostics).toEqual(lines('a.yaml', 1, 1_000));
    expect([reported.errors, reported.warnings]).toEqual([1_000, 0]);
  });

  it('shows the first 1,000 of 1,001 and counts the one hidden at 1:1 of its file', () => {
    const reported = reportProblems([...lines('b.yaml', 1, 1), ...lines('a.yaml', 1, 1_000)]);
    expect(reported.diagnostics).toHaveLength(1_001);
    expect(reported.diagnostics.slice(0, 1_000)).toEqual(lines('a.yaml', 1, 1_000));
    expect(reported.diagnostics[1_000]).toEqual({
      code: 'too-many-problems',
      severity: 'warning',
      message: '1 more problem not shown (1 error, 0 warnings): a run reports its first 1000',
      file: 'b.yaml',
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
      path: '',
    });
  });

  it('counts the hidden problems by severity, and puts the summary where its file sorts', () => {
    // 1,500 problems in a.yaml: the 1,001st (a.yaml line 1001) is the first hidden, so the
    // summary sits at a.yaml 1:1, before a.yaml's shown problems.
    const problems = [...lines('a.yaml', 1, 1_200), ...lines('a.yaml', 1_201, 300, 'warning'), ...lines('c.yaml', 1, 7)];
    const reported = reportProblems(problems);
    expect(reported.diagnostics).toHaveLength(1_001);
    expect(reported.diagnostics.map(where).slice(0, 2)).toEqual(['a.yaml:1:1 too-many-problems', 'a.yaml:1:3 duplicate-key']);
    expect(reported.diagnostics[0]?.message).toBe('507 more problems not shown (207 errors, 300 warnings): a run reports its first 1000');
    expect(where(reported.diagnostics[1_000])).toBe('a.yaml:1000:3 duplicate-key');
    expect([reported.errors, reported.warnings]).toEqual([1_207, 300]);
  });

  it('shows problems that do not count against the limit, whatever their number', () => {
    // Suppressed problems, for one, do not count against it.
    const quiet = lines('a.yaml', 1, 5_000, 'warning');
    const reported = reportProblems([...quiet, ...lines('b.yaml', 1, 1_000)], { countsAgainstLimit: (d) => d.severity === 'error' });
    expect(reported.diagnostics).toHaveLength(6_000);
    expect(reported.diagnostics.some((d) => d.code === 'too-many-problems')).toBe(false);
  });

  it('reports 200,000 problems without overflowing the stack, and leaves its input as it was', () => {
    const problems = lines('a.yaml', 1, 200_000).reverse();
    const first = problems[0];
    const reported = reportProblems(problems);
    expect(reported.diagnostics).toHaveLength(1_001);
    expect(reported.diagnostics[0]?.message).toBe('199000 more problems not shown (199000 errors, 0 warnings): a run reports its first 1000');
    expect(problems[0]).toBe(first);
  });
});
