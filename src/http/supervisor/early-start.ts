import cluster, { type Worker } from 'node:cluster';
import type { Socket } from 'node:net';
import { type Front, type FrontArguments, frontArguments, openFront } from './front.js';

/** Forks one serving process (this program again, with its arguments) that is handed its connections by the front at `address`. */
export function forkServing(address: string): Worker {
  // Standard error is relayed, so a refused start is told once, not by every process.
  cluster.setupPrimary({ stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  return cluster.fork({ KUREL_SUPERVISED_ADDRESS: address });
}

/** The first serving process, forked before the supervisor ran: what it said meanwhile, and whether it ended. */
export interface EarlyProcess {
  worker: Worker;
  messages: unknown[];
  closed?: { code: number | null; signal: NodeJS.Signals | null };
}

/** What the supervisor finds started for it: the front, and the first serving process once the front listened. */
export interface EarlyStart {
  front: Front | { error: Error };
  process: EarlyProcess | undefined;
}

let early: { args: FrontArguments; front: Promise<Front | { error: Error }>; process?: EarlyProcess; keep: () => void } | undefined;

/**
 * In the supervisor of `kurel serve <args>`, before anything else loads: opens the front from the
 * host, port and TLS flags of `args`, and once it listens forks the first serving process, which
 * loads while the supervisor loads the CLI. Neither keeps the supervisor running until
 * {@link takeEarlyStart} takes them: a command line the CLI refuses ends the supervisor, and the
 * process is stopped with it.
 */
export function startEarly(args: readonly string[]): void {
  const parsed = frontArguments(args);
  if (!parsed) return;
  let kept = false;
  const state: NonNullable<typeof early> = {
    args: parsed,
    front: openFront(parsed.host, parsed.port, { answers: !parsed.tls, unref: true }),
    keep: () => {
      kept = true;
    },
  };
  early = state;
  void state.front.then((front) => {
    if ('error' in front || early !== state) return;
    const worker = forkServing(front.address);
    const started: EarlyProcess = { worker, messages: [] };
    // The process, its channel and the pipe of its standard error would each keep this one running.
    worker.process.unref();
    worker.process.channel?.unref();
    (worker.process.stderr as Socket | null)?.unref();
    worker.on('message', (message: unknown) => started.messages.push(message));
    worker.process.once('close', (code, signal) => {
      started.closed = { code, signal };
    });
    process.once('exit', () => {
      if (!kept) worker.process.kill('SIGKILL');
    });
    state.process = started;
  });
}

/**
 * What {@link startEarly} started, when it was for the same host, port and TLS choice the CLI
 * read (anything else is closed and stopped); it keeps the supervisor running from now on.
 * Undefined when nothing was started.
 */
export async function takeEarlyStart(wanted: FrontArguments): Promise<EarlyStart | undefined> {
  const state = early;
  early = undefined;
  if (!state) return undefined;
  const front = await state.front;
  const same = state.args.host === wanted.host && state.args.port === wanted.port && state.args.tls === wanted.tls;
  const started = state.process;
  if (!same) {
    started?.worker.process.kill('SIGKILL');
    if (!('error' in front)) await front.close();
    return undefined;
  }
  state.keep();
  if ('error' in front) return { front, process: undefined };
  front.ref();
  if (started) {
    started.worker.removeAllListeners('message');
    started.worker.process.ref();
    started.worker.process.channel?.ref();
    (started.worker.process.stderr as Socket | null)?.ref();
  }
  return { front, process: started };
}
