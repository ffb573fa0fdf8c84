// Type-checks and emits declarations with tsc, then bundles the CLI and the library with esbuild.
// The CLI entry is one small file; heavy parts (express, ajv) sit in chunks that only the
// commands needing them import. Output is built aside and swapped in, so a test reading
// dist/ never sees a half-written tree.

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// What every command's start needs is bundled into the CLI: one file read instead of hundreds
// (TypeBox alone is ~200 files) is what keeps `kurel lint` within 2x of `node -e 0` (DESIGN §6).
// Everything else stays external and loads only in the commands using it (ajv, ...), except what
// `kurel serve` needs, bundled into its own chunk (below).
const CLI_BUNDLED = new Set(['yaml', '@sinclair/typebox', 'commander']);
// yaml's ES module build (shipped as its browser entry, same source) lets esbuild drop what is unused.
const YAML_ESM = fileURLToPath(new URL('../node_modules/yaml/browser/index.js', import.meta.url));
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
// `kurel serve` must be ready within 3x of `node -e 0` (DESIGN §6): express, pino and prom-client
// with everything they require (about a hundred CommonJS files) load from its one chunk instead.
const SERVE_BUNDLED = new Set(['express', 'pino', 'prom-client']);
const bundleStartupPackages = {
  name: 'bundle-startup-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === 'yaml') return { path: YAML_ESM };
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      if (CLI_BUNDLED.has(packageOf(args.path)) || SERVE_BUNDLED.has(packageOf(args.path))) return undefined;
      // What a bundled package requires is bundled with it (Node's built-ins stay external).
      if (args.importer.includes('/node_modules/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const staging = `dist.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
try {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--outDir', `${staging}/types`], {
    stdio: 'inherit',
  });
  const common = {
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    // Less text for V8 to parse at every start (about 5% of a lint's wall time); names are
    // kept, so stack traces still read.
    minifyWhitespace: true,
    minifySyntax: true,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  };
  // The library leaves its dependencies to the embedding program's node_modules.
  await build({ ...common, entryPoints: { index: 'src/index.ts' }, packages: 'external' });
  await build({
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    plugins: [bundleStartupPackages],
    // Bundled CommonJS (commander) requires node built-ins; ES modules have no `require` of their own.
    banner: { js: "import { createRequire as __kurelCreateRequire } from 'node:module'; const require = __kurelCreateRequire(import.meta.url);" },
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
