/**
 * What the supervisor and its serving processes say to each other over the IPC channel
 * node:cluster opens. Every message carries `kurel`, so it is never mistaken for one of Node's.
 */

/** A serving process to the supervisor. */
export type ProcessMessage =
  /** The process has started and waits for the options of the service it is to run (answered with `options`). */
  | { kurel: 'options?' }
  /** The process takes requests (the connections the supervisor accepts at `url`). */
  | { kurel: 'listening'; url: string }
  /** Every worker of the process has loaded (or one could not). */
  | { kurel: 'ready'; ok: boolean }
  /** The ids of the requests the process is handling now (sent when they change, at most a few times a second). */
  | { kurel: 'in-flight'; requestIds: string[] }
  /** `POST /v1/reload` reached this process: reload the others; answered with `reloaded`. */
  | { kurel: 'reload-others'; seq: number }
  /** This process has reloaded as asked (`seq` of the supervisor's `reload`). */
  | { kurel: 'reloaded'; seq: number; ok: boolean }
  /** `GET /metrics` reached this process: gather every process's metrics; answered with `metrics`. */
  | { kurel: 'gather-metrics'; seq: number }
  /** This process's metrics, as prom-client's `getMetricsAsJSON` gives them. */
  | { kurel: 'metrics-of'; seq: number; metrics: unknown[] };

/** The supervisor to a serving process. */
export type SupervisorMessage =
  /**
   * The options of the service (service.ts's `ServiceOptions`, as plain data), as the command line
   * and the configuration the supervisor read gave them (the process reads neither itself), and
   * the address of the front, which hands the process its connections.
   */
  | { kurel: 'options'; options: unknown; address: string }
  /** A connection the supervisor accepted, sent with the message as its handle: the process serves it. */
  | { kurel: 'connection' }
  /** Reload the definitions (SIGHUP, or another process's `POST /v1/reload`); answer `reloaded`. */
  | { kurel: 'reload'; seq: number }
  /** Every other process has reloaded (the answer to `reload-others`). */
  | { kurel: 'others-reloaded'; seq: number; ok: boolean }
  /** Send this process's metrics (`metrics-of`). */
  | { kurel: 'metrics-of'; seq: number }
  /** The metrics of every process, for the `gather-metrics` of the same `seq`. */
  | { kurel: 'metrics'; seq: number; metrics: unknown[] }
  /** Drain and stop (`cut`: a second stop signal, close every connection now). */
  | { kurel: 'stop'; cut: boolean };

/** True when `message` is one of kurel's own. */
export function isKurelMessage<T extends { kurel: string }>(message: unknown): message is T {
  return typeof message === 'object' && message !== null && typeof (message as { kurel?: unknown }).kurel === 'string';
}
