import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { withBindings } from '../helpers/profile.js';
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

  it('matches with RE2 semantics: . stops only at \\n, so a carriage return matches', () => {
    const loaded = load(
      { 'defs/cap.yaml': definition('line:\n  type: string\n  pattern: "^a.b$"') },
      withBindings('my-trait:\n  rendering:\n    line: "a\\rb"'),
    );
    expect(pinned(loaded)).toEqual([]);
  });
});
