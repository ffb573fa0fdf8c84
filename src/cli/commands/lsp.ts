import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { collectPlatformFlag } from '../collect-platform-flag.js';

const collect = (value: string, previous: string[]) => [...previous, value];

function wholeNumber(value: string): number {
  if (!/^[1-9]\d{0,6}$/.test(value)) throw new InvalidArgumentError(`expected a whole number such as 150, found ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * Adds `kurel lsp` to the command tree: the language server (docs/editors.md) on standard input
 * and output. Its module, and the protocol library, load only when the command runs.
 */
export function registerLspCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('lsp')
    .description("run kurel's language server on standard input and output: lint's diagnostics, fixes, hovers and completion as you type")
    .option('--stdio', 'talk over standard input and output (the only transport; accepted because editors pass it)')
    .option('--config <file>', 'read this configuration file instead of the .kurel.yaml found above each file')
    .option('--no-config', 'read no configuration file')
    .addOption(new Option('--definitions <dir>', 'load CapabilityDefinitions from this folder too (repeatable)').argParser(collect).default([]))
    .addOption(new Option('--capability-def <file>', 'load a CapabilityDefinition file too (repeatable)').argParser(collect).default([]))
    .addOption(
      new Option('--platform <component=version>', "judge profiles at this platform version, over each profile's spec.platform (repeatable)")
        .argParser(collectPlatformFlag)
        .default([]),
    )
    .option('--require-pinned', 'report a binding of a versioned definition without version as an error')
    .option('--no-require-pinned', 'do not require pinned versions (overrides the config file)')
    .option('--strict-capabilities', 'report unknown capabilities as errors')
    .option('--lockfile <file>', 'the lockfile to follow (default: kurel.lock.yaml next to .kurel.yaml)')
    .option('--no-lockfile', 'ignore any lockfile')
    .option('--no-watch', "watch no files on disk: rely on the editor's notifications (workspace/didChangeWatchedFiles)")
    .addOption(new Option('--debounce <ms>', 'quiet time after a keystroke before the file is judged again').argParser(wholeNumber))
    .addOption(new Option('--deadline <ms>', 'how long one judgement may take before the file gets a diagnostic saying so').argParser(wholeNumber))
    .addOption(
      new Option('--memory <mib>', "the judging thread's heap limit in MiB (default 1024); a judgement that exhausts it gets a diagnostic").argParser(
        wholeNumber,
      ),
    )
    .exitOverride()
    .action(async (options) => {
      const { runLanguageServer } = await import('../../lsp/entry.js');
      // Each file is judged from its own repository's folder; paths on the command line are the server's.
      const absolute = (path: string) => resolve(path);
      setExit(
        await runLanguageServer({
          ...(options.config !== undefined ? { config: typeof options.config === 'string' ? absolute(options.config) : options.config } : {}),
          definitions: options.definitions.map(absolute),
          capabilityDef: options.capabilityDef.map(absolute),
          platform: options.platform,
          ...(options.requirePinned !== undefined ? { requirePinned: options.requirePinned } : {}),
          ...(options.strictCapabilities ? { strictCapabilities: true } : {}),
          ...(options.lockfile !== undefined ? { lockfile: typeof options.lockfile === 'string' ? absolute(options.lockfile) : options.lockfile } : {}),
          ...(options.debounce !== undefined ? { debounceMs: options.debounce } : {}),
          ...(options.deadline !== undefined ? { deadlineMs: options.deadline } : {}),
          ...(options.memory !== undefined ? { memoryMiB: options.memory } : {}),
          ...(options.watch === false ? { watch: false } : {}),
        }),
      );
    });
}
