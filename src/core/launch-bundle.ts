// The launcher of a worker thread's CommonJS bundle (dist/lint-worker.cjs runs
// dist/bundles/lint-worker.cjs), with V8's code cache as dist/cli.cjs runs kurel (src/core/code-cache.ts).
import { join } from 'node:path';
import { loadBundle } from './code-cache.js';

// Written by the build for each worker bundle.
declare const KUREL_BUNDLE: { readonly file: string; readonly digest: string; readonly name: string };

loadBundle({
  file: join(__dirname, KUREL_BUNDLE.file),
  digest: KUREL_BUNDLE.digest,
  name: KUREL_BUNDLE.name,
  importModule: (specifier) => import(specifier),
});
