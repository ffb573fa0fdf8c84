import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { canonicalJson } from '../core/canonical-json.js';
import { isMap } from '../core/data.js';
import { sha256Digest, sha256Hex } from '../core/sha256.js';
import type { CachedLintResult, LintResultCache } from '../operations/lint-cache.js';

/** The cache file's name when `--cache-location` names a folder, or is not given (in the working directory). */
export const CACHE_FILE_NAME = '.kurelcache';

/** What a folder kurel creates for a cache holds besides it, so that git passes the folder over. */
export const CACHE_FOLDER_GITIGNORE = '# written by kurel: its cache, never committed\n*\n';

// The first line of a cache file: what wrote it, for which run, and the checksum of the rest.
const FORMAT = 2;

/** A file's recorded result: `[file, content, size, mtime, judging, result]` as written in the cache. */
type Entry = [
  /** The file as the run names it. */
  file: string,
  /** Hex SHA-256 of the file's bytes. */
  content: string,
  /** Its size and modification time (milliseconds, with their fraction) when it was read, as decimal strings. */
  size: string,
  mtime: string,
  /** The catalogue it was judged against (`judgingDigest`). */
  judging: string,
  /** The {@link CachedLintResult}, as JSON text: parsed only when it is used. */
  result: string,
];

// Entries are found by judging and file: a run may judge a file twice, against the catalogue
// before and after a definition among its inputs (docs/cli.md, `--jobs`), and finds both next time.
const keyOf = (file: string, judging: string) => `${judging} ${file}`;

/** A file's size and modification time, as compared. */
interface Stamp {
  size: string;
  mtime: string;
}

