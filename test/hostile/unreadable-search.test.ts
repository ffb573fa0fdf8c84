import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type CliRun, type JsonEnvelope } from '../helpers/cli.js';
import { lintBounded } from './bounded-cli.js';

// Issue 36 row 10 and issue 37 row 2 (docs/codes/io-error.md: "error (exit 2)"): what a folder
// search cannot read (a folder or file without permission, a symbolic link loop, a link that
// leaves the folder, a FIFO named like YAML) is an io-error naming it, and the run exits 2,
// while the rest of the folder is still checked.

const PROFILE = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities: {}\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-unreadable-'));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'odd'));
  writeFileSync(join(dir, 'odd/a-prod.yaml'), PROFILE);
  symlinkSync('b-loop.yaml', join(dir, 'odd/b-loop.yaml'));
  symlinkSync('/etc/passwd', join(dir, 'odd/c-passwd.yaml'));
  execFileSync('mkfifo', [join(dir, 'odd/d-pipe.yaml')]);
  mkdirSync(join(dir, 'locked/secret'), { recursive: true });
  writeFileSync(join(dir, 'locked/a-prod.yaml'), PROFILE);
  writeFileSync(join(dir, 'locked/secret/b.yaml'), PROFILE);
  writeFileSync(join(dir, 'locked/c-closed.yaml'), PROFILE);
  chmodSync(join(dir, 'locked/secret'), 0o000);
  chmodSync(join(dir, 'locked/c-closed.yaml'), 0o000);
});
afterAll(() => {
  chmodSync(join(dir, 'locked/secret'), 0o755);
  rmSync(dir, { recursive: true, force: true });
});

const diagnosticsOf = (json: JsonEnvelope) => json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message]);

describe('a folder search that meets what it cannot read', () => {
  it('exits 2 for a symbolic link loop, a link leaving the folder and a FIFO, and checks the profile beside them (issue 37 row 2)', async () => {
    const run = await lintBounded(['odd'], { cwd: dir });
    expect({ code: run.code, diagnostics: diagnosticsOf(run.json), files: run.json.files.map((f) => [f.path, f.status]) }).toEqual({
      code: 2,
      diagnostics: [
        ['io-error', 'odd/b-loop.yaml', 1, 1, 'odd/b-loop.yaml is a symbolic link loop'],
        ['io-error', 'odd/c-passwd.yaml', 1, 1, 'odd/c-passwd.yaml is a symbolic link that leaves odd (to /etc/passwd)'],
        ['io-error', 'odd/d-pipe.yaml', 1, 1, 'cannot read odd/d-pipe.yaml: a FIFO (named pipe), not a regular file'],
      ],
      files: [['odd/a-prod.yaml', 'checked']],
    });
  });

  it('exits 2 for the same things met by a glob', async () => {
    const run = await lintBounded(['odd/*.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: diagnosticsOf(run.json) }).toEqual({
      code: 2,
      diagnostics: [['io-error', 'odd/c-passwd.yaml', 1, 1, 'odd/c-passwd.yaml is a symbolic link that leaves odd (to /etc/passwd)']],
    });
  });

  // Root reads every folder whatever its mode: the search then runs as nobody (setpriv).
  const asRoot = process.getuid?.() === 0;
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));
  it.skipIf(asRoot && setpriv === undefined)(
    'exits 2 for a folder and a file it may not read, naming each, and checks the rest (issue 36 row 10)',
    async () => {
      const run = await lintWithoutPrivileges(['locked'], dir);
      const json = JSON.parse(run.stdout) as JsonEnvelope;
      expect({ code: run.code, diagnostics: diagnosticsOf(json), files: json.files.map((f) => [f.path, f.status]) }).toEqual({
        code: 2,
        diagnostics: [
          ['io-error', 'locked/c-closed.yaml', 1, 1, 'cannot read locked/c-closed.yaml: permission denied'],
          ['io-error', 'locked/secret', 1, 1, 'cannot read locked/secret: permission denied'],
        ],
        files: [['locked/a-prod.yaml', 'checked']],
      });
    },
  );

  function lintWithoutPrivileges(args: readonly string[], cwd: string): Promise<CliRun> {
    const command = [process.execPath, CLI, 'lint', ...args, '--format', 'json'];
    const [file, ...rest] = asRoot && setpriv ? [setpriv, '--reuid=65534', '--regid=65534', '--clear-groups', '--', ...command] : command;
    return new Promise((resolve) => {
      execFile(file ?? process.execPath, rest, { cwd, env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent' } }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? -1) : 0, stdout, stderr });
      });
    });
  }
});
