import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type CliRun, type JsonEnvelope, runCaptured } from '../helpers/cli.js';

/** The first line of a cluster profile, up to `spec:`. */
export const PROFILE_HEAD = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n';

/** A run of a command in this process: exit code and both streams. */
export type InProcessRun = CliRun;

/**
 * Writes `files` (relative path → text or bytes) into a fresh folder and runs `kurel <args>` in
 * this process with that folder as its working directory; the folder is removed after.
 */
export async function runInFolder(files: Readonly<Record<string, string | Buffer>>, args: readonly string[]): Promise<InProcessRun> {
  const dir = mkdtempSync(join(tmpdir(), 'kurel-hostile-'));
  try {
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    return await runCaptured(args, { cwd: dir, env: { NO_COLOR: '1' } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `kurel lint <args> --format json` over `files`, in this process. */
export async function lintInFolder(files: Readonly<Record<string, string | Buffer>>, args: readonly string[]): Promise<InProcessRun & { json: JsonEnvelope }> {
  const run = await runInFolder(files, ['lint', ...args, '--format', 'json']);
  return { ...run, json: JSON.parse(run.stdout) as JsonEnvelope };
}

/** What these tests pin of a diagnostic: code, position, path, and how long its texts are. */
export function pinned(json: JsonEnvelope): { code: string; file: string; line: number; column: number; path: string }[] {
  return json.diagnostics.map((d) => ({ code: d.code, file: d.file, line: d.line, column: d.column, path: d.path }));
}

/** The longest message or hint of a report. */
export function longestText(json: JsonEnvelope): number {
  return Math.max(0, ...json.diagnostics.map((d) => Math.max(d.message.length, d.hint?.length ?? 0)));
}
