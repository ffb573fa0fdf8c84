/** Limits of the HTTP service (documented in docs/service.md and in `openapi.yaml`). */
export interface ServiceLimits {
  /** Largest request body accepted, in bytes; larger bodies get 413 (at once when the declared length is larger). */
  maxBodyBytes: number;
  /**
   * Time from a request's first byte to its answer: a body still incomplete then gets 408, a
   * task still queued 503 with `Retry-After`, a task running is cancelled and gets 503.
   */
  requestTimeoutMs: number;
  /**
   * Time a connection may take to send a request's headers (and, over TLS, to complete its
   * handshake); a connection that sends nothing is closed then. Not tied to the request deadline.
   */
  headersTimeoutMs: number;
  /** Time an answer may take to be read by the client; a slower one is cut and counted as aborted. */
  sendTimeoutMs: number;
  /** Requests admitted at once, running or queued; more get 503 (probes, metrics and reload are never refused). */
  maxConcurrentRequests: number;
  /** Heap limit of each worker thread, in MiB; a request that exceeds it gets 413 and the worker is replaced. */
  workerMemoryMiB: number;
  /** Time shutdown waits for requests in flight before it closes their connections. */
  shutdownGraceMs: number;
}

/** The limits `kurel serve` runs with. */
export const DEFAULT_LIMITS: ServiceLimits = {
  maxBodyBytes: 1024 * 1024,
  requestTimeoutMs: 5_000,
  headersTimeoutMs: 5_000,
  sendTimeoutMs: 30_000,
  maxConcurrentRequests: 64,
  workerMemoryMiB: 512,
  shutdownGraceMs: 15_000,
};

/** The body limit of `POST /v1/admission` (docs/kubernetes.md): a review carries `object` and `oldObject`. */
export const ADMISSION_BODY_BYTES = 4 * 1024 * 1024;
