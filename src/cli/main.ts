#!/usr/bin/env node
import { Command, CommanderError, Option } from 'commander';
import { fileDiagnostic } from '../documents/read-file.js';
import { EXIT } from './exit-code.js';
import { stringifyJson } from './format/json.js';
import { LINT_FORMATS } from './format/index.js';
import { readStdin } from './inputs.js';
import type { CommandIo } from './io.js';
import { VERSION } from '../version.js';

const collect = (value: string, previous: string[]) => [...previous, value];

/** Builds the `kurel` command tree; each action loads its command module on demand. */
export function buildProgram(io: CommandIo, setExit: (code: number) => void): Command {
  const program = new Command('kurel')
    .description('Validate Kubernetes ClusterProfiles and CapabilityDefinitions, and resolve capabilities at build')
    .version(VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });

  program
    .command('lint')
    .description('lint ClusterProfile and CapabilityDefinition files, folders of them, or - for standard input')
    .argument('<paths...>', 'files, directories (searched recursively for *.yaml and *.yml) or - for standard input')
    .option('--definitions <dir>', 'load CapabilityDefinitions from this folder (repeatable)', collect, [])
    .option('--capability-def <file>', 'load a CapabilityDefinition file (repeatable)', collect, [])
    .option('--plugin <module>', 'load a handler plugin: a path or a package name (repeatable)', collect, [])
    .option('--strict', 'exit 1 on warnings too', false)
    .option('--strict-capabilities', 'report unknown capabilities as errors', false)
    .addOption(new Option('--format <format>', 'output format').choices([...LINT_FORMATS]).default('text'))
    .option('--stdin-filepath <name>', 'the file name to report for standard input')
    .exitOverride()
    .action(async (paths: string[], options) => {
      const { runLint } = await import('./commands/lint.js');
      setExit(await runLint(paths, options, io));
    });

  return program;
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      if (wantsJson(argv)) {
        const diagnostic = fileDiagnostic('<command line>', 'usage', err.message.replace(/^error: /, ''));
        io.stdout(stringifyJson({ valid: false, diagnostics: [diagnostic], files: [] }) + '\n');
      }
      return EXIT.usage;
    }
    throw err;
  }
}

function wantsJson(argv: readonly string[]): boolean {
  return argv.some((arg, i) => arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json'));
}

const processIo: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: readStdin,
  cwd: process.cwd(),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
};

// Bundled as dist/cli.js, the entry runs itself; imported by tests, it does not.
const isMain = import.meta.url.endsWith('/cli.js');
if (isMain) {
  runCli(process.argv.slice(2), processIo).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`kurel: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
      process.exitCode = EXIT.usage;
    },
  );
}
