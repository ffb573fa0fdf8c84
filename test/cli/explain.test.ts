import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics.js';
import { runKurel } from '../helpers/cli.js';

// docs/configuration.md: every code has docs/codes/<code>.md, shipped with the package,
// printed by kurel explain CODE and carried by SARIF rules; the table of docs/diagnostics.md lists the same codes.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIAGNOSTICS_PAGE = readFileSync(`${ROOT}docs/diagnostics.md`, 'utf8');
const tableCodes = () => DIAGNOSTICS_PAGE.split('\n').flatMap((line) => /^\| `([a-z-]+)` \| (?:error|warning)/.exec(line)?.[1] ?? []);
const pageCodes = () =>
  readdirSync(`${ROOT}docs/codes`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3));

async function explain(code: string) {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stdin: () => Promise.resolve(new Uint8Array()),
    cwd: ROOT,
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  return { code: await runCli(['explain', code], io), stdout, stderr };
}

describe('kurel explain (issue 16)', () => {
  it("covers exactly the codes of the table in docs/diagnostics.md, which are kurel's codes", () => {
    expect([...tableCodes()].sort()).toEqual([...DIAGNOSTIC_CODES].sort());
    expect(pageCodes().sort()).toEqual([...DIAGNOSTIC_CODES].sort());
  });

  it.each([...DIAGNOSTIC_CODES])('prints the page of %s: what it means, a wrong and a right example, how to fix it', async (code) => {
    const page = readFileSync(`${ROOT}docs/codes/${code}.md`, 'utf8');
    expect(page.startsWith(`# ${code}\n\n**Severity:** `)).toBe(true);
    expect(page.split('\n').filter((line) => line.startsWith('## '))).toEqual(['## What it means', '## Wrong', '## Right', '## How to fix it']);
    // A file name, or a registry source's reference (oci://HOST:PORT/REPO:TAG, docs/registries.md), which holds colons of its own.
    expect(page).toMatch(new RegExp(`^(oci://\\S+|\\S[^:]*):(\\d+:\\d+)? (error|warning) ${code} `, 'm'));
    expect(await explain(code)).toEqual({ code: 0, stdout: page, stderr: '' });
  });

  it('exits 2 for a name that is not a code, with the nearest code as a hint', async () => {
    expect(await explain('unknown-fild')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        '<command line>:1:1 error usage "unknown-fild" is not a kurel diagnostic code (the codes are listed in docs/diagnostics.md and in docs/codes/)\n  hint: did you mean unknown-field?\n',
    });
  });

  it('is named once at the end of a text report, for the first code shown', async () => {
    const run = await runKurel(['lint', '-', '--stdin-filepath', 'cluster.yaml'], {
      input:
        'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: x\nspec:\n  capabilities:\n    exposee: {}\n    servicemesh: {}\n',
    });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.includes('kurel explain'))).toEqual(['run kurel explain unknown-capability for details']);
    expect(lines.at(-1)).toBe('run kurel explain unknown-capability for details');
  });

  it('gives every SARIF rule its page as help and what it means as fullDescription', async () => {
    const run = await runKurel(['lint', '-', '--stdin-filepath', 'cluster.yaml', '--format', 'sarif'], {
      input: 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: x\nspec:\n  capabilities:\n    exposee: {}\n',
    });
    const log = JSON.parse(run.stdout) as {
      runs: { tool: { driver: { rules: { id: string; fullDescription: { text: string }; help: { text: string; markdown: string } }[] } } }[];
    };
    const [rule] = log.runs[0]!.tool.driver.rules;
    const page = readFileSync(`${ROOT}docs/codes/unknown-capability.md`, 'utf8');
    expect(rule!.help).toEqual({ text: page, markdown: page });
    expect(rule!.fullDescription.text).toMatch(/^`kurel lint` found a binding whose type no built-in handler, plugin or CapabilityDefinition knows/);
  });
});
