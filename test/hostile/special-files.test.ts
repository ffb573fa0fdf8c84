import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type JsonEnvelope } from '../helpers/cli.js';
import { HEAP_LIMIT_MB, lintBounded, located } from './bounded-cli.js';

// Issue #10, item 4 (docs/profiles.md): only regular files are read from paths. `kurel lint
// /dev/zero` grew to 8.2 GB, `--capability-def /dev/zero` to 3.6 GB in 10 s, and a FIFO with
// no writer hung for ever; a device, FIFO or socket is now an io-error and never read.
const PROFILE = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities: {}\n';

let dir: string;
let socket: Server;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-special-'));
  writeFileSync(join(dir, 'cluster.yaml'), PROFILE);
  execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
  mkdirSync(join(dir, 'profiles'));
  writeFileSync(join(dir, 'profiles', 'a-cluster.yaml'), PROFILE);
  execFileSync('mkfifo', [join(dir, 'profiles', 'b-pipe.yaml')]);
  execFileSync('mkfifo', [join(dir, 'profiles', 'c-pipe.txt')]);
  socket = createServer();
  await new Promise<void>((resolve) => socket.listen(join(dir, 'socket.yaml'), resolve));
});
afterAll(async () => {
  await new Promise((resolve) => socket.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('files that are not regular files', () => {
  it.each([
    ['/dev/zero', 'a character device'],
    ['pipe.yaml', 'a FIFO (named pipe)'],
    ['socket.yaml', 'a socket'],
  ])('reports %s named on the command line as io-error, exit 2, without reading it', async (path, what) => {
    const run = await lintBounded([path], { cwd: dir });
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message]) }).toEqual({
      code: 2,
      diagnostics: [['io-error', path, 1, 1, `cannot read ${path}: ${what}, not a regular file`]],
    });
  });

  it('reports a device given with --capability-def as io-error, and still lints the profile', async () => {
    const run = await lintBounded(['cluster.yaml', '--capability-def', '/dev/zero'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json), files: run.json.files.map((f) => [f.path, f.status]) }).toEqual({
      code: 2,
      diagnostics: [{ code: 'io-error', file: '/dev/zero', line: 1, column: 1, path: '' }],
      files: [['cluster.yaml', 'checked']],
    });
  });

  it('reports a FIFO named like YAML in a folder as io-error, skips other names, and checks the rest', async () => {
    const run = await lintBounded(['profiles'], { cwd: dir });
    expect({
      code: run.code,
      diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.message]),
      files: run.json.files.map((f) => [f.path, f.status]),
    }).toEqual({
      code: 2,
      diagnostics: [['io-error', 'profiles/b-pipe.yaml', 'cannot read profiles/b-pipe.yaml: a FIFO (named pipe), not a regular file']],
      files: [['profiles/a-cluster.yaml', 'checked']],
    });
  });
});

describe('standard input', () => {
  it('reads an endless input up to the 16 MiB limit, then answers file-too-large', async () => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_LIMIT_MB}`, CLI, 'lint', '-', '--stdin-filepath', 'zero.yaml', '--format', 'json'], {
      stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const json = JSON.parse(stdout) as JsonEnvelope;
    expect({ code, diagnostics: json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message]) }).toEqual({
      code: 1,
      diagnostics: [['file-too-large', 'zero.yaml', 1, 1, 'standard input holds more than 16777216 bytes (16 MiB), the limit; the rest was not read']],
    });
  });
});
