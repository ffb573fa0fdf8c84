/** Limits of the HTTP service (documented in the README and in `openapi.yaml`). */
export interface ServiceLimits {
  /** Largest request body accepted, in bytes; larger bodies get 413. */
  maxBodyBytes: number;
  /** Time a request may take, from its first byte to its answer; a slower one gets 408. */
  requestTimeoutMs: number;
  /** Requests handled at once; more get 503 (probes and metrics are never refused). */
  maxConcurrentRequests: number;
  /** Time shutdown waits for requests in flight before it closes their connections. */
  shutdownGraceMs: number;
}

/** The limits `kurel serve` runs with. */
export const DEFAULT_LIMITS: ServiceLimits = {
  maxBodyBytes: 1024 * 1024,
  requestTimeoutMs: 10_000,
  maxConcurrentRequests: 64,
  shutdownGraceMs: 15_000,
};
