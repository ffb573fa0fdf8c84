// The host a launcher gives kurel's CommonJS bundle (src/core/code-cache.ts); absent when kurel
// runs from its ES modules (the library, the tests).
declare const __kurelHost: { importModule(specifier: string): Promise<unknown> } | undefined;

/**
 * `import(specifier)`: a package loaded on first use, or a plugin. Code V8 compiled from a code
 * cache cannot call `import()` itself (Node keeps no import callback for it), so in kurel's
 * bundle the launcher, an ordinary module, imports for it.
 */
export function importModule<T>(specifier: string): Promise<T> {
  return (typeof __kurelHost !== 'undefined' ? __kurelHost.importModule(specifier) : import(specifier)) as Promise<T>;
}
