import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { KeptProblems } from '../../src/operations/kept-problems.js';
import { reportProblems } from '../../src/operations/report-problems.js';

// docs/performance.md: a lint run keeps only the problems its report can show, and the texts of
// their files; the report it prints is the one it would print from all of them.

const problem = fc.record({
  file: fc.constantFrom('a.yaml', 'b.yaml', 'c.yaml', 'd.yaml'),
  line: fc.integer({ min: 1, max: 6 }),
  column: fc.integer({ min: 1, max: 3 }),
  code: fc.constantFrom('wrong-type', 'unknown-field'),
  severity: fc.constantFrom('error' as const, 'warning' as const),
  // Problems that sort alike but differ otherwise show that ties keep the order they came in.
  hint: fc.nat({ max: 3 }),
  suppressed: fc.boolean(),
});

type ProblemShape = typeof problem extends fc.Arbitrary<infer T> ? T : never;

const diagnosticOf = (p: ProblemShape): Diagnostic => ({
  code: p.code,
  severity: p.severity,
  message: `problem at ${p.line}`,
  file: p.file,
  line: p.line,
  column: p.column,
  endLine: p.line,
  endColumn: p.column + 1,
  path: '',
  hint: `hint ${p.hint}`,
  ...(p.suppressed ? { suppressed: {} } : {}),
});

/** Feeds `diagnostics` in chunks; every other chunk goes through a keeper of its own first, as a `--jobs` batch does. */
function keepInChunks(diagnostics: readonly Diagnostic[], limit: number, chunk: number) {
  const run = new KeptProblems<string>(limit);
  for (let start = 0, n = 0; start < diagnostics.length; start += chunk, n++) {
    const part = diagnostics.slice(start, start + chunk);
    const textOf = (file: string) => `text of ${file}`;
    if (n % 2 === 0) {
      run.add(part, textOf);
      continue;
    }
    const batch = new KeptProblems<string>(limit);
    batch.add(part, textOf);
    const kept = batch.result();
    run.add(kept.diagnostics, (file) => kept.texts.get(file));
    run.addLeftOut(kept.leftOut, (file) => kept.texts.get(file));
  }
  return run.result();
}

describe('keeping the problems a report can show (property)', () => {
  it('reports exactly what a report of every problem shows, with the texts of the files it shows', () => {
    fc.assert(
      fc.property(fc.array(problem, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 13 }), (problems, limit, chunk) => {
        const all = problems.map(diagnosticOf);
        const kept = keepInChunks(all, limit, chunk);
        const expected = reportProblems(all, { limit });
        expect(reportProblems(kept.diagnostics, { limit, leftOut: kept.leftOut })).toEqual(expected);
        // Bounded: the counted problems kept are at most the limit, and twice it while a run goes on.
        expect(kept.diagnostics.filter((d) => d.suppressed === undefined).length).toBeLessThanOrEqual(limit);
        for (const d of expected.diagnostics) expect(kept.texts.get(d.file)).toBe(`text of ${d.file}`);
        const shownFiles = new Set([...kept.diagnostics.map((d) => d.file), ...(kept.leftOut ? [kept.leftOut.first.file] : [])]);
        expect([...kept.texts.keys()].every((file) => shownFiles.has(file))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('keeping the problems a report can show', () => {
  const at = (file: string, line: number, severity: 'error' | 'warning' = 'error'): Diagnostic => ({
    code: 'wrong-type',
    severity,
    message: `problem at ${line}`,
    file,
    line,
    column: 1,
    endLine: line,
    endColumn: 2,
    path: '',
  });

  it('keeps nothing of files that sort after the last problem a report shows', () => {
    const kept = new KeptProblems<string>(2);
    const asked: string[] = [];
    const textOf = (file: string) => {
      asked.push(file);
      return file.toUpperCase();
    };
    kept.add([at('a.yaml', 1), at('a.yaml', 2)], textOf);
    kept.add([at('b.yaml', 1, 'warning')], textOf);
    kept.add([at('c.yaml', 4), at('c.yaml', 5, 'warning')], textOf);
    const result = kept.result();
    expect(result.diagnostics).toEqual([at('a.yaml', 1), at('a.yaml', 2)]);
    expect(result.leftOut).toEqual({ errors: 1, warnings: 2, first: at('b.yaml', 1, 'warning') });
    expect([...result.texts]).toEqual([
      ['a.yaml', 'A.YAML'],
      ['b.yaml', 'B.YAML'],
    ]);
    // c.yaml came after the first cut: it was only counted, and its text never asked for.
    expect(asked).toEqual(['a.yaml', 'b.yaml']);
  });

  it('keeps every problem a comment suppressed, and all with no limit', () => {
    const quiet = { ...at('z.yaml', 9), suppressed: { reason: 'known' } };
    const limited = new KeptProblems<string>(1);
    limited.add([at('a.yaml', 1), at('b.yaml', 1), quiet, at('c.yaml', 1)]);
    expect(limited.result().diagnostics).toEqual([at('a.yaml', 1), quiet]);
    const unlimited = new KeptProblems<string>();
    unlimited.add([at('b.yaml', 1), quiet, at('a.yaml', 1)]);
    expect(unlimited.result()).toEqual({ diagnostics: [at('b.yaml', 1), quiet, at('a.yaml', 1)], texts: new Map(), leftOut: undefined });
  });
});
