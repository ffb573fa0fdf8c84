import cluster from 'node:cluster';
import type { Socket } from 'node:net';
import type { Diagnostic } from '../../core/diagnostics.js';
import { isKurelMessage, type ProcessMessage, type SupervisorMessage } from './messages.js';
import { type DefinitionsRead, fromWire } from './served-definitions.js';

/** How often a serving process tells the supervisor which requests it is handling, at most. */
const IN_FLIGHT_REPORT_MS = 250;

/** What a serving process does when the supervisor asks. */
export interface LinkHandlers {
  /** Build a catalogue from `definitions` beside the one in service (every worker loaded); resolves to whether it could, and its diagnostics. */
  prepare(definitions: DefinitionsRead): Promise<{ ok: boolean; diagnostics: Diagnostic[] }>;
  /** The outcome of a reload, the same in every process: put the prepared catalogue in service (`ok`), or drop it. */
  switchTo(outcome: { ok: boolean; at: Date; diagnostics: Diagnostic[] }): void;
  /** Every process has switched: what this process reports is what every process serves. */
  settled(): void;
  /** Every process of the service takes requests. */
  serving(): void;
  /** Drain and stop (`cut`: close every connection now). */
  stop(cut: boolean): void;
  /** This process's metrics, as prom-client's `getMetricsAsJSON` gives them. */
  metrics(): Promise<unknown[]>;
}

/** A serving process's side of its channel to the supervisor. */
export interface SupervisorLink {
  /** Where the supervisor listens for the service, `host:port`. */
  address: string;
  /**
   * Has `accept` take every connection the supervisor hands this process from now on (the
   * supervisor owns the listening socket), and tells it the process takes requests at `url`.
   */
  listening(url: string, accept: (socket: Socket) => void): void;
  /** Tells the supervisor every worker of the process has loaded (or one could not). */
  ready(ok: boolean): void;
  /** Reports `requestIds()` to the supervisor whenever it changes, a few times a second at most. */
  followInFlight(requestIds: () => string[]): void;
  /**
   * Has the supervisor read the definitions again and switch every process to them, or none;
   * resolves once the outcome is in service in every process (this one's state records it).
   */
  reloadEverywhere(): Promise<void>;
  /** The metrics of every process (this one included) and the supervisor's own. */
  gatherMetrics(): Promise<unknown[][]>;
  /** Stops reporting and closes the channel, so the process can end. */
  close(): void;
}

/**
 * The link of a process that node:cluster forked (undefined in a process run on its own): the
 * supervisor's messages go to `handlers`, and a supervisor that goes away stops the process.
 */
export function supervisorLink(handlers: LinkHandlers): SupervisorLink | undefined {
  if (!cluster.isWorker || typeof process.send !== 'function') return undefined;
  let seq = 0;
  const answers = new Map<number, (message: SupervisorMessage) => void>();
  let report: NodeJS.Timeout | undefined;
  // Connections come only once the process said it takes them; one sent before is not kept.
  let accept: (socket: Socket) => void = (socket) => socket.destroy();
  const send = (message: ProcessMessage) => {
    if (process.connected) process.send?.(message);
  };
  const request = <T>(message: (seq: number) => ProcessMessage, read: (reply: SupervisorMessage) => T): Promise<T> => {
    const id = ++seq;
    return new Promise((resolve) => {
      answers.set(id, (reply) => resolve(read(reply)));
      send(message(id));
    });
  };
  process.on('message', (message: unknown, handle: unknown) => {
    if (!isKurelMessage<SupervisorMessage>(message)) return;
    switch (message.kurel) {
      case 'connection':
        // The supervisor keeps its copy of a connection until the process says it has it, so that
        // one sent to a process that ends on the way is handed to another (docs/service.md).
        send({ kurel: 'took', id: message.id });
        if (handle) accept(handle as Socket);
        break;
      case 'serving':
        handlers.serving();
        break;
      case 'prepare':
        void handlers.prepare(fromWire(message.definitions)).then(({ ok, diagnostics }) => send({ kurel: 'prepared', seq: message.seq, ok, diagnostics }));
        break;
      case 'switch':
        handlers.switchTo({ ok: message.ok, at: new Date(message.at), diagnostics: message.diagnostics });
        send({ kurel: 'switched', seq: message.seq });
        break;
      case 'settled':
        handlers.settled();
        break;
      case 'metrics-of':
        void handlers.metrics().then((metrics) => send({ kurel: 'metrics-of', seq: message.seq, metrics }));
        break;
      case 'stop':
        handlers.stop(message.cut);
        break;
      case 'reloaded':
      case 'metrics': {
        const answer = answers.get(message.seq);
        answers.delete(message.seq);
        answer?.(message);
        break;
      }
    }
  });
  // Without its supervisor the process stops as on SIGTERM, and what waited for an answer gets none.
  process.once('disconnect', () => {
    for (const [id, answer] of answers) {
      answers.delete(id);
      answer({ kurel: 'reloaded', seq: id, ok: false });
    }
    handlers.stop(false);
  });
  return {
    address: process.env['KUREL_SUPERVISED_ADDRESS'] ?? '',
    listening(url, take) {
      accept = take;
      send({ kurel: 'listening', url });
    },
    ready: (ok) => send({ kurel: 'ready', ok }),
    followInFlight(requestIds) {
      let last = '';
      report = setInterval(() => {
        const ids = requestIds();
        const key = ids.join(',');
        if (key === last) return;
        last = key;
        send({ kurel: 'in-flight', requestIds: ids });
      }, IN_FLIGHT_REPORT_MS).unref();
    },
    reloadEverywhere: () =>
      request(
        (id) => ({ kurel: 'reload', seq: id }),
        () => undefined,
      ),
    gatherMetrics: () =>
      request(
        (id) => ({ kurel: 'gather-metrics', seq: id }),
        (reply) => (reply.kurel === 'metrics' ? (reply.metrics as unknown[][]) : []),
      ),
    close() {
      clearInterval(report);
      // node:cluster's own disconnect lets the process end with its exit code (a bare one exits 0).
      if (process.connected) cluster.worker?.disconnect();
    },
  };
}
