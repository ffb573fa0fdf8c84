import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { fileDiagnostic } from '../../src/core/diagnostics.js';
import type { DeferredInputFile, InputFile, RunInput } from '../../src/core/input.js';
import { mayHoldDefinition } from '../../src/documents/read-input.js';
import { lintInputs } from '../../src/operations/lint.js';
import { reportProblems } from '../../src/operations/report-problems.js';

// Issue 17: lint reads each file when its turn comes and keeps a text only when it has
// diagnostics, while the definitions found among the inputs still apply to every profile.

const definition = (kind = 'CapabilityDefinition') => `apiVersion: launcher.gokure.dev/v1alpha1
kind: ${kind}
metadata:
  name: queue
spec:
  rendering:
    properties:
      size:
        type: integer
        maximum: 3
`;

const profile = (size: number) => `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: staging
spec:
  capabilities:
    queue:
      rendering:
        size: ${size}
`;

const arg = (file: string, content: string): InputFile => ({ file, content, origin: 'argument' });

/** A file read by path, counting its reads. */
function deferred(file: string, content: string | undefined, reads: Map<string, number>): DeferredInputFile {
  return {
    file,
    origin: 'directory',
    read: () => {
      reads.set(file, (reads.get(file) ?? 0) + 1);
      if (content === undefined) return { ok: false, diagnostic: fileDiagnostic(file, 'io-error', `cannot read ${file}: no such file`), unreadable: true };
      return { ok: true, content: new TextEncoder().encode(content) };
    },
  };
}

describe('lintInputs', () => {
  it('applies a definition named after the profiles to every profile before it', () => {
    const report = lintInputs([arg('a.yaml', profile(5)), arg('b.yaml', profile(2)), arg('z.yaml', definition())], createCatalogue());
    expect(report.diagnostics.map((d) => [d.file, d.code, d.line, d.column, d.path])).toEqual([
      ['a.yaml', 'invalid-value', 9, 15, '/spec/capabilities/queue/rendering/size'],
    ]);
    expect(report.files.map((f) => [f.path, f.kind, f.resolved?.capabilities])).toEqual([
      ['a.yaml', 'ClusterProfile', undefined],
      ['b.yaml', 'ClusterProfile', { queue: { size: 2 } }],
      ['z.yaml', 'CapabilityDefinition', undefined],
    ]);
    expect(report.profiles.map((p) => [p.file, p.clean])).toEqual([
      ['a.yaml', false],
      ['b.yaml', true],
    ]);
  });

  it('finds a definition whose kind is spelt with an escape', () => {
    const escaped = definition('"Capability\\x44efinition"');
    expect(escaped).not.toContain('CapabilityDefinition');
    const report = lintInputs([arg('a.yaml', profile(5)), arg('z.yaml', escaped)], createCatalogue());
    expect(report.diagnostics.map((d) => [d.file, d.code])).toEqual([['a.yaml', 'invalid-value']]);
  });

  it('keeps the source text of the files with diagnostics only', () => {
    const report = lintInputs([arg('a.yaml', profile(5)), arg('b.yaml', profile(2)), arg('z.yaml', definition())], createCatalogue());
    expect([...report.sources.keys()]).toEqual(['a.yaml']);
    expect(report.sources.get('a.yaml')?.text).toBe(profile(5));
  });

  it('keeps the source text of a definition file with diagnostics', () => {
    const conflicting = definition().replace('maximum: 3', 'maximum: 4');
    const report = lintInputs([arg('a.yaml', profile(2)), arg('y.yaml', definition()), arg('z.yaml', conflicting)], createCatalogue());
    expect(report.diagnostics.map((d) => [d.file, d.code])).toEqual([['z.yaml', 'definition-conflict']]);
    expect([...report.sources.keys()]).toEqual(['z.yaml']);
  });

  it('reads each file by path once when the only definitions are given as definitions', () => {
    const reads = new Map<string, number>();
    const inputs: RunInput[] = [
      { ...deferred('a.yaml', definition(), reads), origin: 'definition' },
      deferred('b.yaml', profile(2), reads),
      deferred('c.yaml', profile(5), reads),
      { ...deferred('d.yaml', definition().replace('name: queue', 'name: cache'), reads), origin: 'definition' },
    ];
    const report = lintInputs(inputs, createCatalogue());
    expect(report.diagnostics.map((d) => [d.file, d.code])).toEqual([['c.yaml', 'invalid-value']]);
    expect(Object.fromEntries(reads)).toEqual({ 'a.yaml': 1, 'b.yaml': 1, 'c.yaml': 1, 'd.yaml': 1 });
  });

  it('reads the profiles before the first definition again, and the files after it that may hold one ahead', () => {
    const reads = new Map<string, number>();
    const inputs: RunInput[] = [
      deferred('a.yaml', profile(5), reads),
      deferred('m.yaml', definition(), reads),
      deferred('n.yaml', profile(2), reads),
      deferred('z.yaml', definition().replace('maximum: 3', 'maximum: 4').replace('name: queue', 'name: other'), reads),
    ];
    const report = lintInputs(inputs, createCatalogue());
    expect(report.diagnostics.map((d) => [d.file, d.code])).toEqual([['a.yaml', 'invalid-value']]);
    expect(Object.fromEntries(reads)).toEqual({ 'a.yaml': 2, 'm.yaml': 1, 'n.yaml': 2, 'z.yaml': 1 });
    expect(report.files.map((f) => f.path)).toEqual(['a.yaml', 'm.yaml', 'n.yaml', 'z.yaml']);
    expect(report.profiles.map((p) => [p.file, p.clean])).toEqual([
      ['a.yaml', false],
      ['n.yaml', true],
    ]);
  });

  it('reads a profile sent as a profile once', () => {
    const reads = new Map<string, number>();
    lintInputs([{ ...deferred('a.yaml', profile(2), reads), origin: 'profile' }], createCatalogue());
    expect(Object.fromEntries(reads)).toEqual({ 'a.yaml': 1 });
  });

  it('reports a file it cannot read once, with no file report, and says the run cannot be trusted', () => {
    const reads = new Map<string, number>();
    const report = lintInputs(
      [deferred('gone.yaml', undefined, reads), deferred('b.yaml', profile(2), reads), deferred('z.yaml', definition(), reads)],
      createCatalogue(),
    );
    expect(report.diagnostics.map((d) => [d.file, d.code])).toEqual([['gone.yaml', 'io-error']]);
    expect(report.files.map((f) => f.path)).toEqual(['b.yaml', 'z.yaml']);
    expect({ unread: report.unread, unreadable: report.unreadable }).toEqual({ unread: 1, unreadable: true });
    expect(reads.get('gone.yaml')).toBe(1);
  });

  it('leaves resolved profiles out of the file reports when asked to', () => {
    const report = lintInputs([arg('b.yaml', profile(2)), arg('z.yaml', definition())], createCatalogue(), { keepResolved: false });
    expect(report.files.map((f) => f.resolved)).toEqual([undefined, undefined]);
    expect(report.profiles).toEqual([{ file: 'b.yaml', bindings: [], clean: true }]);
  });
});

