import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../core/diagnostics.js';
import { packageRoot } from '../files/package-files.js';
import type { ProfileOutcome } from '../operations/lint.js';
import type { JudgeReply, JudgeRequest } from './judge-messages.js';
import type { RepositoryFlags } from './repository.js';
import type { TextActions, TextActionsRequest } from './text-actions.js';
import type { TextReading } from './text-reading.js';

/** Why a request to the judging thread gave no answer. */
export type ThreadFailure = { ok: false; reason: 'deadline' | 'failed'; message: string } | { ok: false; reason: 'superseded' };

/** The outcome of one judgement in the judging thread. */
export type ThreadJudgement = { ok: true; diagnostics: Diagnostic[]; profile: ProfileOutcome | undefined } | ThreadFailure;

/** The outcome of reading a text in the reading thread. */
export type ThreadReading = { ok: true; reading: TextReading } | ThreadFailure;

/** The outcome of a text's code actions in the judging thread. */
export type ThreadActions = ({ ok: true } & TextActions) | ThreadFailure;

// A request as the thread's caller writes it: the thread numbers it.
type Unnumbered<Request> = Request extends { id: number } ? Omit<Request, 'id'> : never;
type Answer = Extract<JudgeReply, { ok: true }>;

/** The judging thread's heap limit by default: a 16 MiB file (the largest lint reads) judged with room to spare. */
export const HEAP_MIB = 1_024;

/**
 * The thread `kurel lsp` judges texts in, one at a time in the order asked. A judgement still
 * running at its deadline, or one that ends the thread (its heap exhausted), fails alone: the
 * thread is ended and a new one started for the next judgement.
 */
export class JudgeThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private current: { id: number; worker: Worker; what: string; start: () => void; settle: (reply: Answer | ThreadFailure) => void } | undefined;

  constructor(
    private readonly flags: RepositoryFlags,
    private readonly heapMiB: number = HEAP_MIB,
    private readonly entry: string = join(packageRoot(), 'dist', 'lsp-worker.js'),
  ) {}

  /**
   * Judges `text` as the file at `path` of the repository judged from `root`; `isCurrent` is
   * asked when its turn comes, so a text typed over while others were judged is skipped.
   */
  async judge(root: string, path: string, text: string, deadlineMs: number, isCurrent: () => boolean = () => true): Promise<ThreadJudgement> {
    const answer = await this.queued({ kind: 'judge', root, path, text }, deadlineMs, isCurrent, 'judge this file');
    if (!answer.ok || 'diagnostics' in answer) return answer;
    return { ok: false, reason: 'failed', message: 'kurel could not judge this file: the judging thread answered something else' };
  }

  /**
   * Makes the parts of the code actions of `text` (the file at `path`) that parse it: YAML
   * edits and migrations, in turn with the judgements and within the same deadline.
   */
  async act(
    request: { root: string; path: string; text: string } & TextActionsRequest,
    deadlineMs: number,
    isCurrent: () => boolean = () => true,
  ): Promise<ThreadActions> {
    const answer = await this.queued({ kind: 'act', ...request }, deadlineMs, isCurrent, 'make code actions for this file');
    if (!answer.ok || 'changes' in answer) return answer;
    return { ok: false, reason: 'failed', message: 'kurel could not make code actions for this file: the judging thread answered something else' };
  }

  /**
   * Reads `text` for a hover, completion, go to definition or code action (text-reading.ts):
   * the key at `offset` and the declared platform. The server keeps a thread for this apart from
   * the judging one, so that reading never waits for a judgement.
   */
  async read(text: string, offset: number | undefined, deadlineMs: number, isCurrent: () => boolean = () => true): Promise<ThreadReading> {
    const answer = await this.queued({ kind: 'read', text, offset }, deadlineMs, isCurrent, 'read this file');
    if (!answer.ok || 'reading' in answer) return answer;
    return { ok: false, reason: 'failed', message: 'kurel could not read this file: the reading thread answered something else' };
  }

  // Requests run one at a time in the order asked; one no longer current when its turn comes is skipped.
  private queued(
    request: Unnumbered<Exclude<JudgeRequest, { kind: 'stale' }>>,
    deadlineMs: number,
    isCurrent: () => boolean,
    what: string,
  ): Promise<Answer | ThreadFailure> {
    const run = this.queue.then(
      (): Promise<Answer | ThreadFailure> => (isCurrent() ? this.run(request, deadlineMs, what) : Promise.resolve({ ok: false, reason: 'superseded' })),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Makes the thread forget repositories whose files changed on disk. */
  forget(roots: string[]): void {
    this.worker?.postMessage({ kind: 'stale', roots } satisfies JudgeRequest);
  }

  /** Ends the thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private run(request: Unnumbered<Exclude<JudgeRequest, { kind: 'stale' }>>, deadlineMs: number, what: string): Promise<Answer | ThreadFailure> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Answer | ThreadFailure>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      // The deadline is the judgement's: the thread's start and the repository's opening come before it.
      const start = () => {
        timer ??= setTimeout(() => {
          this.restart();
          settle({ ok: false, reason: 'deadline', message: `kurel could not ${what} within ${deadlineMs} ms` });
        }, deadlineMs);
      };
      const settle = (reply: Answer | ThreadFailure) => {
        clearTimeout(timer);
        if (this.current?.id === id) this.current = undefined;
        resolve(reply);
      };
      this.current = { id, worker, what, start, settle };
      worker.postMessage({ ...request, id } satisfies JudgeRequest);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry, { workerData: this.flags, resourceLimits: { maxOldGenerationSizeMb: this.heapMiB }, stdout: true });
    // Standard output is the protocol's channel: nothing the thread prints may reach it.
    worker.stdout.resume();
    worker.on('message', (reply: JudgeReply) => {
      if (this.current?.id !== reply.id || this.current.worker !== worker) return;
      if ('started' in reply) return this.current.start();
      this.current.settle(reply.ok ? reply : { ok: false, reason: 'failed', message: `kurel could not ${this.current.what}: ${reply.message}` });
    });
    const fail = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      if (this.current?.worker === worker) this.current.settle({ ok: false, reason: 'failed', message: `kurel could not ${this.current.what}: ${why}` });
    };
    worker.on('error', (err) => fail(err.message));
    worker.on('exit', () => fail('the judging thread stopped'));
    // The thread must not keep the server alive once the client has gone.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private restart(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}
