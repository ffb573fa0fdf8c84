import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patternProgramSize } from '../../src/schema/pattern.js';
import { CLI } from '../helpers/cli.js';
import { withBindings } from '../helpers/profile.js';
import { propertyRuns } from '../helpers/property.js';
import { definition, errorAt, load, type PinnedAt, pinned, prop } from './helpers.js';

// docs/definitions.md (issue 10): a definition's pattern is RE2 syntax that also compiles as ECMAScript
// with the u flag, matched in linear time; lookarounds and backreferences are definition-invalid.
describe('a pattern in a definition', () => {
  it('is refused at the pattern value when it holds a lookahead, naming why', () => {
    const loaded = load({ 'defs/cap.yaml': definition('token:\n  type: string\n  pattern: "(?=a*(?=a*(?=a*b)))"') });
    expect(pinned(loaded)).toEqual([errorAt('defs/cap.yaml', 'definition-invalid', 10, 18, prop('token', 'pattern'))]);
    expect(loaded.report.diagnostics[0]?.message).toBe(
      'token.pattern "(?=a*(?=a*(?=a*b)))" uses a lookahead (?=...), which cannot be matched in linear time; Kubernetes, whose CRD patterns are RE2, would refuse it too',
    );
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });

  it('is refused in a nested declaration and in list items (a lookbehind, a backreference)', () => {
    const nested = definition(
      'tls:\n  type: object\n  properties:\n    host: {type: string, pattern: "(?<=a+)b"}\nnames:\n  type: array\n  items: {type: string, pattern: "^(a)\\\\1$"}',
    );
    expect(pinned(load({ 'defs/cap.yaml': nested }))).toEqual([
      errorAt('defs/cap.yaml', 'definition-invalid', 11, 41, prop('tls', 'properties', 'host', 'pattern')),
      errorAt('defs/cap.yaml', 'definition-invalid', 14, 40, prop('names', 'items', 'pattern')),
    ]);
  });

  it('is refused when only one of the two engines compiles it', () => {
    const re2Only = load({ 'defs/cap.yaml': definition('token:\n  type: string\n  pattern: "(?i)abc"') });
    expect(pinned(re2Only)).toEqual([errorAt('defs/cap.yaml', 'definition-invalid', 10, 18, prop('token', 'pattern'))]);
    expect(re2Only.report.diagnostics[0]?.message).toMatch(/^token\.pattern "\(\?i\)abc" does not compile as an ECMAScript regular expression with the u flag/);
    const ecmaOnly = load({ 'defs/cap.yaml': definition('token:\n  type: string\n  pattern: "\\\\u0041"') });
    expect(ecmaOnly.report.diagnostics[0]?.message).toMatch(/^token\.pattern "\\\\u0041" is not RE2 syntax/);
  });

  it('is accepted when it is only backtracking-shaped, and judges a value built to make a backtracking engine stall', async () => {
    // A backtracking engine would not finish this match in any lifetime. It runs in a child
    // process with a time limit, so a regression fails this test instead of hanging the suite.
    const dir = mkdtempSync(join(tmpdir(), 'kurel-re2-'));
    try {
      writeFileSync(join(dir, 'cap.yaml'), definition('token:\n  type: string\n  pattern: "^(a+)+$"'));
      writeFileSync(join(dir, 'cluster.yaml'), withBindings(`my-trait:\n  rendering:\n    token: "${'a'.repeat(100_000)}!"`));
      const run = await new Promise<{ killed: boolean; stdout: string }>((resolve) => {
        execFile(
          process.execPath,
          [CLI, 'lint', 'cluster.yaml', '--capability-def', 'cap.yaml', '--format', 'json'],
          { cwd: dir, timeout: 20_000 },
          (err, stdout) => resolve({ killed: err?.killed ?? false, stdout }),
        );
      });
      expect(run.killed).toBe(false);
      const diagnostics = (JSON.parse(run.stdout) as { diagnostics: PinnedAt[] }).diagnostics.map(({ code, severity, file, line, column, path }) => ({
        code,
        severity,
        file,
        line,
        column,
        path,
      }));
      expect(diagnostics).toEqual([
        { code: 'invalid-value', severity: 'error', file: 'cluster.yaml', line: 9, column: 16, path: '/spec/capabilities/my-trait/rendering/token' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is pattern-too-complex at the pattern value when it compiles past the program limit, naming the size and the limit', () => {
    // 50 optional characters repeated 1,000 times: 112 characters that compile to 100,002 instructions.
    const pattern = `^(?:${'a?'.repeat(50)}){1000}$`;
    const loaded = load({ 'defs/cap.yaml': definition(`token:\n  type: string\n  pattern: "${pattern}"`) });
    expect(pinned(loaded)).toEqual([errorAt('defs/cap.yaml', 'pattern-too-complex', 10, 18, prop('token', 'pattern'))]);
    expect(loaded.report.diagnostics[0]?.message).toBe(
      `token.pattern "${pattern}" compiles to 100002 instructions; the limit is 100000, as each counted repetition copies what it repeats`,
    );
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });

  it('is accepted just under the program limit, and nested repetitions far past it are refused without being expanded', () => {
    const under = load({ 'defs/cap.yaml': definition(`token:\n  type: string\n  pattern: "^(?:${'a?'.repeat(49)}){1000}$"`) });
    expect(pinned(under)).toEqual([]);
    const nested = load({ 'defs/cap.yaml': definition('token:\n  type: string\n  pattern: "((((a{1000}){1000}){1000}){1000})"') });
    expect(pinned(nested)).toEqual([errorAt('defs/cap.yaml', 'pattern-too-complex', 10, 18, prop('token', 'pattern'))]);
    expect(nested.report.diagnostics[0]?.message).toMatch(/ compiles to more than 100000000 instructions; the limit is 100000,/);
  });

  it('has a program size no smaller than the one RE2 compiles, for every pattern of a small grammar', () => {
    const atom = fc.constantFrom('a', '.', '[a-z]', '\\d', '(?:ab)', '(b|c)');
    const quantifier = fc.constantFrom('', '*', '+', '?', '{2}', '{0,3}', '{2,}', '{1,5}');
    const piece = fc.tuple(atom, quantifier).map(([a, q]) => a + q);
    const pattern = fc
      .array(
        fc.array(piece, { minLength: 1, maxLength: 4 }).map((ps) => ps.join('')),
        { minLength: 1, maxLength: 3 },
      )
      .map((alts) => alts.join('|'));
    const re2 = createRequire(import.meta.url)('re2js') as typeof import('re2js');
    fc.assert(
      fc.property(fc.tuple(pattern, fc.constantFrom('', '{3}', '{0,7}')), ([body, outer]) => {
        const whole = `(?:${body})${outer}`;
        const set = new re2.RE2Set();
        set.add(whole);
        set.compile();
        // RE2's program also holds its fail and match instructions.
        const compiled = (set as unknown as { prog: { numInst(): number } }).prog.numInst() - 2;
        expect(patternProgramSize(whole)).toBeGreaterThanOrEqual(compiled);
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  it('matches with RE2 semantics: . stops only at \\n, so a carriage return matches', () => {
    const loaded = load(
      { 'defs/cap.yaml': definition('line:\n  type: string\n  pattern: "^a.b$"') },
      withBindings('my-trait:\n  rendering:\n    line: "a\\rb"'),
    );
    expect(pinned(loaded)).toEqual([]);
  });
});
