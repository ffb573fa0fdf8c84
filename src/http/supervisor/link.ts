import cluster from 'node:cluster';
import type { Socket } from 'node:net';
import { isKurelMessage, type ProcessMessage, type SupervisorMessage } from './messages.js';

/** How often a serving process tells the supervisor which requests it is handling, at most. */
const IN_FLIGHT_REPORT_MS = 250;

/** What a serving process does when the supervisor asks. */
export interface LinkHandlers {
  /** Reload the definitions; resolves to whether the reload succeeded. */
  reload(): Promise<boolean>;
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
  /** Has every other process reload; resolves to whether all of them succeeded. */
  reloadOthers(): Promise<boolean>;
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
        if (handle) accept(handle as Socket);
        break;
      case 'reload':
        void handlers.reload().then((ok) => send({ kurel: 'reloaded', seq: message.seq, ok }));
        break;
      case 'metrics-of':
        void handlers.metrics().then((metrics) => send({ kurel: 'metrics-of', seq: message.seq, metrics }));
        break;
      case 'stop':
        handlers.stop(message.cut);
        break;
      case 'others-reloaded':
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
      answer({ kurel: 'others-reloaded', seq: id, ok: false });
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
    reloadOthers: () =>
      request(
        (id) => ({ kurel: 'reload-others', seq: id }),
        (reply) => reply.kurel === 'others-reloaded' && reply.ok,
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
