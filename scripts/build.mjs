// Type-checks and emits declarations with tsc, then bundles the CLI and the library with esbuild.
// The CLI is one file per entry so a lint start reads few modules; express and the other
// heavy parts sit in chunks that only the commands needing them import.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync, chmodSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });

await build({
  entryPoints: { cli: 'src/cli/main.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: false,
  legalComments: 'none',
  banner: { js: '' },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
chmodSync('dist/cli.js', 0o755);
