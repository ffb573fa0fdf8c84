/** Documented input limits (docs/profiles.md). */
export const LIMITS = {
  /** Files larger than this are `file-too-large`. */
  maxFileBytes: 16 * 1024 * 1024,
  /** Collections nested deeper than this are `too-deep`. */
  maxDepth: 128,
  /** Alias expansion budget; the `yaml` parser's own default. */
  maxAliasCount: 100,
  /** A document may expand to this many produced values per source node (docs/profiles.md)... */
  expansionFactor: 10,
  /** ...but always to this many... */
  minProducedValues: 10_000,
  /** ...and never to more than this many. */
  maxProducedValues: 1_000_000,
  /** A run reports this many problems; the rest are counted in one summary (docs/profiles.md). */
  maxReportedProblems: 1_000,
} as const;
