// Type-checks and emits declarations with tsc, then bundles the CLI and the library with esbuild.
// The CLI runs from CommonJS bundles (dist/bundles/) through small launchers (dist/cli.cjs, the
// `kurel` bin, and dist/lint-worker.cjs for `kurel lint --jobs`) that keep V8's code cache of
// each (docs/performance.md, "Warm start"); the language server's and the service's worker
// threads run from ES module chunks. Output is built aside and swapped in, so a test reading
// dist/ never sees a half-written tree.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// What every command's start needs is bundled into the CLI: one file read instead of hundreds
// (TypeBox alone is ~200 files) is what keeps `kurel lint` within 2x of `node -e 0` (docs/performance.md).
// Everything else stays external and loads only in the commands using it (ajv, ...), except what
// `kurel serve` needs, bundled into its own chunk (below).
const CLI_BUNDLED = new Set(['js-yaml', '@sinclair/typebox', 'commander', 'canonicalize']);
// Packages most runs never use: `src/core/lazy-package.ts` requires each on first use, from one
// CommonJS file bundled next to that module's chunk (the packages' own files, ~70 for `yaml`,
// would cost the first use about 40 ms more). A clean lint needs neither: the fast path reads
// its YAML, and it holds no version to compare.
const LAZY_PACKAGES = { yaml: 'KUREL_YAML_BUNDLE', semver: 'KUREL_SEMVER_BUNDLE' };
const LAZY_LOADER = 'src/core/lazy-package.ts';
// yaml's ES module build (shipped as its browser entry, same source) bundles into one scope with
// direct calls; its CommonJS build calls through a module object at every step, about 7% slower
// on a 1 MB profile read in full.
const BUNDLE_ENTRIES = { yaml: fileURLToPath(new URL('../node_modules/yaml/browser/index.js', import.meta.url)) };
// Required by bundled packages as they load, for paths kurel never takes. commander's
// child_process runs executable subcommands (with net, dgram and the stream modules it cost ~6 ms
// of every start); raw-body's and body-parser's iconv-lite decodes charsets, which `express.raw`
// never asks for (~490 KB of the service's chunk), and is bundled like the lazy packages.
const DEFERRED = [
  { name: 'child_process', importer: /\/node_modules\/commander\//, target: 'node:child_process' },
  { name: 'iconv-lite', importer: /\/node_modules\/(raw-body|body-parser)\//, target: 'iconv-lite.cjs' },
];
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
// `kurel serve` must be ready within 3x of `node -e 0` (docs/performance.md): express, pino and prom-client
// with everything they require (about a hundred CommonJS files) load from its one chunk instead.
const SERVE_BUNDLED = new Set(['express', 'pino', 'prom-client']);
// `chunks` is the lazy bundles' folder as seen from the output requiring them.
const bundleStartupPackages = (chunks) => ({
  name: 'bundle-startup-packages',
  setup(b) {
    // Required as these packages load, used only on paths kurel never takes: each becomes a proxy
    // that requires it on first use (see DEFERRED).
    b.onResolve({ filter: /^(node:)?[a-z_-]+$/ }, (args) => {
      const deferred = DEFERRED.find((d) => d.name === args.path.replace(/^node:/, '') && d.importer.test(args.importer));
      return deferred ? { path: deferred.name, namespace: 'deferred' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => {
      const { target } = DEFERRED.find((d) => d.name === args.path);
      const path = target.endsWith('.cjs') ? `${chunks}${target}` : target;
      return { contents: `module.exports = new Proxy({}, { get: (_, key) => require(${JSON.stringify(path)})[key] });`, loader: 'js' };
    });
    b.onResolve({ filter: /\.cjs$/, namespace: 'deferred' }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (packageOf(args.path) in LAZY_PACKAGES)
        return { errors: [{ text: `${args.importer} imports ${args.path}: require it with ${LAZY_LOADER}, which loads it on first use` }] };
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      if (CLI_BUNDLED.has(packageOf(args.path)) || SERVE_BUNDLED.has(packageOf(args.path))) return undefined;
      // What a bundled package requires is bundled with it (Node's built-ins stay external).
      if (args.importer.includes('/node_modules/')) return undefined;
      return { path: args.path, external: true };
    });
  },
});

// What only `kurel serve` runs: in dist/kurel.cjs each is a module that refuses to load, since the
// launcher runs `kurel serve` from dist/kurel-serve.cjs.
const SERVICE_MODULES = [
  { importer: 'src/cli/start.ts', path: '../http/entry.js' },
  { importer: 'src/cli/main.ts', path: './commands/serve.js' },
];
const leaveOut = (modules, bundle) => ({
  name: 'leave-out',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) =>
      modules.some((m) => args.path === m.path && args.importer.endsWith(m.importer)) ? { path: args.path, namespace: 'left-out' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not part of ${bundle}.cjs: kurel serve runs from kurel-serve.cjs`)});`,
      loader: 'js',
    }));
  },
});

