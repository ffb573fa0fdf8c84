import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/**
 * A warm start (docs/performance.md, "Warm start"): a CommonJS bundle of kurel run from V8's code
 * cache. The first run of a command compiles the bundle as usual and, before it exits, keeps what
 * V8 compiled (the functions the run called, not only the top level) in the cache folder; later
 * runs of that command read it instead of compiling again. A cache file is named by the command,
 * the Node version, the architecture and the bundle's digest, so a cache of another kurel or
 * another Node is never read; V8 also refuses one made by other flags, and one whose checksum
 * fails (a damaged file), and that run compiles and writes it anew. A cache that cannot be
 * written only costs the next run its warm start.
 */

/**
 * What the launcher gives the bundle. Code compiled from a code cache cannot call `import()`
 * (Node keeps no import callback for it, src/core/import-module.ts), so the launcher imports for it.
 */
export interface BundleHost {
  /** `import()` as the launcher's module does (plugins, packages loaded on first use). */
  readonly importModule: (specifier: string) => Promise<unknown>;
  /** Keeps the code compiled so far now, for a process that does not exit (the service once it serves). */
  readonly keepCompiledCode: () => void;
}

export interface BundleToLoad {
  /** The bundle's path. */
  readonly file: string;
  /** The bundle's digest, written into it by the build. */
  readonly digest: string;
  /** What runs it, one cache each: `kurel-lint`, `lint-worker`, ... */
  readonly name: string;
  readonly importModule: BundleHost['importModule'];
}

// V8 checks a cache's checksum only under this flag (on by default in debug builds alone), and
// the flags are part of every cache's key: on while kurel's cache is read or made, off again at
// once, so that Node's own built-in caches, made without it, stay valid for the modules it loads.
const CHECKSUM_ON = '--verify-snapshot-checksum';
const CHECKSUM_OFF = '--no-verify-snapshot-checksum';
// The parameters of a CommonJS module, and the host.
const WRAPPER = ['(function (exports, require, module, __filename, __dirname, __kurelHost) {', '\n})'];

/** Loads and runs a bundle, with its code cache when there is a good one; returns its exports. */
export function loadBundle(bundle: BundleToLoad, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  // The bundle is ASCII (esbuild escapes the rest): read as Latin-1, the string is made without decoding.
  const source = readFileSync(bundle.file, 'latin1');
  const cacheFile = env['KUREL_CODE_CACHE'] === 'off' ? undefined : codeCacheFile(bundle, env);
  const trace = env['KUREL_TRACE_START'] === '1' ? (line: string) => process.stderr.write(`kurel: ${line}\n`) : undefined;
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // None yet: this run makes it.
    }
  }
  setFlagsFromString(CHECKSUM_ON);
  let script: Script;
  try {
    script = new Script(WRAPPER[0] + source + WRAPPER[1], {
      filename: bundle.file,
      ...(cachedData ? { cachedData } : {}),
    });
  } finally {
    setFlagsFromString(CHECKSUM_OFF);
  }
  const used = cachedData !== undefined && !script.cachedDataRejected;
  trace?.(`code cache ${cacheFile ?? 'off'}: ${outcomeOf(cacheFile, cachedData, used)}`);
  let kept = used || cacheFile === undefined;
  const keepCompiledCode = () => {
    if (kept || !cacheFile) return;
    kept = true;
    writeCodeCache(cacheFile, `${bundle.name}-v`, script, trace);
  };
  if (!kept) process.once('exit', keepCompiledCode);
  const module = { exports: {} as Record<string, unknown> };
  const host: BundleHost = { importModule: bundle.importModule, keepCompiledCode };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundle.file), module, bundle.file, dirname(bundle.file), host);
  return module.exports;
}

/**
 * The cache file of a bundle, under kurel's cache folder (`defaultCacheDir` of
 * src/files/cache-dir.ts, which this floor cannot import; without `$HOME` there is none here,
 * rather than load node:os at every start).
 */
export function codeCacheFile(bundle: Pick<BundleToLoad, 'name' | 'digest'>, env: NodeJS.ProcessEnv): string | undefined {
  const file = `${bundle.name}-${process.version}-${process.arch}-${bundle.digest}.bin`;
  if (env['KUREL_CACHE_DIR']) return join(env['KUREL_CACHE_DIR'], 'v8', file);
  if (env['XDG_CACHE_HOME']) return join(env['XDG_CACHE_HOME'], 'kurel', 'v8', file);
  if (env['HOME']) return join(env['HOME'], '.cache', 'kurel', 'v8', file);
  return undefined;
}

function outcomeOf(cacheFile: string | undefined, cachedData: Buffer | undefined, used: boolean): string {
  if (cacheFile === undefined) return 'not used';
  if (used) return 'used';
  return cachedData ? 'refused, compiled anew' : 'none yet, compiled';
}

function writeCodeCache(file: string, prefix: string, script: Script, trace: ((line: string) => void) | undefined): void {
  try {
    setFlagsFromString(CHECKSUM_ON);
    let data: Buffer;
    try {
      data = script.createCachedData();
    } finally {
      setFlagsFromString(CHECKSUM_OFF);
    }
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    // A file of its own, renamed into place: runs sharing the folder never read half a cache.
    const aside = `${file}.${process.pid}.${process.hrtime.bigint()}.tmp`;
    writeFileSync(aside, data);
    renameSync(aside, file);
    removeOtherVersions(dir, basename(file), prefix);
    trace?.(`code cache ${file}: written`);
  } catch (err) {
    trace?.(`code cache ${file}: not written (${(err as Error).message})`);
  }
}

// One file a command: those of another kurel or Node version, and what a run stopped while
// writing left, are removed when a new one is written, so the folder holds one file a command.
// (A run writing meanwhile loses its file and writes again next time.)
function removeOtherVersions(dir: string, kept: string, prefix: string): void {
  for (const entry of readdirSync(dir)) {
    if (entry !== kept && entry.startsWith(prefix) && (entry.endsWith('.bin') || entry.endsWith('.tmp'))) rmSync(join(dir, entry), { force: true });
  }
}
