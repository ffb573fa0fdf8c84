import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMessageConnection, type MessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { VERSION } from '../../src/core/package-version.js';
import { CLI } from '../helpers/cli.js';

// The protocol's lifecycle (LSP 3.17, docs/editors.md) as a vscode-jsonrpc client sees it over
// the standard streams of a real `kurel lsp` process.

let root: string;
let child: ChildProcess | undefined;
let connection: MessageConnection | undefined;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kurel-lsp-lifecycle-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  connection?.dispose();
  if (child?.exitCode === null) child.kill();
  child = undefined;
  connection = undefined;
});

function start(): { connection: MessageConnection; exit: Promise<number | null> } {
  child = spawn(process.execPath, [CLI, 'lsp', '--stdio', '--no-watch'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const exit = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
  connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.listen();
  return { connection, exit };
}

const initializeParams = (capabilities: Record<string, unknown> = {}) => {
  const uri = pathToFileURL(root).href;
  return { processId: process.pid, rootUri: uri, capabilities, workspaceFolders: [{ uri, name: 'repo' }] };
};

/** The error a request is answered with, as code and message. */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    const answer = await request;
    return { code: 0, message: `answered ${JSON.stringify(answer)}` };
  } catch (err) {
    if (!(err instanceof ResponseError)) throw err;
    return { code: err.code, message: err.message };
  }
}

const HOVER = { textDocument: { uri: 'file:///nowhere/cluster.yaml' }, position: { line: 0, character: 0 } };

describe('the language server lifecycle', () => {
  it('answers a request before initialize with ServerNotInitialized (-32002), whatever its method', async () => {
    const { connection } = start();
    expect(await refusal(connection.sendRequest('textDocument/hover', HOVER))).toEqual({
      code: -32002,
      message: 'the server is not initialized: textDocument/hover is answered after initialize',
    });
    expect(await refusal(connection.sendRequest('shutdown'))).toEqual({
      code: -32002,
      message: 'the server is not initialized: shutdown is answered after initialize',
    });
    expect(await refusal(connection.sendRequest('kurel/nothing', {}))).toMatchObject({ code: -32002 });
    // Then initialize is answered as usual.
    const result = (await connection.sendRequest('initialize', initializeParams())) as { serverInfo: unknown };
    expect(result.serverInfo).toEqual({ name: 'kurel', version: VERSION });
    expect(await refusal(connection.sendRequest('initialize', initializeParams()))).toEqual({ code: -32600, message: 'the server is already initialized' });
  });

  it('answers a request after shutdown with InvalidRequest (-32600), and exits 0 on exit', async () => {
    const { connection, exit } = start();
    await connection.sendRequest('initialize', initializeParams());
    await connection.sendNotification('initialized', {});
    expect(await connection.sendRequest('textDocument/hover', HOVER)).toBeNull();
    expect(await connection.sendRequest('shutdown')).toBeNull();
    expect(await refusal(connection.sendRequest('textDocument/hover', HOVER))).toEqual({
      code: -32600,
      message: 'the server is shut down: textDocument/hover is not answered after shutdown',
    });
    expect(await refusal(connection.sendRequest('shutdown'))).toMatchObject({ code: -32600 });
    await connection.sendNotification('exit');
    expect(await exit).toBe(0);
  });

  it('exits 1 on exit without shutdown, even before initialize', async () => {
    const { connection, exit } = start();
    await connection.sendNotification('exit');
    expect(await exit).toBe(1);
  });

  it('registers for watched files when the client supports their dynamic registration', async () => {
    const { connection } = start();
    const registered = new Promise<unknown>((resolve) =>
      connection.onRequest('client/registerCapability', (params) => {
        resolve(params);
        return null;
      }),
    );
    await connection.sendRequest('initialize', initializeParams({ workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } }));
    await connection.sendNotification('initialized', {});
    expect(await registered).toEqual({
      registrations: [
        { id: expect.any(String), method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/*.{yaml,yml,json}' }] } },
      ],
    });
  });

  it('registers nothing for a client that does not support it', async () => {
    const { connection } = start();
    const registrations: unknown[] = [];
    connection.onRequest('client/registerCapability', (params) => {
      registrations.push(params);
      return null;
    });
    await connection.sendRequest('initialize', initializeParams({ workspace: { didChangeWatchedFiles: { dynamicRegistration: false } } }));
    await connection.sendNotification('initialized', {});
    // The server handles messages in order and would have asked before it answers this.
    expect(await connection.sendRequest('textDocument/hover', HOVER)).toBeNull();
    expect(registrations).toEqual([]);
  });
});
