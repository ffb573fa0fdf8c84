import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPattern, PATTERN_LIMITS } from '../../src/schema/pattern-safety.js';
import { CLI } from '../helpers/cli.js';
import { withBindings } from '../helpers/profile.js';
import { definition, errorAt, load, pinned, prop, type PinnedAt } from './helpers.js';

describe('checkPattern', () => {
  it.each([
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
    '^[1-9][0-9]*(Mi|Gi|Ti)$',
    '^([0-9]{1,3}\\.){3}[0-9]{1,3}/([0-9]|[12][0-9]|3[0-2])$',
    '^\\p{L}+$',
    '^https?://',
    '^(a|ab)*c$',
    '^(?=a)a$',
  ])('accepts %s', (pattern) => {
    expect(checkPattern(pattern)).toEqual({ ok: true });
  });

  it.each([
    ['nested quantifiers', '(a+)+$'],
    ['nested quantifiers, anchored', '^(a+)+$'],
    ['a starred group of a star', '^(.*)*$'],
    ['overlapping alternatives under a star', '^(a|a)*$'],
    ['optional separators between repeated words', '^(\\w+\\s?)*$'],
    ['adjacent overlapping quantifiers', '\\d+\\d+$'],
    ['repeated domain labels', '^([a-z0-9-]+\\.)+[a-z]{2,}$'],
  ])('refuses %s: %s', (_name, pattern) => {
    const verdict = checkPattern(pattern);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/^(can backtrack catastrophically|is too complex to prove free of catastrophic backtracking)/);
  });

  it.each([
    ['an unterminated group', '(a', 'unterminated group'],
    ['an escape the u flag forbids', '^a\\-b$', 'invalid escape'],
    ['a bad character class', '[z-a]', 'range out of order in character class'],
  ])('refuses %s as not compiling with the u flag', (_name, pattern, reason) => {
    expect(checkPattern(pattern)).toEqual({ ok: false, reason: `does not compile as an ECMAScript regular expression with the u flag: ${reason}` });
  });

  it('refuses a named group, which the analysis cannot read, rather than guess', () => {
    const verdict = checkPattern('^(?<year>[0-9]{4})$');
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/^uses syntax the backtracking check cannot analyse/);
  });

  it('refuses a pattern longer than the limit before analysing it', () => {
    const pattern = 'a'.repeat(PATTERN_LIMITS.maxLength + 1);
    expect(checkPattern(pattern)).toEqual({ ok: false, reason: `is ${pattern.length} characters long; the limit is ${PATTERN_LIMITS.maxLength}` });
  });

  it('gives the same verdict object for a pattern seen before', () => {
    expect(checkPattern('^(x+)+$')).toBe(checkPattern('^(x+)+$'));
  });
});

describe('a hostile pattern in a definition', () => {
  const hostile = definition('token:\n  type: string\n  pattern: "(a+)+$"');

  it('is rejected when the definition loads, at the pattern value', () => {
    const loaded = load({ 'defs/cap.yaml': hostile });
    expect(pinned(loaded)).toEqual([errorAt('defs/cap.yaml', 'definition-invalid', 10, 18, prop('token', 'pattern'))]);
    expect(loaded.report.diagnostics[0]?.message).toMatch(/^token\.pattern "\(a\+\)\+\$" can backtrack catastrophically/);
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });

  it('is never run on a rendering built to make it backtrack (the binding stays quiet)', async () => {
    // Run, this match would not end in any lifetime. It runs in a child process with a time
    // limit, so a broken guard fails this test instead of hanging the suite.
    const dir = mkdtempSync(join(tmpdir(), 'kurel-redos-'));
    try {
      writeFileSync(join(dir, 'cap.yaml'), hostile);
      writeFileSync(join(dir, 'cluster.yaml'), withBindings(`my-trait:\n  rendering:\n    token: "${'a'.repeat(40_000)}!"`));
      const run = await new Promise<{ killed: boolean; stdout: string }>((resolve) => {
        execFile(process.execPath, [CLI, 'lint', 'cluster.yaml', '--capability-def', 'cap.yaml', '--format', 'json'], { cwd: dir, timeout: 20_000 }, (err, stdout) =>
          resolve({ killed: err?.killed ?? false, stdout }),
        );
      });
      expect(run.killed).toBe(false);
      const diagnostics = (JSON.parse(run.stdout) as { diagnostics: PinnedAt[] }).diagnostics.map(({ code, severity, file, line, column, path }) => ({ code, severity, file, line, column, path }));
      expect(diagnostics).toEqual([errorAt('cap.yaml', 'definition-invalid', 10, 18, prop('token', 'pattern'))]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is also rejected in a nested declaration and in list items', () => {
    const nested = definition('tls:\n  type: object\n  properties:\n    host: {type: string, pattern: "^(a|a)*$"}\nnames:\n  type: array\n  items: {type: string, pattern: "^(\\\\w+\\\\s?)*$"}');
    expect(pinned(load({ 'defs/cap.yaml': nested }))).toEqual([
      errorAt('defs/cap.yaml', 'definition-invalid', 11, 41, prop('tls', 'properties', 'host', 'pattern')),
      errorAt('defs/cap.yaml', 'definition-invalid', 14, 40, prop('names', 'items', 'pattern')),
    ]);
  });

  it('lets a safe pattern judge a long adversarial value in linear time', () => {
    const safe = definition('name:\n  type: string\n  pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"');
    const profile = withBindings(`my-trait:\n  rendering:\n    name: "a${'-'.repeat(200_000)}!"`);
    const loaded = load({ 'defs/cap.yaml': safe }, profile);
    expect(pinned(loaded)).toEqual([
      { code: 'invalid-value', severity: 'error', file: 'cluster.yaml', line: 9, column: 15, path: '/spec/capabilities/my-trait/rendering/name' },
    ]);
  });
});
