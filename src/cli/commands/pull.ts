import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import { type ConfigFlag, loadRunConfig } from '../../sources/run-config.js';
import type { CommandIo } from '../io.js';
import { printResult } from '../print-result.js';
import { type RegistryCommandOptions, registryOptions } from './registry-options.js';

/** Options of `kurel pull`. */
export interface PullCommandOptions extends RegistryCommandOptions {
  output?: string;
  config?: ConfigFlag;
  format?: 'text' | 'json';
}

/**
 * Runs `kurel pull oci://REF [--output DIR]` (docs/registries.md): resolves the reference, reads
 * and verifies the artifact, and writes its definition files under DIR (by default a folder named
 * after the repository's last part) for inspection. A source that cannot be reached or read exits 2.
 */
export async function runPull(reference: string, flags: PullCommandOptions, io: CommandIo): Promise<number> {
  const json = flags.format === 'json';
  const finish = (
    diagnostics: Diagnostic[],
    fatal: boolean,
    pulled?: { reference: string; tag: string | null; digest: string; output: string; files: string[] },
  ): number =>
    printResult(
      io,
      { diagnostics, fatal },
      {
        json,
        envelope: (result) => ({
          valid: result.valid,
          diagnostics: result.reported.diagnostics,
          reference: pulled?.reference ?? reference,
          tag: pulled?.tag ?? null,
          digest: pulled?.digest ?? null,
          output: pulled?.output ?? null,
          files: pulled?.files ?? [],
        }),
        text: (result) => {
          if (result.reported.diagnostics.length > 0) io.stdout(result.problemsText('stdout'));
          if (pulled) io.stdout(`wrote ${pulled.files.length} ${pulled.files.length === 1 ? 'file' : 'files'} to ${pulled.output} from ${pulled.reference}\n`);
        },
      },
    );
  const registry = await import('../../registry/index.js');
  const parsed = registry.parseOciReference(reference);
  if ('error' in parsed) return finish([fileDiagnostic(reference, 'usage', parsed.error)], true);
  const config = loadRunConfig(flags.config, io.cwd);
  if (!config.ok) return finish(config.diagnostics, true);
  const resolved = await registry.resolveSource(reference, registryOptions(flags, config.run, io));
  if ('message' in resolved) return finish([fileDiagnostic(reference, resolved.code, resolved.message)], true);
  const output = flags.output ?? parsed.repository.split('/').pop()!;
  const root = resolve(io.cwd, output);
  try {
    for (const file of resolved.files) {
      // Names were checked when the layer was read: relative, without `..`.
      const path = join(root, ...file.name.split('/'));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.bytes);
    }
  } catch (err) {
    return finish([fileDiagnostic(output, 'io-error', `cannot write to ${output}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)], true);
  }
  const byDigest = `oci://${parsed.registry}/${parsed.repository}@${resolved.digest}`;
  return finish([], false, { reference: byDigest, tag: resolved.tag, digest: resolved.digest, output, files: resolved.files.map((f) => f.name) });
}
