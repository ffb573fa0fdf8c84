import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { CodeAction, CompletionItem, Diagnostic, Hover, Location, Position, Range, TextEdit } from 'vscode-languageserver';
import { CLI } from '../helpers/cli.js';

/** What the server last published for a file. */
interface Published {
  version: number | undefined;
  diagnostics: Diagnostic[];
}

/** An LSP client on `kurel lsp` run as its own process, the way an editor runs it. */
export class LspClient {
  private readonly published = new Map<string, Published>();
  private readonly waiters: (() => void)[] = [];
  private readonly versions = new Map<string, number>();
  private readonly texts = new Map<string, string>();

  private constructor(
    private readonly child: ChildProcess,
    readonly connection: MessageConnection,
  ) {
    connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; version?: number; diagnostics: Diagnostic[] }) => {
      this.published.set(params.uri, { version: params.version, diagnostics: params.diagnostics });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /**
   * Starts `kurel lsp` in `root` and initializes it with `root` as its workspace folder. Its cache
   * folder (docs/editors.md, "Cache") is `cacheDir`, by default one beside `root` of its own.
   */
  static async start(root: string, args: readonly string[] = [], cacheDir = defaultCacheDir(root)): Promise<LspClient> {
    const env = { ...process.env, KUREL_CACHE_DIR: cacheDir };
    const child = spawn(process.execPath, [CLI, 'lsp', '--stdio', ...args], { cwd: root, env, stdio: ['pipe', 'pipe', 'inherit'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.listen();
    const client = new LspClient(child, connection);
    const uri = pathToFileURL(root).href;
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: uri, capabilities: {}, workspaceFolders: [{ uri, name: 'repo' }] });
    await connection.sendNotification('initialized', {});
    return client;
  }

  /** Opens a file with `text` (what the editor shows, not necessarily what is on disk). */
  async open(path: string, text: string): Promise<string> {
    const uri = pathToFileURL(path).href;
    this.versions.set(uri, 1);
    this.texts.set(uri, text);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    return uri;
  }

  /** Replaces the whole text of an open file, as an edit in the editor. */
  async change(uri: string, text: string): Promise<void> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    this.texts.set(uri, text);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  /** Closes an open file, as the editor does when its tab is closed. */
  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    this.texts.delete(uri);
    this.published.delete(uri);
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** The text the client holds for an open file. */
  text(uri: string): string {
    return this.texts.get(uri)!;
  }

  /** Applies text edits to an open file and sends the result, as an editor applies a code action. */
  async apply(uri: string, edits: readonly TextEdit[]): Promise<void> {
    await this.change(uri, applyEdits(this.text(uri), edits));
  }

  /**
   * Waits for the diagnostics of the open file's current version that `accept` takes (any when
   * not given); fails after `ms`.
   */
  async diagnostics(uri: string, accept: (d: Diagnostic[]) => boolean = () => true, ms = 20_000): Promise<Diagnostic[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const got = this.published.get(uri);
      if (got && got.version === this.versions.get(uri) && accept(got.diagnostics)) return got.diagnostics;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching diagnostics for ${uri}; last: ${JSON.stringify(got)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Forgets what was published for a file, so the next wait sees only what comes after. */
  forget(uri: string): void {
    this.published.delete(uri);
  }

  codeActions(uri: string, range: Range, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    return this.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics } });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position });
  }

  completion(uri: string, position: Position): Promise<CompletionItem[]> {
    return this.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position });
  }

  definition(uri: string, position: Position): Promise<Location | null> {
    return this.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position });
  }

  /** Shuts the server down as an editor does; resolves with its exit code. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }

  /** Kills the server (after a failed test). */
  kill(): void {
    this.child.kill();
  }
}

/** The cache folder of the servers a test starts in `root`: beside it, so that nothing is written to the user's own. */
export function defaultCacheDir(root: string): string {
  return `${root.replace(/[\\/]+$/, '')}.kurel-cache`;
}

/** A text with LSP edits applied (positions of the text before any edit; UTF-16 columns). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p: Position) => Math.min((starts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const edit of sorted) out = out.slice(0, offset(edit.range.start)) + edit.newText + out.slice(offset(edit.range.end));
  return out;
}
