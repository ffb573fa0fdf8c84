import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/io.js';
import { type CommandResult, type PrintedResult, printResult } from '../../src/cli/print-result.js';
import { type Diagnostic, fileDiagnostic } from '../../src/core/diagnostics.js';

// The one place a command's result becomes its output and exit code (docs/cli.md "Exit codes").

function captured(tty: { stdout?: boolean; stderr?: boolean } = {}) {
  const out = { stdout: '', stderr: '' };
  const io: CommandIo = {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    stdin: async () => new Uint8Array(),
    cwd: '/',
    env: {},
    stdoutIsTTY: tty.stdout === true,
    stderrIsTTY: tty.stderr === true,
  };
  return { io, out };
}

const warning = (file: string): Diagnostic => ({ ...fileDiagnostic(file, 'io-error', 'a warning'), severity: 'warning' });
const failure = (file: string): Diagnostic => fileDiagnostic(file, 'io-error', 'cannot read it');

function print(result: CommandResult, json: boolean, tty: { stdout?: boolean; stderr?: boolean } = {}) {
  const { io, out } = captured(tty);
  let seen: PrintedResult | undefined;
  const code = printResult(io, result, {
    json,
    envelope: (printed) => ({ valid: printed.valid, diagnostics: printed.reported.diagnostics }),
    text: (printed) => {
      seen = printed;
      if (printed.reported.diagnostics.length > 0) io.stderr(`${printed.problemsText('stderr')}\n`);
    },
  });
  return { code, out, seen };
}

describe('printResult', () => {
  it('exits 2 when fatal, 1 for an error or a failed check, else 0; valid exactly when 0', () => {
    const cases: [CommandResult, number][] = [
      [{ diagnostics: [], fatal: false }, 0],
      [{ diagnostics: [warning('a.yaml')], fatal: false }, 0],
      [{ diagnostics: [warning('a.yaml')], fatal: false, failed: true }, 1],
      [{ diagnostics: [failure('a.yaml')], fatal: false }, 1],
      [{ diagnostics: [failure('a.yaml')], fatal: true, failed: true }, 2],
      [{ diagnostics: [], fatal: true }, 2],
    ];
    for (const [result, expected] of cases) {
      const { code, out } = print(result, true);
      expect(code).toBe(expected);
      expect(JSON.parse(out.stdout).valid).toBe(expected === 0);
      expect(out.stderr).toBe('');
    }
  });

  it('prints the envelope alone on standard output for JSON, with the problems sorted', () => {
    const { out } = print({ diagnostics: [failure('b.yaml'), warning('a.yaml')], fatal: false }, true);
    const shown = [warning('a.yaml'), failure('b.yaml')];
    expect(out.stdout).toBe(`${JSON.stringify({ valid: false, diagnostics: shown }, null, 2)}\n`);
  });

  it('shows the first 1,000 problems and one too-many-problems summary, judging all of them', () => {
    const many = Array.from({ length: 1_002 }, (_, i) => warning(`f${String(i).padStart(4, '0')}.yaml`));
    const { code, out } = print({ diagnostics: [...many, failure('z.yaml')], fatal: false }, true);
    const envelope = JSON.parse(out.stdout) as { valid: boolean; diagnostics: Diagnostic[] };
    expect(code).toBe(1);
    expect(envelope.diagnostics).toHaveLength(1_001);
    expect(envelope.diagnostics.filter((d) => d.code === 'too-many-problems').map((d) => [d.file, d.message])).toEqual([
      ['f1000.yaml', '3 more problems not shown (1 error, 2 warnings): a run reports its first 1000'],
    ]);
  });

  it('colours text only for the stream that is a terminal', () => {
    const plain = print({ diagnostics: [failure('a.yaml')], fatal: false }, false, { stdout: true });
    expect(plain.out.stderr).toBe('a.yaml: error io-error cannot read it\n');
    const coloured = print({ diagnostics: [failure('a.yaml')], fatal: false }, false, { stderr: true });
    expect(coloured.out.stderr).toContain('\u001b[31merror\u001b[39m');
    expect(coloured.seen?.palette('stdout').red('x')).toBe('x');
  });

  it('never lets a failed check lower the exit code, for every result', () => {
    const result = fc.record({
      errors: fc.nat({ max: 3 }),
      warnings: fc.nat({ max: 3 }),
      fatal: fc.boolean(),
      failed: fc.boolean(),
    });
    fc.assert(
      fc.property(result, ({ errors, warnings, fatal, failed }) => {
        const diagnostics = [...Array.from({ length: errors }, () => failure('a.yaml')), ...Array.from({ length: warnings }, () => warning('a.yaml'))];
        const without = print({ diagnostics, fatal }, true).code;
        const withCheck = print({ diagnostics, fatal, failed }, true).code;
        expect(withCheck).toBe(failed && without === 0 ? 1 : without);
      }),
    );
  });
});
