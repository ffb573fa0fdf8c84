import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type CodeAction,
  type Connection,
  createConnection,
  DidChangeWatchedFilesNotification,
  type Diagnostic as LspDiagnostic,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { VERSION } from '../core/package-version.js';
import { CONFIG_FILE_NAME } from '../documents/kurel-config.js';
import { codeActions } from './code-actions.js';
import { completionsAt } from './completion.js';
import { definitionAt } from './definition.js';
import { hoverAt } from './hover.js';
import type { Judgement } from './judge.js';
import { JudgeThread } from './judge-thread.js';
import type { Knowledge } from './knowledge.js';
import { LifecycleReader } from './lifecycle.js';
import { failureDiagnostic, toLspDiagnostic } from './protocol-diagnostics.js';
import { displayName, isInside, openRepository, type Repository, type RepositoryFlags, repositoryRoot } from './repository.js';
import { type FileWatch, watchFiles } from './watch.js';

/** Options of `kurel lsp`: lint's flags, and the timing of judgements. */
export interface LanguageServerOptions extends RepositoryFlags {
  /** Quiet time after a keystroke before the file is judged again. */
  debounceMs?: number;
  /** How long one judgement may take before its file gets a diagnostic saying so. */
  deadlineMs?: number;
  /** Watch the repositories' definitions, lockfile and config on disk (besides the client's notifications). */
  watch?: boolean;
  /** The judging thread's entry module; the one built next to the CLI by default. */
  workerEntry?: string;
  /** The judging thread's heap limit in MiB: a judgement that exhausts it gets a diagnostic saying so. */
  memoryMiB?: number;
}

/** Quiet time after a keystroke: long enough to skip the judgements of a word being typed. */
export const DEBOUNCE_MS = 150;
/**
 * A judgement's deadline. A clean 5 MB profile takes about 1.5 s of CPU, one with a problem about
 * 6 s (it is read in full for positions); the server keeps answering meanwhile, since judgements
 * run in their own thread.
 */
export const DEADLINE_MS = 15_000;