describe('lintInputs with a report limit', () => {
  // Profiles with one error each (size 5 > 3), a clean one, a file that cannot be read, a
  // suppressed problem and a definition after them all: every path a problem can take.
  const inputs = (reads: Map<string, number>): RunInput[] => [
    deferred('a.yaml', profile(5), reads),
    deferred('b.yaml', profile(2), reads),
    deferred('c.yaml', profile(4), reads),
    deferred('d.yaml', undefined, reads),
    deferred('e.yaml', profile(7).replace('        size: 7', '        # kurel-disable-next-line invalid-value -- known\n        size: 7'), reads),
    deferred('f.yaml', profile(6), reads),
    deferred('g.yaml', profile(9).replace('name: staging', 'name: staging\n  name: again'), reads),
    deferred('z.yaml', definition(), reads),
  ];

  it('keeps only the problems a report can show and their texts, and reports what a run of all of them reports', () => {
    const all = lintInputs(inputs(new Map()), createCatalogue());
    const reads = new Map<string, number>();
    const limited = lintInputs(inputs(reads), createCatalogue(), { reportLimit: 2 });
    expect(reportProblems(limited.diagnostics, { limit: 2, leftOut: limited.leftOut })).toEqual(reportProblems(all.diagnostics, { limit: 2 }));
    expect(limited.diagnostics.map((d) => [d.file, d.code, d.suppressed !== undefined])).toEqual([
      ['a.yaml', 'invalid-value', false],
      ['c.yaml', 'invalid-value', false],
      ['e.yaml', 'invalid-value', true],
    ]);
    expect(limited.leftOut).toEqual({ errors: 4, warnings: 0, first: all.diagnostics.find((d) => d.file === 'd.yaml') });
    // The texts of the files shown; d.yaml, the first not shown, has none to keep.
    expect([...limited.sources.keys()].sort()).toEqual(['a.yaml', 'c.yaml', 'e.yaml']);
    expect({ unread: limited.unread, unreadable: limited.unreadable, files: limited.files }).toEqual({
      unread: all.unread,
      unreadable: all.unreadable,
      files: all.files,
    });
    // The definition came last: the files before it were judged again, the unreadable one not read again.
    expect(Object.fromEntries(reads)).toEqual({ 'a.yaml': 2, 'b.yaml': 2, 'c.yaml': 2, 'd.yaml': 1, 'e.yaml': 2, 'f.yaml': 2, 'g.yaml': 2, 'z.yaml': 1 });
  });
});

describe('mayHoldDefinition', () => {
  it.each([
    ['a profile', profile(2), false],
    ['a definition', definition(), true],
    ['an escape anywhere', 'a: "\\x41"\n', true],
    ['the kind in a comment', '# CapabilityDefinition\na: 1\n', true],
  ])('%s: %s', (_name, text, expected) => {
    expect(mayHoldDefinition(text)).toBe(expected);
    expect(mayHoldDefinition(new TextEncoder().encode(text))).toBe(expected);
  });
});
