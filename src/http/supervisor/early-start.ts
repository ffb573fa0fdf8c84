import cluster, { type Worker } from 'node:cluster';
import type { Socket } from 'node:net';
import { type Front, openFront } from './front.js';
import { type FrontArguments, frontArguments } from './front-arguments.js';

/**
 * Forks one serving process (this program again, with its arguments), which asks the supervisor
 * for the service's options and the address of the front that hands it its connections.
 */
export function forkServing(): Worker {
  // Standard error is relayed, so a refused start is told once, not by every process.
  cluster.setupPrimary({ stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  return cluster.fork({ KUREL_SUPERVISED: '1' });
}

/** The first serving process, forked before the supervisor ran: what it said meanwhile, and whether it ended. */
export interface EarlyProcess {
  worker: Worker;
  messages: unknown[];
  closed?: { code: number | null; signal: NodeJS.Signals | null };
}

/** What the supervisor finds started for it: the front, and the first serving process (none when the front could not listen). */
export interface EarlyStart {
  front: Front | { error: Error };
  process: EarlyProcess | undefined;
}

/** Signals kept since the program's first line (cli/bin.ts), and how to stop keeping them. */
export interface HeldSignals {
  held: NodeJS.Signals[];
  release(): void;
}

let heldSignals: HeldSignals | undefined;

/** Keeps `signals` for the supervisor, which takes them with {@link takeHeldSignals}. */
export function holdSignals(signals: HeldSignals): void {
  heldSignals = signals;
}

/**
 * The signals kept so far, once: from now on they are no longer kept, so the caller must have
 * put its own handlers in place in the same turn (a signal arrives between turns only).
 */
export function takeHeldSignals(): NodeJS.Signals[] {
  const signals = heldSignals;
  heldSignals = undefined;
  signals?.release();
  return signals ? [...signals.held] : [];
}

let early: { args: FrontArguments; front: Promise<Front | { error: Error }>; process?: EarlyProcess; keep: () => void } | undefined;

/**
 * In the supervisor of `kurel serve <args>`, before anything else loads: opens the front from the
 * host, port and TLS flags of `args` and forks the first serving process, which loads while the
 * supervisor loads the CLI (a front that cannot listen stops it). Neither keeps the supervisor running until
 * {@link takeEarlyStart} takes them: a command line the CLI refuses ends the supervisor, and the
 * process is stopped with it.
 */
export function startEarly(args: readonly string[]): void {
  const parsed = frontArguments(args);
  if (!parsed) return;
  let kept = false;
  // The front listens first, so /healthz answers as soon as it can; the process is forked at once
  // after, not once the front has listened, so it starts while the supervisor loads the CLI.
  const front = openFront(parsed.host, parsed.port, { answers: !parsed.tls, unref: true });
  const worker = forkServing();
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
  const state: NonNullable<typeof early> = {
    args: parsed,
    front,
    process: started,
    keep: () => {
      kept = true;
    },
  };
  early = state;
  // A front that cannot listen refuses the start: the process has nothing to serve.
  void state.front.then((front) => {
    if ('error' in front) worker.process.kill('SIGKILL');
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
