// The host a launcher gives kurel's CommonJS bundle (src/core/code-cache.ts); absent when kurel
// runs from its ES modules (the library, the tests).
declare const __kurelHost: { keepCompiledCode(): void } | undefined;

/**
 * Keeps the code compiled so far in the code cache now, rather than at exit: for a process that
 * runs until stopped, once it has done what a start needs (docs/performance.md, "Warm start").
 */
export function keepCompiledCode(): void {
  if (typeof __kurelHost !== 'undefined') __kurelHost.keepCompiledCode();
}
