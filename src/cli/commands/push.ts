import { readFile, stat } from 'node:fs/promises';
import { basename, relative, resolve, sep } from 'node:path';
import { compareText } from '../../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import { findYamlFiles } from '../../files/find-yaml-files.js';
import { type ConfigFlag, loadRunConfig } from '../../sources/run-config.js';
import { EXIT } from '../exit-code.js';
import type { CommandIo } from '../io.js';
import { printResult } from '../print-result.js';
import { type RegistryCommandOptions, registryOptions } from './registry-options.js';

/** Options of `kurel push`. */
export interface PushCommandOptions extends RegistryCommandOptions {
  config?: ConfigFlag;
  format?: 'text' | 'json';
}

const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Runs `kurel push DIR... oci://REF:VERSION` (docs/registries.md): lints the definitions
 * (refused on any error, exit 1), packs their YAML files reproducibly and pushes them under the
 * SemVer tag; a tag that holds other content is `version-immutable` (exit 1), the same content
 * again changes nothing. Prints `oci://REF@sha256:…`.
 */
export async function runPush(args: readonly string[], flags: PushCommandOptions, io: CommandIo): Promise<number> {
  const json = flags.format === 'json';
  const finish = (diagnostics: Diagnostic[], fatal: boolean, pushed?: { reference: string; digest: string; unchanged: boolean }): number =>
    printResult(
      io,
      { diagnostics, fatal },
      {
        json,
        envelope: (result) => ({
          valid: result.valid,
          diagnostics: result.reported.diagnostics,
          reference: pushed?.reference ?? null,
          digest: pushed?.digest ?? null,
          unchanged: pushed?.unchanged ?? false,
        }),
        text: (result) => {
          if (result.reported.diagnostics.length > 0) io.stdout(result.problemsText('stdout'));
          if (pushed) {
            if (pushed.unchanged) io.stderr(`${args[args.length - 1]} already holds exactly this content: nothing pushed\n`);
            io.stdout(`${pushed.reference}\n`);
          }
        },
      },
    );
  const target = args[args.length - 1] ?? '';
  const dirs = args.slice(0, -1);
  const registry = await import('../../registry/index.js');
  if (dirs.length === 0 || !registry.isOciReference(target)) {
    return finish(
      [fileDiagnostic('kurel push', 'usage', 'expected kurel push DIR... oci://HOST/REPOSITORY:VERSION: folders of definitions, then the reference')],
      true,
    );
  }
  const parsed = registry.parseOciReference(target);
  if ('error' in parsed) return finish([fileDiagnostic(target, 'usage', parsed.error)], true);
  if (parsed.tag === null || parsed.digest !== null || registry.versionOfTag(parsed.tag) === undefined) {
    const found = parsed.range ?? parsed.tag ?? parsed.digest ?? 'no version';
    return finish([fileDiagnostic(target, 'usage', `kurel push needs a SemVer version as the tag, such as :1.2.0; found ${found}`)], true);
  }
  const config = loadRunConfig(flags.config, io.cwd);
  if (!config.ok) return finish(config.diagnostics, true);
  // The definitions are linted as `kurel lint DIR...` would: only a clean set is published.
  const { runLint } = await import('./lint.js');
  let lintOutput = '';
  const lintCode = await runLint(
    dirs,
    { definitions: [], capabilityDef: [], plugin: [], format: [], color: 'never', quiet: true, config: flags.config },
    { ...io, stdout: (text) => (lintOutput += text), stdoutIsTTY: false },
  );
  if (lintCode !== EXIT.ok) {
    io.stdout(lintOutput);
    io.stderr(`kurel push: ${target} not pushed: the definitions have ${lintCode === EXIT.usage ? 'input problems' : 'errors'}\n`);
    return lintCode;
  }
  const gathered = await gatherFiles(dirs, io.cwd);
  if ('diagnostics' in gathered) return finish(gathered.diagnostics, true);
  const options = registryOptions(flags, config.run, io);
  const epoch = io.env.SOURCE_DATE_EPOCH;
  const created = epoch !== undefined && /^\d{1,12}$/.test(epoch) ? new Date(Number(epoch) * 1000).toISOString().replace(/\.000Z$/, 'Z') : undefined;
  const source = io.env.GITHUB_SERVER_URL && io.env.GITHUB_REPOSITORY ? `${io.env.GITHUB_SERVER_URL}/${io.env.GITHUB_REPOSITORY}` : undefined;
  const pushed = await registry.pushArtifact(target, gathered.files, { ...options, ...(created ? { created } : {}), ...(source ? { source } : {}) });
  if ('message' in pushed) return finish([fileDiagnostic(target, pushed.code, pushed.message)], pushed.code !== 'version-immutable');
  return finish([], false, pushed);
}

/** The YAML files under each folder (a file argument is itself), named relative to its folder; a name given twice is a usage problem. */
async function gatherFiles(dirs: readonly string[], cwd: string): Promise<{ files: { name: string; bytes: Uint8Array }[] } | { diagnostics: Diagnostic[] }> {
  const byName = new Map<string, string>();
  const files: { name: string; bytes: Uint8Array }[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const dir of dirs) {
    const root = resolve(cwd, dir);
    const isFile = await stat(root).then(
      (info) => info.isFile(),
      () => false,
    );
    const found = isFile ? { files: [root], diagnostics: [] } : await findYamlFiles(dir, cwd);
    diagnostics.push(...found.diagnostics);
    for (const file of found.files) {
      const path = resolve(cwd, file);
      const name = isFile ? basename(path) : relative(root, path).split(sep).join('/');
      const earlier = byName.get(name);
      if (earlier !== undefined) {
        diagnostics.push(
          fileDiagnostic(file, 'usage', `two files would be ${name} in the artifact: ${earlier} and ${file}; push them as separate artifacts or rename one`),
        );
        continue;
      }
      const bytes = await readFile(path);
      if (bytes.length > MAX_FILE_BYTES) {
        diagnostics.push(fileDiagnostic(file, 'file-too-large', `${file} is ${bytes.length} bytes, more than the 16 MiB an artifact's file may hold`));
        continue;
      }
      byName.set(name, file);
      files.push({ name, bytes });
    }
  }
  if (files.length === 0 && diagnostics.length === 0) diagnostics.push(fileDiagnostic(dirs.join(' '), 'usage', 'no YAML files to push'));
  if (diagnostics.length > 0) return { diagnostics };
  return { files: files.sort((a, b) => compareText(a.name, b.name)) };
}