// What the console's assets are served as, by extension; the build emits nothing else.
const CONSOLE_MEDIA_TYPES = { '.js': 'text/javascript', '.css': 'text/css' };

/**
 * Bundles the browser console (console/) into `<out>/console/`: assets under `assets/` with
 * content-hashed names (served as immutable), the page with their relative URLs filled in (the
 * server fills in each response's nonce at `{{nonce}}`), and `manifest.json` naming both, which
 * `kurel serve` reads on the first request for the console. The playground (CodeMirror) is a
 * chunk of its own, loaded when the view is first opened.
 */
async function buildConsole(out) {
  const dir = `${out}/console`;
  const result = await build({
    entryPoints: { console: 'console/main.ts' },
    outdir: `${dir}/assets`,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    // Browsers with CompressionStream('deflate-raw'), the newest feature the console needs.
    target: ['chrome103', 'firefox113', 'safari16.4'],
    minify: true,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  const assets = {};
  let script;
  let style;
  for (const [path, output] of Object.entries(result.metafile.outputs)) {
    const name = basename(path);
    const mediaType = CONSOLE_MEDIA_TYPES[name.slice(name.lastIndexOf('.'))];
    if (!mediaType) throw new Error(`the console build wrote ${name}, which has no media type to be served as`);
    assets[name] = mediaType;
    if (output.entryPoint === 'console/main.ts') {
      script = name;
      style = output.cssBundle && basename(output.cssBundle);
    }
  }
  if (!script || !style) throw new Error('the console build wrote no entry script or no stylesheet');
  const page = readFileSync('console/index.html', 'utf8').replaceAll('{{script}}', `assets/${script}`).replaceAll('{{style}}', `assets/${style}`);
  writeFileSync(`${dir}/index.html`, page);
  writeFileSync(`${dir}/manifest.json`, `${JSON.stringify({ page: 'index.html', assets }, null, 2)}\n`);
}

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
    minifyWhitespace: !process.env.KUREL_READABLE_BUILD,
    minifySyntax: true,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  };
  // The library leaves its dependencies to the embedding program's node_modules.
  await build({ ...common, entryPoints: { index: 'src/index.ts' }, packages: 'external' });
  const lazyBundles = (chunks) =>
    Object.fromEntries(Object.entries(LAZY_PACKAGES).map(([name, constant]) => [constant, JSON.stringify(`${chunks}${name}.cjs`)]));
  // The language server's judging thread runs from ES module chunks.
  const threads = await build({
    ...common,
    entryPoints: { 'lsp-worker': 'src/lsp/judge-worker.ts' },
    plugins: [bundleStartupPackages('./')],
    define: lazyBundles('./'),
    metafile: true,
    // Bundled CommonJS (commander) requires node built-ins; ES modules have no `require` of their own.
    banner: { js: "import { createRequire as __kurelCreateRequire } from 'node:module'; const require = __kurelCreateRequire(import.meta.url);" },
  });
  // The lazy bundles' paths are relative to the chunk requiring them, the loader's.
  const holder = Object.entries(threads.metafile.outputs).find(([, output]) => LAZY_LOADER in output.inputs)?.[0];
  if (holder && !holder.startsWith(`${staging}/chunks/`)) throw new Error(`${LAZY_LOADER} was bundled into ${holder}, not a chunk beside the lazy bundles`);
  // kurel itself and `kurel lint --jobs`'s threads: one CommonJS file each, which V8 can compile
  // from its code cache (a vm.Script; an ES module cannot be given one), every module of kurel
  // in it (those a command loads on first use too: they are compiled only when run). Every byte
  // is read at every start, so `kurel serve` (express, pino, prom-client: about half of it) has a
  // bundle of its own, and the other commands' leaves the service out.
  const bundles = {
    kurel: { entry: 'src/cli/start.ts', without: SERVICE_MODULES },
    'kurel-serve': { entry: 'src/cli/start.ts' },
    'lint-worker': { entry: 'src/cli/lint-worker.ts' },
    // piscina stays external: it starts its own worker script from its package folder.
    'serve-worker': { entry: 'src/http/work/worker-load.ts' },
  };
  for (const [name, { entry, without }] of Object.entries(bundles)) {
    await build({
      ...common,
      splitting: false,
      format: 'cjs',
      entryPoints: { [name]: entry },
      outdir: `${staging}/bundles`,
      outExtension: { '.js': '.cjs' },
      plugins: [...(without ? [leaveOut(without, name)] : []), bundleStartupPackages('../chunks/')],
      define: {
        ...lazyBundles('../chunks/'),
        'import.meta.url': '__kurelMetaUrl',
      },
      banner: { js: 'var __kurelMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
      // Its text is read as Latin-1 (src/core/code-cache.ts).
      charset: 'ascii',
    });
  }
  // Code compiled from a code cache cannot call import() (src/core/import-module.ts): the one a
  // bundle may hold is that module's, used only outside a bundle.
  for (const name of Object.keys(bundles)) {
    const calls = readFileSync(`${staging}/bundles/${name}.cjs`, 'latin1').match(/\bimport\(/g)?.length ?? 0;
    if (calls > 1) throw new Error(`bundles/${name}.cjs calls import() ${calls} times: import through src/core/import-module.ts`);
  }
  // The launchers, each with its bundle's digest, which names the bundle's code cache.
  const digestOf = (name) =>
    createHash('sha256')
      .update(readFileSync(`${staging}/bundles/${name}.cjs`))
      .digest('hex')
      .slice(0, 16);
  const launcher = { ...common, splitting: false, format: 'cjs', outdir: undefined, logLevel: 'warning' };
  await build({
    ...launcher,
    entryPoints: ['src/cli/bin.ts'],
    outfile: `${staging}/cli.cjs`,
    define: { KUREL_BUNDLE_DIGESTS: JSON.stringify({ kurel: digestOf('kurel'), 'kurel-serve': digestOf('kurel-serve') }) },
  });
  await build({
    ...launcher,
    entryPoints: ['src/core/launch-bundle.ts'],
    outfile: `${staging}/lint-worker.cjs`,
    define: { KUREL_BUNDLE: JSON.stringify({ file: 'bundles/lint-worker.cjs', digest: digestOf('lint-worker'), name: 'lint-worker' }) },
  });
  await build({
    ...launcher,
    entryPoints: ['src/http/work/worker.ts'],
    outfile: `${staging}/serve-worker.cjs`,
    // It sets module.exports, which piscina reads: it is built as CommonJS, whatever its folder's type says.
    logOverride: { 'commonjs-variable-in-esm': 'silent' },
    define: { KUREL_BUNDLE_DIGEST: JSON.stringify(digestOf('serve-worker')) },
  });
  for (const name of [...Object.keys(LAZY_PACKAGES), 'iconv-lite']) {
    await build({
      entryPoints: [BUNDLE_ENTRIES[name] ?? createRequire(import.meta.url).resolve(name)],
      outfile: `${staging}/chunks/${name}.cjs`,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      legalComments: 'none',
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: 'warning',
    });
  }
  chmodSync(`${staging}/cli.cjs`, 0o755);
  await buildConsole(staging);
  const old = `dist.old-${process.pid}`;
  if (existsSync('dist')) renameSync('dist', old);
  renameSync(staging, 'dist');
  rmSync(old, { recursive: true, force: true });
} catch (err) {
  rmSync(staging, { recursive: true, force: true });
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
