/**
 * What the supervisor and its serving processes say to each other over the IPC channel
 * node:cluster opens. Every message carries `kurel`, so it is never mistaken for one of Node's.
 */

import type { Diagnostic } from '../../core/diagnostics.js';
import type { DefinitionsOnTheWire } from './served-definitions.js';

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
  /** A connection the supervisor sent (`connection` of the same `id`) is this process's now. */
  | { kurel: 'took'; id: number }
  /** `POST /v1/reload` or SIGHUP reached this process: reload every process; answered with `reloaded`. */
  | { kurel: 'reload'; seq: number }
  /** This process has built the catalogue of `prepare` (every worker loaded), or why it could not. */
  | { kurel: 'prepared'; seq: number; ok: boolean; diagnostics: Diagnostic[] }
  /** This process has done the `switch` of the same `seq`. */
  | { kurel: 'switched'; seq: number }
  /** `GET /metrics` reached this process: gather every process's metrics; answered with `metrics`. */
  | { kurel: 'gather-metrics'; seq: number }
  /** This process's metrics, as prom-client's `getMetricsAsJSON` gives them. */
  | { kurel: 'metrics-of'; seq: number; metrics: unknown[] };

/** The supervisor to a serving process. */
export type SupervisorMessage =
  /**
   * The options of the service (service.ts's `ServiceOptions`, as plain data), as the command line
   * and the configuration the supervisor read gave them (the process reads neither itself), the
   * definitions the service serves now, as the supervisor read them, and the address of the
   * front, which hands the process its connections.
   */
  | { kurel: 'options'; options: unknown; definitions: DefinitionsOnTheWire; address: string }
  /** A connection the supervisor accepted, sent with the message as its handle: the process serves it (and says `took`). */
  | { kurel: 'connection'; id: number }
  /** Every process of the service takes requests: this one is ready (docs/service.md "During start"). */
  | { kurel: 'serving' }
  /** Build (every worker loaded) a catalogue from these definitions, read once for a reload, beside the one in service; answer `prepared`. */
  | { kurel: 'prepare'; seq: number; definitions: DefinitionsOnTheWire }
  /**
   * The reload's outcome, the same in every process: `ok`, put the prepared catalogue in service;
   * else drop it, the previous one stays. Answer `switched`.
   */
  | { kurel: 'switch'; seq: number; ok: boolean; at: string; diagnostics: Diagnostic[] }
  /** Every process has switched (`seq` of the `switch`): what `/readyz` reports is what every process serves. */
  | { kurel: 'settled'; seq: number }
  /** The reload this process asked for (`reload`) is done, in every process. */
  | { kurel: 'reloaded'; seq: number; ok: boolean }
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
