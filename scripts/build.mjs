// Type-checks and emits declarations with tsc, then bundles the CLI and the library with esbuild.
// The CLI entry is one small file; heavy parts (express, ajv) sit in chunks that only the
// commands needing them import. Output is built aside and swapped in, so a test reading
// dist/ never sees a half-written tree.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';

const staging = `dist.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
try {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--outDir', `${staging}/types`], {
    stdio: 'inherit',
  });
  await build({
    entryPoints: { cli: 'src/cli/main.ts', index: 'src/index.ts' },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    legalComments: 'none',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  chmodSync(`${staging}/cli.js`, 0o755);
  const old = `dist.old-${process.pid}`;
  if (existsSync('dist')) renameSync('dist', old);
  renameSync(staging, 'dist');
  rmSync(old, { recursive: true, force: true });
} catch (err) {
  rmSync(staging, { recursive: true, force: true });
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
