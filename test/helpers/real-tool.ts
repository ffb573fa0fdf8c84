import { spawnSync } from 'node:child_process';

/** A tool an integration test runs for real, as found on this machine. */
export interface RealTool {
  readonly command: string;
  readonly found: boolean;
  /** The first line the tool prints of its version, or '' when it was not found. */
  readonly version: string;
}

/** Looks `command` up by running it with `versionArgs` (stdout and stderr both count). */
export function findTool(command: string, versionArgs: readonly string[] = ['--version']): RealTool {
  const run = spawnSync(command, [...versionArgs], { encoding: 'utf8', timeout: 60_000 });
  if (run.error !== undefined || run.status === null) return { command, found: false, version: '' };
  const version = `${run.stdout}\n${run.stderr}`.trim().split('\n')[0] ?? '';
  return { command, found: true, version };
}

/**
 * Whether a test of an integration must be skipped because its tool is missing. A test of an
 * integration runs the tool itself (docs/integrations.md), and `.ci/run` installs every one, so in
 * CI (`CI` set) a missing tool is never a skip: the test runs and fails on it. Elsewhere the test
 * is skipped and the reason printed.
 */
export function skipWithout(tool: RealTool): boolean {
  if (tool.found || process.env.CI) return false;
  process.stderr.write(`skipped: ${tool.command} is not installed (.ci/run installs it)\n`);
  return true;
}
