import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../core/diagnostics.js';
import { packageRoot } from '../files/package-files.js';
import type { ProfileOutcome } from '../operations/lint.js';
import type { JudgeReply, JudgeRequest } from './judge-messages.js';
import type { RepositoryFlags } from './repository.js';

/** The outcome of one judgement in the judging thread. */
export type ThreadJudgement =
  | { ok: true; diagnostics: Diagnostic[]; profile: ProfileOutcome | undefined }
  | { ok: false; reason: 'deadline' | 'failed'; message: string }
  | { ok: false; reason: 'superseded' };

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
  private current: { id: number; worker: Worker; start: () => void; settle: (reply: ThreadJudgement) => void } | undefined;

  constructor(
    private readonly flags: RepositoryFlags,
    private readonly heapMiB: number = HEAP_MIB,
    private readonly entry: string = join(packageRoot(), 'dist', 'lsp-worker.js'),
  ) {}

  /**
   * Judges `text` as the file at `path` of the repository judged from `root`; `isCurrent` is
   * asked when its turn comes, so a text typed over while others were judged is skipped.
   */
  judge(root: string, path: string, text: string, deadlineMs: number, isCurrent: () => boolean = () => true): Promise<ThreadJudgement> {
    const run = this.queue.then(
      (): Promise<ThreadJudgement> => (isCurrent() ? this.run(root, path, text, deadlineMs) : Promise.resolve({ ok: false, reason: 'superseded' })),
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

  private run(root: string, path: string, text: string, deadlineMs: number): Promise<ThreadJudgement> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<ThreadJudgement>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      // The deadline is the judgement's: the thread's start and the repository's opening come before it.
      const start = () => {
        timer ??= setTimeout(() => {
          this.restart();
          settle({ ok: false, reason: 'deadline', message: `kurel could not judge this file within ${deadlineMs} ms` });
        }, deadlineMs);
      };
      const settle = (reply: ThreadJudgement) => {
        clearTimeout(timer);
        if (this.current?.id === id) this.current = undefined;
        resolve(reply);
      };
      this.current = { id, worker, start, settle };
      worker.postMessage({ kind: 'judge', id, root, path, text } satisfies JudgeRequest);
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
      this.current.settle(
        reply.ok
          ? { ok: true, diagnostics: reply.diagnostics, profile: reply.profile }
          : { ok: false, reason: 'failed', message: `kurel could not judge this file: ${reply.message}` },
      );
    });
    const fail = (message: string) => {
      if (this.worker === worker) this.worker = undefined;
      if (this.current?.worker === worker) this.current.settle({ ok: false, reason: 'failed', message });
    };
    worker.on('error', (err) => fail(`kurel could not judge this file: ${err.message}`));
    worker.on('exit', () => fail('kurel could not judge this file: the judging thread stopped'));
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
