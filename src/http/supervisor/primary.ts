import type { Worker } from 'node:cluster';
import type { Socket } from 'node:net';
import { hostname } from 'node:os';
import { fileDiagnostic } from '../../core/diagnostics.js';
import { keepCompiledCode } from '../../core/warm-start.js';
import { readServedDefinitions, type ServedSources } from '../../sources/served-definitions.js';
import { type EarlyProcess, forkServing, takeEarlyStart, takeHeldSignals } from './early-start.js';
import { type Front, openFront } from './front.js';
import { isKurelMessage, type ProcessMessage, type SupervisorMessage } from './messages.js';
import { restartDelay } from './restart-delay.js';
import type { DefinitionsOnTheWire, DefinitionsRead } from './served-definitions.js';
import { toWire } from './served-definitions.js';
import type { ServiceIo } from './service-io.js';
import type { DefinitionsWatch } from './watch-definitions.js';

/** How the supervisor runs: how many serving processes it keeps, and where the service listens. */
export interface SupervisorOptions {
  processes: number;
  host: string;
  /** 0 picks a free port, kept for the service's whole life. */
  port: number;
  /** The serving processes serve HTTPS: the supervisor cannot answer a connection itself. */
  tls: boolean;
  /**
   * What each serving process runs (service.ts's `ServiceOptions`), sent to it when it asks, so
   * that it reads no command line or configuration of its own; relayed, never read here.
   */
  service: unknown;
  /** Where the definitions are read from: here, once for every process, at start and at each reload. */
  definitions: ServedSources;
  /** `--watch-definitions`: the folders whose changes reload every process (none: nothing to watch). */
  watchedDirs?: readonly string[] | undefined;
}

/** One serving process, as the supervisor follows it. */
interface Served {
  worker: Worker;
  /** It was sent the options and the definitions, and has not said yet that it takes requests. */
  starting: boolean;
  /** It takes requests: the front hands it connections. */
  listening: boolean;
  /** Every worker of it has loaded. */
  ready: boolean;
  /** The request ids it last reported in flight. */
  requestIds: string[];
  /** Its standard error while it starts, written out if it refuses to start. */
  startErrors: string[];
}

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

/** How long after the first serving process takes requests the others start. */
const OTHERS_AFTER_MS = 50;

/** Why a reload failed when a process ended, or gave no answer in time, while it built the new catalogue. */
const UNANSWERED = 'reload failed: a serving process ended or did not answer while it built the new definitions';

/** How long a process may take to build a reload's catalogue, to switch to it, or to gather its metrics. */
const RELOAD_WAIT_MS = 120_000;
const SWITCH_WAIT_MS = 10_000;
const METRICS_WAIT_MS = 2_000;

/**
 * Runs `kurel serve` as a supervisor (node:cluster's primary): owns the listening socket (the
 * front, opened before anything else loads, answering `/healthz` while no process takes
 * requests), reads the definitions once for every process (at start, and once per reload, which
 * it switches in every process or in none), forks `processes` serving processes and hands each
 * connection to one that takes requests, in turn (one handed to a process that ends before it
 * has it goes to another, or the front answers it); replaces any that ends while the service runs (so
 * no single request ends the service; the replacement is counted in
 * `kurel_process_restarts_total` and logged with the request ids the process last reported in
 * flight), with a growing delay when they keep ending. It fans SIGHUP out to every process,
 * relays reloads and metrics between them, and on SIGTERM or SIGINT has every process drain.
 * A process that refuses to start before any takes requests refuses the whole start; once one
 * does, the service exits only on a stop signal. Resolves to the
 * exit code: 0 after a clean drain, 1 when a process had to cut connections, 2 when the start
 * was refused.
 */
