import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import { stringifyJson } from '../core/json-text.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../core/listen-defaults.js';
import { VERSION } from '../core/package-version.js';
import { type EnvelopeShape, envelopeOf } from '../operations/envelopes.js';
import { collectPlatformFlag } from './collect-platform-flag.js';
import { registerLspCommand } from './commands/lsp.js';
import { EXIT } from './exit-code.js';
import { LINT_FORMATS } from './format/index.js';
import { COLOR_CHOICES, formatText, PLAIN } from './format/text.js';
import type { CommandIo } from './io.js';
import { collectReportTarget } from './report-targets.js';
import { readStdin } from './stdin.js';

const collect = (value: string, previous: string[]) => [...previous, value];

// The flags that add capabilities besides the built-ins, the same on every command that takes them.
const definitionsOption = () => new Option('--definitions <dir>', 'load CapabilityDefinitions from this folder (repeatable)').argParser(collect).default([]);
// docs/registries.md: how the registry sources among the definitions are reached.
const offlineOption = () => new Option('--offline', 'never touch the network: registry sources are read from the cache only');
const insecureRegistryOption = () =>
  new Option('--insecure-registry <host>', 'reach this registry host over plain HTTP (repeatable; loopback hosts always may)').argParser(collect).default([]);
const capabilityDefOption = () => new Option('--capability-def <file>', 'load a CapabilityDefinition file (repeatable)').argParser(collect).default([]);
const pluginOption = () => new Option('--plugin <module>', 'load a handler plugin: a path or a package name (repeatable)').argParser(collect).default([]);
// The version flags (docs/versions.md): each `--no-*` turns off what a config file turned on.
const requirePinnedOption = () => new Option('--require-pinned', 'report a binding of a versioned definition without version as an error');
const noRequirePinnedOption = () => new Option('--no-require-pinned', 'do not require pinned versions (overrides the config file)');
const lockfileOption = () =>
  new Option('--lockfile <file>', 'the lockfile to follow (default: kurel.lock.yaml next to .kurel.yaml, else in the working directory)');
const noLockfileOption = () => new Option('--no-lockfile', 'ignore any lockfile');
// docs/platform.md: the version of one platform component, over the profile's spec.platform.
const platformOption = (what: string) => new Option('--platform <component=version>', what).argParser(collectPlatformFlag).default([]);
// docs/configuration.md: every command that takes --definitions reads .kurel.yaml, or the one named, or none.
const configOption = () => new Option('--config <file>', 'read this configuration file instead of the .kurel.yaml found above the working directory');
const noConfigOption = () => new Option('--no-config', 'read no configuration file');
const debugOption = () => new Option('--debug', 'say on standard error which configuration file the run read');
// docs/configuration.md: --color first, then FORCE_COLOR, then NO_COLOR, else whether the stream is a terminal.
// `--format text|json`, the output choice of most commands (lint's takes report targets).
const textOrJsonOption = () => new Option('--format <format>', 'output format').choices(['text', 'json']).default('text');
const colorOption = () =>
  new Option('--color <when>', 'colour the text output: auto (on a terminal), always or never').choices([...COLOR_CHOICES]).default('auto');
const PROFILE_PLATFORM = "judge profiles at this platform version, such as kubernetes=1.29, over the profile's spec.platform (repeatable)";
const NARROW_PLATFORM = 'narrow the schemas to this platform version, such as kubernetes=1.29: fields it lacks are left out (repeatable)';

// `--jobs N`: a whole number from 1.
function parseJobs(value: string): number {
  if (!/^[1-9][0-9]{0,3}$/.test(value)) throw new InvalidArgumentError('expected a whole number of threads from 1 to 9999');
  return Number(value);
}

/**
 * Builds the `kurel` command tree; each action loads its command module on demand. With `only`
 * `lint`, the tree holds that command alone: a lint parses its own flags, never another's.
 */
