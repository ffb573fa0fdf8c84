// One `kurel lsp` session as an editor drives it, for the scaling suite: the server started in
// `root`, a text opened, its diagnostics awaited, a hover and a completion on it, then shut down.
// Resolves with the wall time from the text's opening to the completion's answer (the server's
// start, a second or more on a busy machine, is not the text's cost) and the process's peak
// resident memory (all its threads), or the reason it failed. Bounded: the server is killed
// after `limitMs`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import jsonrpc from 'vscode-jsonrpc/node';
import { now } from './measure.mjs';

const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = jsonrpc;

/**
 * Runs one session of `cli lsp --stdio` (preloading `peakRss`) in `root` on the text of `file`;
 * `hover` and `complete` are the positions asked about.
 */
export function lspSession({ cli, peakRss, root, file, text, hover, complete, limitMs }) {
  const dir = mkdtempSync(join(tmpdir(), 'kurel-lsp-peak-'));
  const peakFile = join(dir, 'peak-rss');
  let opened = 0;
  let answered = 0;
  const child = spawn(process.execPath, ['-r', peakRss, cli, 'lsp', '--stdio'], {
    cwd: root,
    env: { ...process.env, BENCH_PEAK_RSS_FILE: peakFile },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const uri = pathToFileURL(join(root, file)).href;
  const judged = new Promise((resolve) =>
    connection.onNotification('textDocument/publishDiagnostics', (params) => {
      if (params.uri === uri) resolve();
    }),
  );
  connection.listen();
  const session = (async () => {
    const rootUri = pathToFileURL(root).href;
    await connection.sendRequest('initialize', { processId: process.pid, rootUri, capabilities: {}, workspaceFolders: [{ uri: rootUri, name: 'repo' }] });
    await connection.sendNotification('initialized', {});
    opened = now();
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    await judged;
    await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: hover });
    await connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: complete });
    answered = now();
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    return exited;
  })();
  let timer;
  const limit = new Promise((resolve) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ timedOut: true });
    }, limitMs);
  });
  return Promise.race([session, limit])
    .then((outcome) => {
      const ms = answered - opened;
      if (outcome.timedOut) return { ok: false, reason: `no answer within ${limitMs} ms` };
      if (outcome.code !== 0) return { ok: false, reason: `exit ${outcome.code ?? outcome.signal}` };
      return { ok: true, ms, mib: Number(readFileSync(peakFile, 'utf8')) / 1024 };
    })
    .catch((err) => {
      child.kill('SIGKILL');
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    })
    .finally(() => {
      clearTimeout(timer);
      connection.dispose();
      rmSync(dir, { recursive: true, force: true });
    });
}
