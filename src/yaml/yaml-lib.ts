import type * as YamlLib from 'yaml';
import { requireLazily } from '../core/lazy-package.js';

let lib: typeof YamlLib | undefined;

/**
 * The `yaml` package, loaded on first use. The fast path (docs/performance.md) reads most texts without
 * it, so a clean `kurel lint` never loads it; compiling it at every start cost about a tenth of
 * the start over `node -e 0` (docs/performance.md).
 */
export function yaml(): typeof YamlLib {
  lib ??= requireLazily('yaml') as typeof YamlLib;
  return lib;
}
