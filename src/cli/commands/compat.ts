import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { assembleCatalogue } from '../../catalogue/assemble-catalogue.js';
import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import { readSourceFile } from '../../files/read-file.js';
import { type CompatPair, type CompatRun, compatOfDefinitions, compatOfFiles } from '../../operations/compat.js';
import type { CompatEnvelope } from '../../operations/envelopes.js';
import type { ConfigurableOptions } from '../../sources/apply-config.js';
import { gatherReadInputs } from '../../sources/definition-entries.js';
import { configureCommand } from '../configure-command.js';
import { formatCompatGithub, formatCompatText } from '../format/compat.js';
import { formatGithub } from '../format/github.js';
import type { CommandIo } from '../io.js';
import { printResult } from '../print-result.js';

/** Options of `kurel compat`. */
export interface CompatCommandOptions extends ConfigurableOptions {
  definitions: string[];
  capabilityDef: string[];
  format: 'text' | 'json' | 'github';
}

const COMMAND_LINE = '<command line>';

/**
 * Runs `kurel compat` (docs/compat.md): two existing files and no definition flag
 * compare those two documents; otherwise the arguments are names (none: every name) whose
 * versions are found with `--definitions` and `--capability-def`. Exit 0 when every pair
 * declares the bump it needs and no document has an error, 1 otherwise, 2 for bad usage or
 * a path that cannot be read.
 */
export async function runCompat(args: readonly string[], flags: CompatCommandOptions, io: CommandIo): Promise<number> {
  const configured = configureCommand(flags, io, (diagnostics) => finish(flags, io, refused(diagnostics)));
  if (!configured.ok) return configured.exitCode;
  // The mode follows the command line; the definitions searched are the configuration's and the flags'.
  const hasDefinitionFlags = flags.definitions.length > 0 || flags.capabilityDef.length > 0;
  const options = configured.options;
  // Compat compares definitions as written: the built-in handlers only, no plugin.
  const builtIns = await assembleCatalogue({ cwd: io.cwd });
  if (!builtIns.ok) return finish(options, io, refused(builtIns.refusal.diagnostics));
  if (args.length === 2 && !hasDefinitionFlags && (await isFile(resolve(io.cwd, args[0]!))) && (await isFile(resolve(io.cwd, args[1]!)))) {
    const [first, second] = args.map((path) => readSourceFile(resolve(io.cwd, path), path));
    if (first!.ok && second!.ok) {
      const run = compatOfFiles(
        { file: args[0]!, content: first!.bytes, origin: 'document' },
        { file: args[1]!, content: second!.bytes, origin: 'document' },
        builtIns.catalogue,
      );
      return finish(options, io, run);
    }
    return finish(options, io, refused([first!, second!].flatMap((r) => (r.ok ? [] : [r.diagnostic]))));
  }
  if (options.definitions.length === 0 && options.capabilityDef.length === 0) return finish(options, io, refused(await withoutDefinitions(args, io.cwd)));
  const gathered = await gatherReadInputs({ definitionDirs: options.definitions, definitionFiles: options.capabilityDef, cwd: io.cwd });
  if (gathered.fatal) return finish(options, io, refused(gathered.diagnostics));
  if (gathered.inputs.length === 0) {
    const where = [...options.definitions, ...options.capabilityDef].join(' ');
    return finish(
      options,
      io,
      refused([...gathered.diagnostics, fileDiagnostic(where, 'io-error', `no definition found: no *.yaml or *.yml files in ${where}`)]),
    );
  }
  const run = compatOfDefinitions(gathered.inputs, args, builtIns.catalogue);
  run.diagnostics.unshift(...gathered.diagnostics);
  return finish(options, io, run);
}

/** Why arguments without a definition flag compare nothing: a path that cannot be read, or names with nowhere to look them up. */
async function withoutDefinitions(args: readonly string[], cwd: string): Promise<Diagnostic[]> {
  const unreadable: Diagnostic[] = [];
  for (const arg of args) {
    const read = looksLikePath(arg) ? readSourceFile(resolve(cwd, arg), arg) : undefined;
    if (read && !read.ok) unreadable.push(read.diagnostic);
  }
  if (unreadable.length > 0) return unreadable;
  const message =
    args.length === 0
      ? 'kurel compat needs two CapabilityDefinition files, or --definitions DIR to compare every version of the names found there'
      : `kurel compat compares two CapabilityDefinition files, or the versions of names found with --definitions DIR; found ${args.length} argument${args.length === 1 ? '' : 's'} and no --definitions`;
  return [fileDiagnostic(COMMAND_LINE, 'usage', message)];
}

const looksLikePath = (arg: string) => arg.includes('/') || /\.ya?ml$/i.test(arg);

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

function refused(diagnostics: Diagnostic[]): CompatRun {
  return { pairs: [], diagnostics, sources: new Map(), fatal: true };
}

function finish(options: CompatCommandOptions, io: CommandIo, run: CompatRun): number {
  const pairs: CompatPair[] = run.fatal ? [] : run.pairs;
  const result = { diagnostics: run.diagnostics, fatal: run.fatal, failed: run.pairs.some((p) => !p.ok), sources: run.sources };
  return printResult(io, result, {
    json: options.format === 'json',
    envelope: ({ valid, reported }): CompatEnvelope => ({ valid, diagnostics: reported.diagnostics, pairs }),
    text: ({ reported, palette, problemsText }) => {
      const shown = reported.diagnostics;
      const parts: string[] = [];
      if (options.format === 'github') {
        if (shown.length > 0) parts.push(formatGithub(shown));
        if (pairs.length > 0) parts.push(formatCompatGithub(pairs));
      } else {
        if (shown.length > 0) parts.push(problemsText('stdout'));
        if (!run.fatal) parts.push(formatCompatText(pairs, reported, palette('stdout')));
      }
      if (parts.length > 0) io.stdout(`${parts.join('\n')}\n`);
    },
  });
}