export async function runSupervisor(options: SupervisorOptions, io: ServiceIo): Promise<number> {
  const threshold = LEVELS[io.env['LOG_LEVEL'] ?? 'info'] ?? LEVELS['info']!;
  const host = hostname();
  const log = (level: keyof typeof LEVELS, fields: Record<string, unknown>, msg: string) => {
    if (LEVELS[level]! < threshold) return;
    io.stdout(
      `${JSON.stringify({ level: LEVELS[level], time: Date.now(), pid: process.pid, hostname: host, service: 'kurel', role: 'supervisor', ...fields, msg })}\n`,
    );
  };
  const early = await takeEarlyStart(options);
  const opened = early?.front ?? (await openFront(options.host, options.port, { answers: !options.tls }));
  if ('error' in opened) {
    const message = `cannot listen on ${options.host}:${options.port}: ${opened.error.message}`;
    io.stderr(`kurel serve: refusing to start: ${message}\n`);
    log('fatal', {}, `refusing to start: ${message}`);
    return 2;
  }
  const front: Front = opened;
  const served = new Map<number, Served>();
  let stopping = false;
  let allReady = false;
  let serving = false;
  let restarts = 0;
  const deaths: number[] = [];
  let seq = 0;
  const waiting = new Map<number, { pending: Set<number>; replies: unknown[]; finish: () => void }>();
  /** Every process has taken requests once (at start): from then on a process that ends is replaced, and the service is ready. */
  let everyServed = false;
  /** The definitions every process serves (sent to each process that starts): read once at start, then once per reload. */
  let current: DefinitionsOnTheWire | undefined;
  const firstRead = readServedDefinitions(options.definitions).then(
    (read) => {
      current = toWire(read);
    },
    (err: unknown) => {
      // Never expected (reading reports what it cannot read): the first process refuses the start with it.
      current = { ok: false, diagnostics: [fileDiagnostic('<definitions>', 'io-error', `cannot read the definitions: ${String(err)}`)] };
    },
  );
  /** Calls waiting for the service to be steady: every process took requests once, one takes them now, and none is starting. */
  let steadyWaiters: (() => void)[] = [];
  const steady = () => {
    const entries = [...served.values()];
    return everyServed && entries.some((entry) => entry.listening) && !entries.some((entry) => entry.starting);
  };
  const checkSteady = () => {
    if (!steady() && !stopping) return;
    const called = steadyWaiters;
    steadyWaiters = [];
    for (const call of called) call();
  };
  const untilSteady = () => (steady() ? Promise.resolve() : new Promise<void>((resolve) => steadyWaiters.push(resolve)));
  /** A reload under way (its promise), and one asked for meanwhile, which reads the files afresh once it ends. */
  let reloading: Promise<void> | undefined;
  let reloadWaiting: Promise<void> | undefined;
  /** A reload past its wait for a steady service: reading, building and switching (a process that starts meanwhile waits for it). */
  let switching: Promise<void> | undefined;
  /** Connections sent to a process that has not said yet it has them (`took`): the supervisor keeps its copy until then. */
  let connectionSeq = 0;
  const handed = new Map<number, { socket: Socket; worker: number }>();

  let refuse: (code: number, errors: string) => void = () => undefined;
  const refused = new Promise<{ code: number; errors: string }>((resolve) => {
    refuse = (code, errors) => resolve({ code, errors });
  });
  let settle: () => void = () => undefined;
  const everyExited = new Promise<void>((resolve) => {
    settle = resolve;
  });

  const send = (worker: Worker, message: SupervisorMessage) => {
    if (worker.isConnected()) worker.send(message);
  };

  /** The processes that take requests. */
  const listeningIds = () => [...served].filter(([, entry]) => entry.listening).map(([wid]) => wid);
  /** Sends `message(seq)` to the processes `to` (the listening ones by default) and waits (at most `ms`) for each one's reply; one that ends owes none. */
  const ask = (message: (seq: number) => SupervisorMessage, ms: number, to: readonly number[] = listeningIds()): Promise<unknown[]> => {
    const id = ++seq;
    const pending = new Set(to.filter((wid) => served.has(wid)));
    return new Promise((resolve) => {
      const replies: unknown[] = [];
      const timer = setTimeout(() => finish(), ms);
      const finish = () => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(replies);
      };
      waiting.set(id, { pending, replies, finish });
      if (pending.size === 0) finish();
      for (const wid of pending) send(served.get(wid)!.worker, message(id));
    });
  };
  const reply = (seqOf: number, from: number, value: unknown) => {
    const entry = waiting.get(seqOf);
    if (!entry?.pending.delete(from)) return;
    entry.replies.push(value);
    if (entry.pending.size === 0) entry.finish();
  };
  // A process that ends owes no more replies.
  const forget = (from: number) => {
    for (const [id, entry] of waiting) if (entry.pending.delete(from) && entry.pending.size === 0) waiting.get(id)?.finish();
  };

  const supervisorMetrics = () => [
    {
      name: 'kurel_process_restarts_total',
      help: 'Serving processes the supervisor replaced after they ended unexpectedly',
      type: 'counter',
      aggregator: 'sum',
      values: [{ value: restarts, labels: {} }],
    },
    {
      name: 'kurel_processes',
      help: 'Serving processes listening now',
      type: 'gauge',
      aggregator: 'sum',
      values: [{ value: [...served.values()].filter((s) => s.listening).length, labels: {} }],
    },
  ];

  const onMessage = (worker: Worker, message: ProcessMessage) => {
    const entry = served.get(worker.id);
    if (!entry) return;
    switch (message.kurel) {
      case 'options?':
        // The definitions every process serves, read once; a process that starts during a reload
        // is sent those in service once the reload is over.
        void firstRead.then(function sendOptions(): void {
          if (!served.has(worker.id) || stopping) return;
          if (switching) return void switching.then(sendOptions);
          entry.starting = true;
          send(worker, { kurel: 'options', options: options.service, definitions: current!, address: front.address });
        });
        break;
      case 'listening':
        entry.listening = true;
        entry.starting = false;
        if (entry.startErrors.length > 0) io.stderr(entry.startErrors.splice(0).join(''));
        if (stopping) break;
        front.add(worker.id, takerOf(worker));
        if (everyServed) send(worker, { kurel: 'serving' });
        else if (listeningIds().length >= options.processes) {
          // Ready from now on: every process serves the same definitions (docs/service.md "During start").
          everyServed = true;
          for (const wid of listeningIds()) send(served.get(wid)!.worker, { kurel: 'serving' });
        }
        checkSteady();
        if (!serving) {
          serving = true;
          log('info', { address: front.address, startupMs: Math.round(performance.now()) }, 'serving: a process takes requests');
          // The others start once the first can judge, so that it had the cores to itself, and a
          // moment later still: starting a process blocks this thread, which hands the first its
          // first connections now (docs/service.md "During start").
          if (options.processes > 1) {
            const others = setTimeout(() => {
              pendingRestarts.delete(others);
              if (!stopping) for (let i = 1; i < options.processes; i++) fork();
            }, OTHERS_AFTER_MS);
            pendingRestarts.add(others);
          }
        }
        break;
      case 'ready':
        entry.ready = message.ok;
        if (!allReady && !stopping && served.size === options.processes && [...served.values()].every((s) => s.ready && s.listening)) {
          allReady = true;
          log('info', { processes: options.processes, startupMs: Math.round(performance.now()) }, 'ready: every worker has loaded');
          // What the supervisor's start compiled, for the next start (docs/performance.md, "Warm start").
          keepCompiledCode();
        }
        break;
      case 'in-flight':
        entry.requestIds = message.requestIds;
        break;
      case 'reload':
        void reloadEverywhere().then(() => send(worker, { kurel: 'reloaded', seq: message.seq, ok: true }));
        break;
      case 'prepared':
        reply(message.seq, worker.id, { ok: message.ok, diagnostics: message.diagnostics });
        break;
      case 'switched':
        reply(message.seq, worker.id, true);
        break;
      case 'took': {
        const kept = handed.get(message.id);
        handed.delete(message.id);
        // The process has its own copy of the connection: closing this one leaves it open.
        kept?.socket.destroy();
        break;
      }
      case 'gather-metrics':
        void ask((id) => ({ kurel: 'metrics-of', seq: id }), METRICS_WAIT_MS).then((replies) =>
          send(worker, { kurel: 'metrics', seq: message.seq, metrics: [...replies, supervisorMetrics()] }),
        );
        break;
      case 'metrics-of':
        reply(message.seq, worker.id, message.metrics);
        break;
    }
  };

  // A process is handed connections only once it can judge, so no request reaches a process that
  // would refuse it; meanwhile the front answers probes itself.
  // The supervisor keeps its copy of each connection until the process says it has it (`took`):
  // one sent to a process that ends first is handed again, with nothing of it read.
  const takerOf = (worker: Worker) => ({
    take(socket: Socket, done: (err: Error | null) => void) {
      if (!worker.isConnected()) return done(new Error('the serving process is gone'));
      const id = ++connectionSeq;
      handed.set(id, { socket, worker: worker.id });
      worker.send({ kurel: 'connection', id } satisfies SupervisorMessage, socket, { keepOpen: true }, (err: Error | null) => {
        if (!err || !handed.delete(id)) return;
        done(err);
      });
    },
  });
  /** Restarts (and the start of the other processes) waiting for their delay; cleared when the service stops. */
  const pendingRestarts = new Set<NodeJS.Timeout>();
  /** Follows a serving process (forked early, with what it said and did meanwhile, or now). */
  const adopt = (worker: Worker, before?: EarlyProcess) => {
    const entry: Served = { worker, starting: false, listening: false, ready: false, requestIds: [], startErrors: [] };
    served.set(worker.id, entry);
    worker.process.stderr?.on('data', (chunk: Buffer) => {
      if (!entry.listening) entry.startErrors.push(chunk.toString());
      else io.stderr(chunk.toString());
    });
    worker.on('message', (message: unknown) => {
      if (isKurelMessage<ProcessMessage>(message)) onMessage(worker, message);
    });
    const closed = (code: number | null, signal: NodeJS.Signals | null) => {
      front.remove(worker.id);
      served.delete(worker.id);
      forget(worker.id);
      // What it was sent but never had goes to another process, or the front answers it.
      for (const [id, kept] of handed) {
        if (kept.worker !== worker.id) continue;
        handed.delete(id);
        if (!kept.socket.destroyed) front.handOver(kept.socket);
      }
      exited(entry, code, signal);
      checkSteady();
    };
    for (const message of before?.messages ?? []) if (isKurelMessage<ProcessMessage>(message)) onMessage(worker, message);
    // Once what it wrote to standard error has been read: a refused start says why.
    const ended = before?.closed;
    if (ended) setImmediate(() => closed(ended.code, ended.signal));
    else worker.process.once('close', closed);
  };

  const fork = () => adopt(forkServing());

  const codes: number[] = [];
  const exited = (entry: Served, code: number | null, signal: NodeJS.Signals | null) => {
    const { worker } = entry;
    if (stopping) {
      // A process stopped before it listened had no request to cut.
      if (entry.listening) codes.push(code ?? 1);
      log(code === 0 ? 'debug' : 'warn', { pid: worker.process.pid, exitCode: code, signal }, 'a serving process stopped');
      if (served.size === 0) settle();
      return;
    }
    if (!serving && !entry.listening) {
      // A process that cannot start before any could (definitions with errors, a plugin refused)
      // refuses the service; once one serves, every process serves the same definitions, and
      // one that cannot start is replaced like any other that ends.
      refuse(code ?? 1, entry.startErrors.join(''));
      return;
    }
    restarts += 1;
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && deaths[0]! < now - 60_000) deaths.shift();
    const delayMs = restartDelay(deaths.length);
    log(
      'error',
      {
        pid: worker.process.pid,
        exitCode: code,
        signal,
        requestIds: entry.requestIds,
        restarts,
        restartInMs: delayMs,
        ...(entry.listening ? {} : { errors: entry.startErrors.join('') }),
      },
      'a serving process ended: the requests it was handling are lost; it is replaced',
    );
    // A referenced timer: with no serving process left, it is what keeps the supervisor running.
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer);
      if (!stopping) fork();
    }, delayMs);
    pendingRestarts.add(timer);
  };

  if (early?.process) adopt(early.process.worker, early.process);
  else fork();
  log('info', { processes: options.processes, address: front.address }, 'supervising');

  /**
   * Reads the definitions once and switches every process to them, or none (docs/service.md
   * "Reload"): once every process has taken requests and none is starting, one process builds
   * the new catalogue first (the check), then the others; only when every one has does each put
   * it in service, and once all have, each is told so (until then its `/readyz` waits, so the
   * digest it reports is the one every process serves). Coalesced as a process's reload is: one
   * runs, and those asked for meanwhile share one that starts after it.
   */
  const reloadEverywhere = (): Promise<void> => {
    if (reloadWaiting) return reloadWaiting;
    if (!reloading) {
      const running = reloadNow().finally(() => {
        reloading = undefined;
      });
      reloading = running;
      return running;
    }
    const next = reloading.then(() => {
      reloadWaiting = undefined;
      return reloadEverywhere();
    });
    reloadWaiting = next;
    return next;
  };
  const reloadNow = async (): Promise<void> => {
    // Checked again in the turn that goes on: a process may have started meanwhile.
    while (!stopping && !steady()) await untilSteady();
    if (stopping) return;
    let switched: () => void = () => undefined;
    switching = new Promise<void>((resolve) => {
      switched = resolve;
    });
    try {
      await switchEverywhere();
    } finally {
      switching = undefined;
      switched();
    }
  };
  const switchEverywhere = async (): Promise<void> => {
    const read = await readServedDefinitions(options.definitions).catch(
      (err: unknown): DefinitionsRead => ({ ok: false, diagnostics: [fileDiagnostic('<reload>', 'io-error', `reload failed: ${String(err)}`)] }),
    );
    const wire = toWire(read);
    const targets = listeningIds();
    type Prepared = { ok: boolean; diagnostics: DefinitionsOnTheWire['diagnostics'] };
    let outcome: Prepared = wire;
    if (wire.ok && targets.length > 0) {
      const prepare = (to: readonly number[]) => ask((id) => ({ kurel: 'prepare', seq: id, definitions: wire }), RELOAD_WAIT_MS, to) as Promise<Prepared[]>;
      const [first, ...others] = targets;
      const checked = await prepare([first!]);
      const built = checked[0]?.ok ? [...checked, ...(await prepare(others))] : checked;
      const refused = built.find((prepared) => !prepared.ok);
      // Every process that is still there must have built it: one that gave no answer in time refuses it too.
      const missing = built.length < targets.filter((wid) => served.has(wid)).length;
      outcome =
        built.length > 0 && !refused && !missing
          ? { ok: true, diagnostics: built[0]!.diagnostics }
          : { ok: false, diagnostics: refused?.diagnostics ?? [fileDiagnostic('<reload>', 'io-error', UNANSWERED)] };
    }
    if (outcome.ok && wire.ok) current = wire;
    const at = new Date().toISOString();
    await ask((id) => ({ kurel: 'switch', seq: id, ok: outcome.ok, at, diagnostics: outcome.diagnostics }), SWITCH_WAIT_MS);
    if (outcome.ok) for (const wid of listeningIds()) send(served.get(wid)!.worker, { kurel: 'settled', seq: 0 });
    log(
      outcome.ok ? 'info' : 'error',
      { ok: outcome.ok },
      outcome.ok ? 'every process serves the reloaded definitions' : 'reload refused: every process keeps the definitions in service',
    );
  };
  const reload = () => {
    log('info', {}, 'SIGHUP: every process reloads its definitions');
    void reloadEverywhere();
  };
  let watching: DefinitionsWatch | undefined;
  if (options.watchedDirs && options.watchedDirs.length > 0) {
    const { watchDefinitions } = await import('./watch-definitions.js');
    watching = await watchDefinitions(options.watchedDirs, () => void reloadEverywhere(), {
      logger: {
        info: (fields, message) => log('info', fields as Record<string, unknown>, message),
        warn: (fields, message) => log('warn', fields as Record<string, unknown>, message),
      },
    });
  } else if (options.watchedDirs) log('warn', {}, '--watch-definitions has no --definitions folder to watch');
  let stop: (signal: NodeJS.Signals) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => {
    stop = (signal) => {
      if (stopping) {
        log('warn', { signal }, 'second stop signal: every process closes its connections now');
        for (const entry of served.values()) send(entry.worker, { kurel: 'stop', cut: true });
        return;
      }
      stopping = true;
      checkSteady();
      void watching?.close();
      for (const timer of pendingRestarts) clearTimeout(timer);
      pendingRestarts.clear();
      // No new connection is accepted; each process finishes those it was handed.
      for (const id of served.keys()) front.remove(id);
      const closing = front.close();
      log('info', { signal }, 'shutting down: finishing requests in flight');
      for (const entry of served.values()) {
        if (entry.listening) send(entry.worker, { kurel: 'stop', cut: false });
        else entry.worker.process.kill('SIGKILL');
      }
      if (served.size === 0) settle();
      void Promise.all([everyExited, closing]).then(() => {
        log('info', {}, 'stopped');
        resolve(codes.some((code) => code !== 0) ? 1 : 0);
      });
    };
  });
  process.on('SIGHUP', reload);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stop);
  // Those that came while it started: SIGHUP is a reload once every process serves, SIGTERM or
  // SIGINT a graceful stop (docs/service.md "Signals").
  for (const signal of takeHeldSignals()) {
    if (signal === 'SIGHUP') reload();
    else stop(signal);
  }

  const outcome = await Promise.race([stopped.then((code) => ({ code, errors: undefined })), refused]);
  process.off('SIGHUP', reload);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.off(signal, stop);
  if (outcome.errors !== undefined) {
    stopping = true;
    await front.close();
    for (const entry of served.values()) entry.worker.process.kill('SIGKILL');
    if (served.size > 0) await everyExited;
    io.stderr(outcome.errors);
  }
  return outcome.code;
}