export function buildProgram(io: CommandIo, setExit: (code: number) => void, only?: 'lint'): Command {
  const program = new Command('kurel')
    .description('Validate Kubernetes ClusterProfiles and CapabilityDefinitions, and resolve capabilities at build')
    .version(VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    // Commander's own error lines are not printed: runCli reports them as `usage` diagnostics.
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s), outputError: () => {} });
  // Every command that reads definition entries resolves their registry sources (docs/registries.md)
  // with its flags, the configuration's insecureRegistries and its environment; loaded only when
  // a command names a definitions entry.
  let releaseRegistry: (() => void) | undefined;
  program.hook('preAction', async (_program, action) => {
    const flags = action.opts() as { definitions?: unknown; offline?: boolean; insecureRegistry?: string[]; config?: string | false };
    // lint, build and lock pass resolvers of their own, which follow the lockfile; serve's lasts as long as the service.
    if (!Array.isArray(flags.definitions) || ['lint', 'build', 'lock', 'serve'].includes(action.name())) return;
    const { useCommandRegistry } = await import('./registry-access.js');
    releaseRegistry = useCommandRegistry(flags, io);
  });
  program.hook('postAction', () => {
    releaseRegistry?.();
    releaseRegistry = undefined;
  });

  program
    .command('lint')
    .description('lint ClusterProfile and CapabilityDefinition files, folders of them, or - for standard input')
    .argument('<paths...>', 'files, directories (searched recursively for *.yaml and *.yml) or - for standard input')
    .addOption(definitionsOption())
    .addOption(offlineOption())
    .addOption(insecureRegistryOption())
    .addOption(capabilityDefOption())
    .addOption(pluginOption())
    .addOption(platformOption(PROFILE_PLATFORM))
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(debugOption())
    .option('--strict', 'exit 1 on warnings too')
    .option('--no-strict', 'turn off strict: true of the configuration')
    .option('--strict-capabilities', 'report unknown capabilities as errors')
    .option('--no-strict-capabilities', 'turn off strictCapabilities: true of the configuration')
    .addOption(requirePinnedOption())
    .addOption(noRequirePinnedOption())
    .addOption(lockfileOption())
    .addOption(noLockfileOption())
    .addOption(
      new Option('--format <format[=file]>', `a report: ${LINT_FORMATS.join(', ')}, to standard output or with =FILE to a file (repeatable; default text)`)
        .argParser(collectReportTarget)
        .default([]),
    )
    .addOption(colorOption())
    .option('--quiet', 'print only the problems that fail the run (text and github)')
    .option('--stdin-filepath <name>', 'the file name to report for standard input')
    .option('--cache', 'reuse the results of earlier runs for files that did not change (kept in .kurelcache)')
    .option('--cache-location <path>', 'the cache file, or a folder to keep .kurelcache in (default: the working directory)')
    .addOption(new Option('--jobs <n>', 'threads that share the files (default: the cores available, one per 20,000 files)').argParser(parseJobs))
    .option('--search-files', "read the files named as a folder's files: other kinds skipped, ignore applied, none found no error (for commit hooks)")
    .option('--paths-relative-to <dir>', "name files in reports relative to this folder, such as the repository's root")
    .exitOverride()
    .action(async (paths: string[], options) => {
      const { runLint } = await import('./commands/lint.js');
      setExit(await runLint(paths, options, io));
    });
  // Every lint starts here: building the other commands' flags costs it several milliseconds.
  if (only === 'lint') return program;

  program
    .command('build')
    .description('resolve every trait of an application against a cluster profile and print the resolved application')
    .argument('<app>', 'an application file, or a package directory holding app.yaml (its definitions/ folder is always loaded)')
    .addOption(
      new Option(
        '--profile <file>',
        'a ClusterProfile to build against (repeatable; a quoted glob such as clusters/*.yaml judges the application against each)',
      )
        .argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value])
        .makeOptionMandatory(),
    )
    .addOption(definitionsOption())
    .addOption(offlineOption())
    .addOption(insecureRegistryOption())
    .addOption(capabilityDefOption())
    .addOption(pluginOption())
    .addOption(platformOption(PROFILE_PLATFORM))
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(debugOption())
    .option('--strict-capabilities', 'report used capabilities that nothing validates as errors')
    .option('--no-strict-capabilities', 'turn off strictCapabilities: true of the configuration')
    .addOption(requirePinnedOption())
    .addOption(noRequirePinnedOption())
    .addOption(lockfileOption())
    .addOption(noLockfileOption())
    .addOption(new Option('--output <format>', 'how the resolved application is printed with --format text').choices(['yaml', 'json']).default('yaml'))
    .addOption(colorOption())
    .addOption(textOrJsonOption())
    .exitOverride()
    .action(async (target: string, options) => {
      const { runBuild } = await import('./commands/build.js');
      setExit(await runBuild(target, options, io));
    });

  withCatalogueFlags(
    program
      .command('lock')
      .description('lint profiles and write kurel.lock.yaml: the definition version and digest every binding resolves to')
      .argument('<paths...>', 'ClusterProfile files, directories or - for standard input'),
  )
    .addOption(new Option('--check', 'write nothing; exit 1 when the lockfile would change (for CI)').default(false).conflicts('update'))
    .option('--update', 'resolve every binding afresh to the highest version its pin allows, accepting changed digests', false)
    .addOption(textOrJsonOption())
    .option('--stdin-filepath <name>', 'the file name to report (and lock) for standard input')
    .exitOverride()
    .action(async (paths: string[], options) => {
      const { runLock } = await import('./commands/lock.js');
      setExit(await runLock(paths, options, io));
    });

  withCatalogueFlags(
    program
      .command('outdated')
      .description('for every binding of a versioned definition: its pin, resolved and locked versions, the highest its pin allows and the highest release')
      .argument('[paths...]', 'ClusterProfile files or directories (default: the profiles the lockfile lists)'),
  )
    .addOption(textOrJsonOption())
    .option('--stdin-filepath <name>', 'the file name to report for standard input')
    .option('--check', 'exit 1 when a binding resolves below the highest version its pin allows or the highest release (for CI)', false)
    .exitOverride()
    .action(async (paths: string[], options) => {
      const { runOutdated } = await import('./commands/outdated.js');
      setExit(await runOutdated(paths, options, io));
    });

  withCatalogueFlags(
    program
      .command('migrate')
      .description("move every binding of a definition to another of its versions, rewriting the profiles' text and keeping every comment")
      .argument('<paths...>', 'ClusterProfile files, directories or - for standard input (read only: it cannot be rewritten)')
      .addOption(
        new Option('--to <name@version>', 'a definition and the exact version to move its bindings to, such as redis-sidecar@2.0.0 (repeatable)')
          .argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value])
          .makeOptionMandatory(),
      ),
  )
    .addOption(
      new Option('--write', 'rewrite the files in place (atomically, all or none; nothing is written when there is an error)')
        .default(false)
        .conflicts('check'),
    )
    .option('--check', 'write nothing; exit 1 when any file would change (for CI)', false)
    .option('--lossy', 'drop values the version migrated to has no place for (a warning instead of an error)', false)
    .addOption(textOrJsonOption())
    .option('--stdin-filepath <name>', 'the file name to report for standard input')
    .exitOverride()
    .action(async (paths: string[], options) => {
      const { runMigrate } = await import('./commands/migrate.js');
      setExit(await runMigrate(paths, options, io));
    });

  program
    .command('compat')
    .description('check definition releases against the Kubernetes API change rules: the bump each pair of versions needs and declares')
    .argument('[args...]', 'two CapabilityDefinition files to compare, or with --definitions the names whose versions to compare (default: every name)')
    .addOption(definitionsOption())
    .addOption(capabilityDefOption())
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(debugOption())
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'))
    .exitOverride()
    .action(async (args: string[], options) => {
      const { runCompat } = await import('./commands/compat.js');
      setExit(await runCompat(args, options, io));
    });

  program
    .command('schema')
    .description('print the JSON Schema (draft 2020-12) of one capability rendering, or of a whole cluster.yaml without TYPE')
    .argument('[type]', 'a capability type (expose, certificate, a definition name, ...), optionally with a version pin: redis-sidecar@^2.1')
    .addOption(definitionsOption())
    .addOption(capabilityDefOption())
    .addOption(pluginOption())
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(debugOption())
    .addOption(platformOption(NARROW_PLATFORM))
    .exitOverride()
    .action(async (type: string | undefined, options) => {
      const { runSchema } = await import('./commands/schema.js');
      setExit(await runSchema(type, options, io));
    });

  program
    .command('types')
    .description('print TypeScript declarations of a ClusterProfile and of every capability rendering')
    .option('--out <file>', 'write the declarations to this file instead of standard output')
    .addOption(definitionsOption())
    .addOption(capabilityDefOption())
    .addOption(pluginOption())
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(debugOption())
    .addOption(platformOption(NARROW_PLATFORM))
    .exitOverride()
    .action(async (options) => {
      const { runTypes } = await import('./commands/types.js');
      setExit(await runTypes(options, io));
    });

  program
    .command('capabilities')
    .description('list every capability type kurel knows: built-ins, plugins and CapabilityDefinitions')
    .addOption(definitionsOption())
    .addOption(capabilityDefOption())
    .addOption(pluginOption())
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(debugOption())
    .addOption(textOrJsonOption())
    .exitOverride()
    .action(async (options) => {
      const { runCapabilities } = await import('./commands/capabilities.js');
      setExit(await runCapabilities(options, io));
    });

  program
    .command('crd')
    .description('print the Kubernetes CustomResourceDefinitions of ClusterProfile and CapabilityDefinition')
    .addOption(new Option('--format <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .exitOverride()
    .action(async (options) => {
      const { runCrd } = await import('./commands/crd.js');
      setExit(runCrd(options, io));
    });

  program
    .command('explain')
    .description('explain a diagnostic code: what it means, a wrong and a right example, how to fix it')
    .argument('<code>', 'a diagnostic code, such as unknown-field')
    .exitOverride()
    .action(async (code: string) => {
      const { runExplain } = await import('./commands/explain.js');
      setExit(runExplain(code, io));
    });

  program
    .command('push')
    .description('lint CapabilityDefinitions and push them to an OCI registry as an immutable SemVer version')
    .argument('<args...>', 'folders (or files) of CapabilityDefinitions, then oci://HOST/REPOSITORY:VERSION')
    .option('--insecure-registry <host>', 'reach this registry host over plain HTTP (repeatable; loopback hosts always may)', collect, [])
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(textOrJsonOption())
    .exitOverride()
    .action(async (args: string[], options) => {
      const { runPush } = await import('./commands/push.js');
      setExit(await runPush(args, options, io));
    });

  program
    .command('pull')
    .description('fetch CapabilityDefinitions from an OCI registry and write them to a folder for inspection')
    .argument('<reference>', 'oci://HOST/REPOSITORY with :TAG, :RANGE (such as ^1.2) or @sha256:DIGEST')
    .option('--output <dir>', "the folder to write the files to (default: the repository's last part)")
    .option('--insecure-registry <host>', 'reach this registry host over plain HTTP (repeatable; loopback hosts always may)', collect, [])
    .option('--offline', 'never touch the network: read only what the cache holds')
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(textOrJsonOption())
    .exitOverride()
    .action(async (reference: string, options) => {
      const { runPull } = await import('./commands/pull.js');
      setExit(await runPull(reference, options, io));
    });

  program
    .command('serve')
    .description('serve the validation API over HTTP (routes in openapi.yaml); without named definitions, the embedded definitions/')
    .option('--host <host>', 'the address to listen on', DEFAULT_HOST)
    .option('--port <port>', 'the port to listen on (0 picks a free one)', DEFAULT_PORT)
    .option('--definitions <dir>', 'load CapabilityDefinitions from this folder instead of the embedded ones (repeatable; reloaded on SIGHUP)', collect, [])
    .addOption(offlineOption())
    .addOption(insecureRegistryOption())
    .option('--watch-definitions', 'reload by itself when a file under a --definitions folder changes', false)
    .addOption(pluginOption())
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(debugOption())
    .option('--lockfile <file>', 'serve only the definition versions this lockfile locks; refuse to start or reload when a digest differs')
    .addOption(requirePinnedOption())
    .addOption(noRequirePinnedOption())
    .option('--tls-cert <file>', 'serve HTTPS only, with this PEM certificate (reloaded when the file changes; needs --tls-key)')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .option(
      '--processes <n>',
      "serving processes, kept by a supervisor that replaces any that ends (default: the container's CPU quota, else os.availableParallelism())",
    )
    .option(
      '--workers <n>',
      'worker threads of each serving process that validate, build and publish schemas (default: the CPUs divided among the processes, at least 1)',
    )
    .option('--worker-memory <mib>', "each worker's heap limit in MiB; a request that exceeds it gets 413 and the worker is replaced", '512')
    .option(
      '--inline-max-bytes <n>',
      'validations and builds with a body of at most this many bytes are judged on the serving process itself, not handed to a worker, when no plugin is loaded (0: never)',
      '2048',
    )
    .option(
      '--request-timeout <duration>',
      "time from a request's first byte to its answer, such as 5s or 500ms: then 408 while the body is arriving, 503 once queued or running (the work is cancelled)",
      '5s',
    )
    .option('--send-timeout <duration>', 'time an answer may take to be read by the client before it is cut', '30s')
    .option(
      '--admin-token-file <file>',
      'POST /v1/reload requires Authorization: Bearer <the token in this file>, from anywhere; without it, only loopback callers may reload',
    )
    .exitOverride()
    .action(async (options) => {
      const { runServe } = await import('./commands/serve.js');
      setExit(await runServe(options, io));
    });

  registerLspCommand(program, setExit);
  return program;
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(
    io,
    (code) => {
      exitCode = code;
    },
    argv[0] === 'lint' ? 'lint' : undefined,
  );
  // `kurel help nosuch` is the usage error `kurel nosuch` is, with its did-you-mean, not the whole help.
  const named = argv[0] === 'help' && argv[1] !== undefined && !argv[1].startsWith('-') ? argv[1] : undefined;
  const args = named !== undefined && !program.commands.some((c) => c.name() === named || c.aliases().includes(named)) ? argv.slice(1) : argv;
  try {
    await program.parseAsync([...args], { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // `kurel` with no command prints the help on standard error and is a usage error like any other.
      if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      const diagnostic = usageDiagnostic(err.message);
      if (ENVELOPE_COMMANDS.has(argv[0] ?? '') && wantsJson(argv)) {
        // Each command's envelope has its own members, also when the command line is wrong.
        io.stdout(`${stringifyJson(envelopeOf(envelopeShapeOf(argv[0]), false, [diagnostic]))}\n`);
      } else {
        io.stderr(`${formatText([diagnostic], new Map(), PLAIN)}\n`);
      }
      return EXIT.usage;
    }
    throw err;
  }
}

/**
 * Commander's error as the one shape every usage error has (README, docs/codes/usage.md):
 * `<command line>:1:1 error usage unknown option '--colour'`, its suggestion as the hint.
 */
function usageDiagnostic(message: string): Diagnostic {
  const [first = '', ...rest] = message.replace(/^error: /, '').split('\n');
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(' ').trim());
  return fileDiagnostic('<command line>', 'usage', first.replace(/\.$/, ''), suggestion ? { hint: `did you mean ${suggestion[1]}?` } : {});
}

// The commands whose `--format json` is an envelope (docs/cli.md); any other command's
// JSON is its own data (a schema, a CRD, a capability list), never an envelope.
const ENVELOPE_COMMANDS: ReadonlySet<string> = new Set(['lint', 'build', 'lock', 'outdated', 'migrate', 'compat']);

function envelopeShapeOf(command: string | undefined): EnvelopeShape {
  if (command === 'build' || command === 'lock' || command === 'outdated' || command === 'migrate' || command === 'compat') return command;
  return 'run';
}

// Only a JSON report on standard output is an envelope to print; `json=FILE` goes to a file.
function wantsJson(argv: readonly string[]): boolean {
  return argv.some((arg, i) => arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json'));
}

// A reader that goes away (`kurel lint … | head`) ends the output, not the run: what is left to
// print is dropped, nothing is said about it, and the exit code is the one the run would have had.
const gone = { stdout: false, stderr: false, failed: false };

function guard(stream: NodeJS.WriteStream, name: 'stdout' | 'stderr'): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    gone[name] = true;
    // Any other failure to write is a failure of the run: exit 2, said where it still can be.
    if (err.code === 'EPIPE') return;
    gone.failed = true;
    if (name === 'stdout' && !gone.stderr) process.stderr.write(`kurel: cannot write to standard output: ${err.code ?? err.message}\n`);
  });
}

