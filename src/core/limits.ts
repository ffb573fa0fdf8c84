/** Documented input limits (DESIGN §4.5, §7). */
export const LIMITS = {
  /** Files larger than this are `file-too-large`. */
  maxFileBytes: 16 * 1024 * 1024,
  /** Collections nested deeper than this are `too-deep`. */
  maxDepth: 128,
  /** Alias expansion budget; the `yaml` parser's own default. */
  maxAliasCount: 100,
} as const;
