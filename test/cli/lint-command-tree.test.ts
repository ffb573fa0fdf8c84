import { type Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/io.js';
import { buildProgram } from '../../src/cli/main.js';

// `kurel lint` builds its own command alone (src/cli/main.ts): the flags, help and usage errors
// of a lint must be exactly those of the whole tree.
function captured(): { io: CommandIo; out: string[] } {
  const out: string[] = [];
  const io: CommandIo = {
    stdout: (text) => out.push(`out:${text}`),
    stderr: (text) => out.push(`err:${text}`),
    stdin: async () => new Uint8Array(),
    cwd: process.cwd(),
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  return { io, out };
}

// What commander does with a lint command line that ends before the action runs: the output and the error.
async function parseWith(only: 'lint' | undefined, argv: string[]): Promise<{ out: string[]; error: string }> {
  const { io, out } = captured();
  const program = buildProgram(io, () => {}, only);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return { out, error: 'none' };
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    return { out, error: `${err.code} ${err.message}` };
  }
}

const lintOf = (program: Command) => program.commands.find((command) => command.name() === 'lint')!;

describe('the command tree of kurel lint', () => {
  it('holds the lint command alone, with the same options, arguments and help as the whole tree', () => {
    const alone = buildProgram(captured().io, () => {}, 'lint');
    const whole = buildProgram(captured().io, () => {});
    expect(alone.commands.map((command) => command.name())).toEqual(['lint']);
    expect(whole.commands.length).toBeGreaterThan(5);
    expect(lintOf(alone).helpInformation()).toBe(lintOf(whole).helpInformation());
    expect(lintOf(alone).options.map((option) => option.flags)).toEqual(lintOf(whole).options.map((option) => option.flags));
  });

  it.each([
    [['lint', '--help']],
    [['lint']],
    [['lint', 'a.yaml', '--colour', 'always']],
    [['lint', 'a.yaml', '--jobs', '0']],
    [['lint', 'a.yaml', '--format', 'xml']],
    [['lint', 'a.yaml', '--strict', '--no-strict', '--quiet', '--jobs']],
  ])('ends %j as the whole tree does', async (argv) => {
    const alone = await parseWith('lint', argv);
    expect(alone.error).not.toBe('none');
    expect(alone).toEqual(await parseWith(undefined, argv));
  });
});