/** Where `--cache-location` puts the cache: a file, or `.kurelcache` in a folder (one that exists, or a path ending in `/`). */
export function cacheFilePath(location: string | undefined, cwd: string): string {
  if (location === undefined) return join(cwd, CACHE_FILE_NAME);
  const path = resolve(cwd, location);
  if (/[\\/]$/.test(location) || isFolder(path)) return join(path, CACHE_FILE_NAME);
  return path;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** How a cache is opened besides its place and run. */
export interface LintCacheOptions {
  /**
   * Keep at most this many results, those recorded or used last (the language server's cache,
   * docs/editors.md); every one by default (`kurel lint --cache`, one per file of the run).
   */
  maxEntries?: number;
  /**
   * Keep results of at most this many characters in all, those used last; a file larger than
   * twice that is not read. Unbounded by default.
   */
  maxChars?: number;
}

/**
 * `kurel lint --cache` (docs/cli.md): results of earlier runs in one file, kept for the run whose
 * key they were written with (kurel's version, the flags and configuration, the lockfile's bytes:
 * everything but the files and the catalogue, which each result carries). A file written for
 * another run, unreadable or corrupt (its checksum does not match) is started afresh, never
 * trusted. It is written whole, through a temporary file renamed over it, so a run sharing it
 * with another reads one run's file or the other's; when another run wrote it since it was read,
 * the results that run recorded are kept beside this run's own, and at worst a result one of them
 * recorded is judged again. The language server keeps its results in a file of the same form
 * (docs/editors.md).
 */
export class LintCacheFile implements LintResultCache {
  /** The entries by judging and file, those used last at the end. */
  private readonly entries: Map<string, Entry>;
  /** Each file's size and modification time as looked at before it was read this run. */
  private readonly stamps = new Map<string, Stamp | undefined>();
  /** The entries this run recorded or stamped anew: they win over another run's. */
  private readonly touched = new Set<string>();
  /** The judgings each file of this run was looked up or recorded with: its entries of other judgings are let go. */
  private readonly used = new Map<string, Set<string>>();
  private changed = false;

  private constructor(
    readonly path: string,
    private readonly cwd: string,
    private readonly run: string,
    entries: Map<string, Entry> | undefined,
    /** The cache file as it was when read: another run wrote it since when it differs. */
    private seen: FileIdentity | undefined,
    private readonly options: LintCacheOptions,
  ) {
    this.entries = entries ?? new Map();
    // A cache for another run, or none readable, is written afresh.
    this.changed = entries === undefined;
  }

  /** Opens the cache at `path` for the run whose inputs `runKey` holds (any JSON data); files are named relative to `cwd`. */
  static open(path: string, cwd: string, runKey: unknown, options: LintCacheOptions = {}): LintCacheFile {
    const run = sha256Digest(canonicalJson(runKey));
    const seen = identityOf(path);
    return new LintCacheFile(path, cwd, run, readEntries(path, run, options), seen, options);
  }

  lookupUnread(file: string, judging: string): CachedLintResult | undefined {
    const stamp = stampOf(resolve(this.cwd, file));
    this.stamps.set(file, stamp);
    this.use(file, judging);
    const entry = this.entries.get(keyOf(file, judging));
    if (!entry || !stamp || entry[2] !== stamp.size || entry[3] !== stamp.mtime) return undefined;
    return resultOf(entry);
  }

  lookup(file: string, content: Uint8Array | string, judging: string): CachedLintResult | undefined {
    this.use(file, judging);
    const entry = this.entries.get(keyOf(file, judging));
    if (!entry || entry[1] !== sha256Hex(content)) return undefined;
    const result = resultOf(entry);
    // The same bytes with another modification time (a checkout, a touch): found without reading next time.
    const stamp = this.stamps.get(file);
    if (result && stamp) this.set([file, entry[1], stamp.size, stamp.mtime, judging, entry[5]]);
    else if (result && (this.options.maxEntries !== undefined || this.options.maxChars !== undefined)) this.set(entry);
    return result;
  }

  record(file: string, content: Uint8Array | string, judging: string, result: CachedLintResult): void {
    this.use(file, judging);
    // Stamped as looked at before the read: a file changed after that looks changed next time.
    const stamp = this.stamps.get(file);
    this.set([file, sha256Hex(content), stamp?.size ?? '', stamp?.mtime ?? '', judging, JSON.stringify(result)]);
  }

  private use(file: string, judging: string): void {
    const judgings = this.used.get(file);
    if (judgings) judgings.add(judging);
    else this.used.set(file, new Set([judging]));
  }

  // Recorded or used now: last in the file's order, which is the order results are let go in past `maxEntries`.
  private set(entry: Entry): void {
    const key = keyOf(entry[0], entry[4]);
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.touched.add(key);
    this.changed = true;
  }

  /**
   * Writes the cache when the run recorded anything; says why it could not. A folder it makes
   * for the cache gets a `.gitignore` that ignores everything in it.
   */
  save(): { ok: true } | { ok: false; message: string } {
    if (!this.changed) return { ok: true };
    this.takeOthers();
    // A file this run looked at keeps only its results under this run's judgings: one per catalogue the run judged it against.
    for (const [key, [file, , , , judging]] of this.entries) if (this.used.get(file)?.has(judging) === false) this.entries.delete(key);
    const { maxEntries, maxChars } = this.options;
    if (maxEntries !== undefined) for (const key of this.entries.keys()) if (this.entries.size > maxEntries) this.entries.delete(key);
    if (maxChars !== undefined) {
      let chars = 0;
      for (const entry of this.entries.values()) chars += entry[5].length;
      for (const [key, entry] of this.entries) {
        if (chars <= maxChars) break;
        chars -= entry[5].length;
        this.entries.delete(key);
      }
    }
    const body = JSON.stringify([...this.entries.values()]);
    const head = JSON.stringify({ kurelLintCache: FORMAT, run: this.run, checksum: sha256Digest(body) });
    const folder = dirname(this.path);
    const temporary = join(folder, `${CACHE_FILE_NAME}-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
    try {
      if (!existsSync(folder)) makeFolder(folder);
      writeFileSync(temporary, `${head}\n${body}`, { flag: 'wx' });
      renameSync(temporary, this.path);
      this.seen = identityOf(this.path);
      this.touched.clear();
      this.changed = false;
      return { ok: true };
    } catch (err) {
      removeQuietly(temporary);
      return { ok: false, message: `cannot write the lint cache ${this.path}: ${(err as Error).message}` };
    }
  }

  // Another run of the same key wrote the file since it was read: its results are taken, but for those this run recorded.
  private takeOthers(): void {
    const now = identityOf(this.path);
    if (!now || (this.seen && sameIdentity(now, this.seen))) return;
    const others = readEntries(this.path, this.run, this.options);
    if (!others) return;
    for (const [key, entry] of others) if (!this.touched.has(key)) this.entries.set(key, entry);
    this.seen = now;
  }
}

// A temporary file left by a write that failed; one whose folder cannot be reached was never written.
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing was written there.
  }
}

// A folder for the cache, with a .gitignore of its own (one that another run wrote first is kept).
function makeFolder(folder: string): void {
  mkdirSync(folder, { recursive: true });
  try {
    writeFileSync(join(folder, '.gitignore'), CACHE_FOLDER_GITIGNORE, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** What tells one writing of the cache file from another without reading it. */
interface FileIdentity {
  ino: number;
  size: number;
  mtimeMs: number;
}

// Undefined when there is no file to look at, or it cannot be looked at (then it is not read either).
function identityOf(path: string): FileIdentity | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info ? { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

// A regular file's size and modification time; undefined when it is not one or cannot be looked at.
function stampOf(path: string): Stamp | undefined {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info?.isFile()) return undefined;
  return { size: String(info.size), mtime: String(info.mtimeMs) };
}

// An entry's result, or undefined when its text is not one (the cache was written by something else).
function resultOf(entry: Entry): CachedLintResult | undefined {
  try {
    const result: unknown = JSON.parse(entry[5]);
    if (!isMap(result) || !isMap(result.report) || typeof result.report.path !== 'string' || !Array.isArray(result.diagnostics)) return undefined;
    return result as unknown as CachedLintResult;
  } catch {
    return undefined;
  }
}

// The entries of a cache file written for `run`; undefined when there is none, it is for another run, or it is damaged.
function readEntries(path: string, run: string, options: LintCacheOptions): Map<string, Entry> | undefined {
  let text: string;
  try {
    if (options.maxChars !== undefined && statSync(path).size > 2 * options.maxChars + 1024 * 1024) return undefined;
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const newline = text.indexOf('\n');
  if (newline === -1) return undefined;
  try {
    const head: unknown = JSON.parse(text.slice(0, newline));
    const body = text.slice(newline + 1);
    if (!isMap(head) || head.kurelLintCache !== FORMAT || head.run !== run || head.checksum !== sha256Digest(body)) return undefined;
    const entries: unknown = JSON.parse(body);
    if (!Array.isArray(entries)) return undefined;
    const out = new Map<string, Entry>();
    for (const entry of entries) {
      if (!isEntry(entry)) return undefined;
      out.set(keyOf(entry[0], entry[4]), entry);
    }
    return out;
  } catch {
    return undefined;
  }
}

function isEntry(value: unknown): value is Entry {
  return Array.isArray(value) && value.length === 6 && value.every((part) => typeof part === 'string');
}