const processIo: CommandIo = {
  stdout: (text) => {
    if (!gone.stdout) process.stdout.write(text);
  },
  stderr: (text) => {
    if (!gone.stderr) process.stderr.write(text);
  },
  stdin: readStdin,
  cwd: process.cwd(),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
};

/** Runs `kurel` with the process's arguments and streams, and sets its exit code (dist/cli.cjs, through bin.ts). */
export function runMain(): void {
  guard(process.stdout, 'stdout');
  guard(process.stderr, 'stderr');
  runCli(process.argv.slice(2), processIo).then(
    (code) => {
      process.exitCode = gone.failed ? EXIT.usage : code;
    },
    (err: unknown) => {
      if (!gone.stderr) process.stderr.write(`kurel: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
      process.exitCode = EXIT.usage;
    },
  );
}

/** The flags of every command that judges profiles against a catalogue and a lockfile, in the order help lists them. */
function withCatalogueFlags(command: Command): Command {
  return command
    .addOption(definitionsOption())
    .addOption(offlineOption())
    .addOption(insecureRegistryOption())
    .addOption(capabilityDefOption())
    .addOption(pluginOption())
    .addOption(platformOption(PROFILE_PLATFORM))
    .addOption(configOption())
    .addOption(noConfigOption())
    .addOption(debugOption())
    .option('--strict-capabilities', 'report unknown capabilities as errors')
    .option('--no-strict-capabilities', 'turn off strictCapabilities: true of the configuration')
    .addOption(requirePinnedOption())
    .addOption(noRequirePinnedOption())
    .addOption(lockfileOption())
    .addOption(noLockfileOption());
}