// Files kurel judges: the configuration, and a file naming a kind lint reads.
const KUREL_KIND = /^kind:[ \t]*["']?(ClusterProfile|CapabilityDefinition)["']?[ \t]*(#.*)?$/m;

/** What is known of one open file. */
interface OpenFile {
  /** The document version last judged, and what it gave. */
  version: number;
  judgement: Judgement | undefined;
  repository: Repository | undefined;
}

/**
 * Runs kurel's language server over the process's standard input and output until the client
 * says exit (docs/editors.md). Every open ClusterProfile, CapabilityDefinition and `.kurel.yaml`
 * is judged as `kurel lint` judges it in its repository.
 */
export function runLanguageServer(options: LanguageServerOptions = {}): Promise<number> {
  const writer = new StreamMessageWriter(process.stdout);
  const reader = new LifecycleReader(new StreamMessageReader(process.stdin), writer);
  const connection = createConnection(ProposedFeatures.all, reader, writer);
  return serve(connection, options);
}

function serve(connection: Connection, options: LanguageServerOptions): Promise<number> {
  const documents = new TextDocuments(TextDocument);
  const debounceMs = options.debounceMs ?? DEBOUNCE_MS;
  const deadlineMs = options.deadlineMs ?? DEADLINE_MS;
  const repositories = new Map<string, Promise<Repository>>();
  const thread = new JudgeThread(flagsOf(options), options.memoryMiB, options.workerEntry);
  // Hovers, completion, go to definition and code actions read the text they are about in a
  // thread of their own, so this one never parses a text and never waits for a judgement.
  const reader = new JudgeThread(flagsOf(options), options.memoryMiB, options.workerEntry);
  const watches = new Map<string, Promise<FileWatch | undefined>>();
  const open = new Map<string, OpenFile>();
  const timers = new Map<string, NodeJS.Timeout>();
  let workspaceFolders: string[] = [];

  const repositoryOf = (path: string): Promise<Repository> => {
    const root = repositoryRoot(path, workspaceFolders);
    let repository = repositories.get(root);
    if (!repository) {
      repository = openRepository(root, flagsOf(options));
      repositories.set(root, repository);
      if (options.watch !== false)
        watches.set(
          root,
          repository.then((r) => watchFiles(r.watched, () => stale([root]))).catch(() => undefined),
        );
    }
    return repository;
  };

  // A change on disk: the repositories reading the file are opened afresh, and every open file of theirs judged again.
  const stale = (roots: readonly string[]) => {
    thread.forget([...roots]);
    for (const root of roots) {
      repositories.delete(root);
      void watches.get(root)?.then((w) => w?.close());
      watches.delete(root);
    }
    for (const document of documents.all()) {
      const known = open.get(document.uri);
      if (!known?.repository || roots.includes(known.repository.cwd)) schedule(document.uri, 0);
    }
  };

  const schedule = (uri: string, delay: number) => {
    clearTimeout(timers.get(uri));
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        void judge(uri);
      }, delay),
    );
  };

  const judge = async (uri: string) => {
    const document = documents.get(uri);
    if (!document) return;
    const path = pathOfUri(uri);
    const text = document.getText();
    if (!path || (basename(path) !== CONFIG_FILE_NAME && !KUREL_KIND.test(text))) {
      open.set(uri, { version: document.version, judgement: undefined, repository: undefined });
      await connection.sendDiagnostics({ uri, version: document.version, diagnostics: [] });
      return;
    }
    let diagnostics: LspDiagnostic[];
    let judgement: Judgement | undefined;
    let repository: Repository | undefined;
    try {
      repository = await repositoryOf(path);
      const judged = await thread.judge(repository.cwd, path, text, deadlineMs, () => documents.get(uri)?.version === document.version);
      if (!judged.ok && judged.reason === 'superseded') return;
      if (judged.ok) {
        // Hovers, completion and code actions use the repository's catalogue, read here once.
        const catalogue = repository.handlers ? await repository.definitionCatalogue() : undefined;
        judgement = { diagnostics: judged.diagnostics, catalogue, profile: judged.profile };
        diagnostics = judged.diagnostics.map(toLspDiagnostic);
      } else diagnostics = [failureDiagnostic(judged.message)];
    } catch (err) {
      diagnostics = [failureDiagnostic(`kurel could not judge this file: ${err instanceof Error ? err.message : String(err)}`)];
    }
    // A newer text is on its way to being judged; this answer is already stale.
    if (documents.get(uri)?.version !== document.version) return;
    open.set(uri, { version: document.version, judgement, repository });
    await connection.sendDiagnostics({ uri, version: document.version, diagnostics });
  };

  // The open file, its repository and its last judgement (requests read positions from the text the client holds now).
  const known = (uri: string) => {
    const document = documents.get(uri);
    const file = open.get(uri);
    const path = pathOfUri(uri);
    if (!document || !file?.repository || !path) return undefined;
    return { document, file, path, repository: file.repository };
  };

  let registersWatchedFiles = false;
  connection.onInitialize((params) => {
    registersWatchedFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    workspaceFolders = (params.workspaceFolders ?? []).map((f) => pathOfUri(f.uri)).filter((p): p is string => p !== undefined);
    if (workspaceFolders.length === 0 && params.rootUri) {
      const root = pathOfUri(params.rootUri);
      if (root) workspaceFolders.push(root);
    }
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        codeActionProvider: { codeActionKinds: ['quickfix', 'refactor.rewrite'] },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' '] },
        definitionProvider: true,
      },
      serverInfo: { name: 'kurel', version: VERSION },
    };
  });

  // Clients that watch files only for a server that registers (Neovim 0.9 and later, Helix) are
  // asked to: definitions, lockfiles and `.kurel.yaml` are YAML or JSON (docs/editors.md).
  connection.onInitialized(() => {
    if (!registersWatchedFiles) return;
    void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{yaml,yml,json}' }] }).catch(() => undefined);
  });

  documents.onDidChangeContent((change) => schedule(change.document.uri, open.has(change.document.uri) ? debounceMs : 0));
  documents.onDidClose((event) => {
    clearTimeout(timers.get(event.document.uri));
    timers.delete(event.document.uri);
    open.delete(event.document.uri);
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  });

  // The client's word that files changed: a repository is read again when a file it reads changed, or any .kurel.yaml.
  connection.onDidChangeWatchedFiles(async (params) => {
    const changed = params.changes.map((c) => pathOfUri(c.uri)).filter((p): p is string => p !== undefined);
    const roots: string[] = [];
    for (const [root, repository] of repositories) {
      const watched = await repository.then((r) => r.watched).catch(() => [] as readonly string[]);
      if (changed.some((path) => basename(path) === CONFIG_FILE_NAME || watched.some((w) => isInside(path, w)))) roots.push(root);
    }
    if (roots.length > 0) stale(roots);
  });

  connection.onCodeAction(async (params): Promise<CodeAction[]> => {
    const at = known(params.textDocument.uri);
    if (!at) return [];
    const { document } = at;
    const { version } = document;
    const isCurrent = () => documents.get(document.uri)?.version === version;
    const judgement = at.file.judgement;
    // The binding under the cursor matters only with a judgement to tell what it resolved to.
    const read =
      judgement?.catalogue && judgement.profile
        ? await reader.read(document.getText(), document.offsetAt(params.range.start), deadlineMs, isCurrent)
        : undefined;
    const context = {
      file: displayName(at.path, at.repository.cwd),
      diagnostics: params.context.diagnostics,
      catalogue: judgement?.catalogue,
      profile: judgement?.profile,
      place: read?.ok ? read.reading.place : undefined,
    };
    // A pin or a migration parses the whole text: the judging thread makes them, so a large file
    // never holds up this one. Without an answer in time those actions are left out (`kurel
    // migrate` still makes them), as are those of a text typed over since, whose edits would be
    // placed wrongly: the client asks again.
    return codeActions(document, params.range, context, async (request) => {
      const made = await thread.act({ root: at.repository.cwd, path: at.path, text: document.getText(), ...request }, deadlineMs, isCurrent);
      return made.ok && isCurrent() ? made : undefined;
    });
  });

  // What hovers, completion and go to definition read: the open text, its last judgement, and
  // what the reading thread finds in the text (the key at `offset`, the declared platform).
  // Undefined without a judgement, or without a reading in time or of the text the client still holds.
  const knowledgeOf = async (uri: string, offsetOf?: (document: TextDocument) => number) => {
    const at = known(uri);
    const judgement = at?.file.judgement;
    if (!at || !judgement?.catalogue) return undefined;
    const { document } = at;
    const { version } = document;
    const isCurrent = () => documents.get(uri)?.version === version;
    const read = await reader.read(document.getText(), offsetOf?.(document), deadlineMs, isCurrent);
    if (!read.ok || !isCurrent()) return undefined;
    const knowledge: Knowledge = {
      catalogue: judgement.catalogue,
      profile: judgement.profile,
      lintOptions: at.repository.lintOptions,
      cwd: at.repository.cwd,
      declaredPlatform: read.reading.declaredPlatform,
    };
    return { document, knowledge, place: read.reading.place };
  };

  connection.onHover(async (params) => {
    const at = await knowledgeOf(params.textDocument.uri, (document) => document.offsetAt(params.position));
    return at ? hoverAt(at.document, at.place, at.knowledge) : null;
  });

  connection.onCompletion(async (params) => {
    const at = await knowledgeOf(params.textDocument.uri);
    return at ? completionsAt(at.document, params.position, at.knowledge) : [];
  });

  connection.onDefinition(async (params) => {
    const at = await knowledgeOf(params.textDocument.uri, (document) => document.offsetAt(params.position));
    const target = at ? definitionAt(at.place, at.knowledge) : undefined;
    return target ? { uri: pathToFileURL(target.path).href, range: target.range } : null;
  });

  return new Promise((resolveExit) => {
    let isShutDown = false;
    connection.onShutdown(() => {
      isShutDown = true;
      for (const timer of timers.values()) clearTimeout(timer);
      void thread.close();
      void reader.close();
      return Promise.all([...watches.values()].map((w) => w.then((watch) => watch?.close()))).then(() => undefined);
    });
    connection.onExit(() => resolveExit(isShutDown ? 0 : 1));
    documents.listen(connection);
    connection.listen();
  });
}

// What the judging thread needs of the options: lint's flags, plain data.
function flagsOf(options: LanguageServerOptions): RepositoryFlags {
  const { debounceMs: _d, deadlineMs: _l, watch: _w, workerEntry: _e, memoryMiB: _m, ...flags } = options;
  return flags;
}

function pathOfUri(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
