import { createRequire } from 'node:module';

// Set by the CLI build to the one-file CommonJS bundle of each package it ships next to this
// module's chunk (scripts/build.mjs); unset in the library build and under the test runner,
// where the package itself is required.
declare const KUREL_YAML_BUNDLE: string | undefined;
declare const KUREL_SEMVER_BUNDLE: string | undefined;

/** Packages most runs never use, loaded on first use instead of at every start (docs/performance.md). */
export type LazyPackage = 'yaml' | 'semver';

/** Requires a {@link LazyPackage}: synchronous, since its users are (positions, version checks). */
export function requireLazily(name: LazyPackage): unknown {
  const load = createRequire(import.meta.url);
  if (name === 'yaml') return load(typeof KUREL_YAML_BUNDLE === 'string' ? KUREL_YAML_BUNDLE : 'yaml');
  return load(typeof KUREL_SEMVER_BUNDLE === 'string' ? KUREL_SEMVER_BUNDLE : 'semver');
}
