import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, type CliRun, spawnKurel } from '../helpers/cli.js';
import { CLEAN_PROFILE } from '../helpers/profile.js';

// docs/performance.md, "Warm start": the built CLI runs kurel from its bundle with V8's code cache,
// one file a command under $KUREL_CACHE_DIR/v8, named by the Node version, the architecture and the
// bundle's digest; a damaged or foreign file is refused and written anew; output never changes.

const work = mkdtempSync(join(tmpdir(), 'kurel-warm-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const BUNDLES = fileURLToPath(new URL('../../dist/bundles/', import.meta.url));
const digestOf = (bundle: string) =>
  createHash('sha256')
    .update(readFileSync(join(BUNDLES, `${bundle}.cjs`)))
    .digest('hex')
    .slice(0, 16);
const cacheName = (name: string, bundle = 'kurel') => `${name}-${process.version}-${process.arch}-${digestOf(bundle)}.bin`;

const CLEAN = CLEAN_PROFILE;
const MISTAKES = CLEAN.replace('capabilities:', 'capabilites:').replace('nginx', '7');
const profiles = join(work, 'profiles');
mkdirSync(profiles);
writeFileSync(join(profiles, 'clean.yaml'), CLEAN);
writeFileSync(join(profiles, 'mistakes.yaml'), MISTAKES);
writeFileSync(join(work, '.gitignore'), 'ignored/\n');

let caches = 0;
/** A cache folder of its own. */
const freshCache = () => join(work, `cache-${caches++}`);

/** Runs the built CLI with the code cache traced on standard error; returns the trace apart. */
async function run(args: readonly string[], cacheDir: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun & { trace: string[] }> {
  const result = await spawnKurel(args, { cwd: work, env: { KUREL_CACHE_DIR: cacheDir, KUREL_TRACE_START: '1', ...env } });
  const lines = result.stderr.split('\n');
  return {
    ...result,
    stderr: lines.filter((line) => !line.startsWith('kurel: code cache ')).join('\n'),
    trace: lines.filter((line) => line.startsWith('kurel: code cache ')).map((line) => line.replace(`${cacheDir}/v8/`, '')),
  };
}
const outcome = ({ code, stdout, stderr }: CliRun) => ({ code, stdout, stderr });

describe('the warm start of the built CLI', () => {
  const LINTS = [
    ['lint', 'profiles/clean.yaml'],
    ['lint', 'profiles/mistakes.yaml'],
    ['lint', 'profiles', '--format', 'json'],
    ['lint', 'profiles', '--format', 'sarif'],
    // What a run imports on first use, from a cached start: a plugin, the glob and .gitignore packages.
    ['lint', '--plugin', fileURLToPath(new URL('../fixtures/plugins/costly.mjs', import.meta.url)), 'profiles/clean.yaml'],
    ['lint', 'profiles/*.yaml', '--search-files'],
  ];

  it('compiles and keeps the code on a first run, runs from it on the next, and prints what a run without it prints', async () => {
    for (const args of LINTS) {
      const cacheDir = freshCache();
      const uncached = await run(args, cacheDir, { KUREL_CODE_CACHE: 'off' });
      expect(uncached.trace).toEqual([`kurel: code cache off: not used`]);
      expect(existsSync(join(cacheDir, 'v8'))).toBe(false);
      const first = await run(args, cacheDir);
      expect(first.trace).toEqual([
        `kurel: code cache ${cacheName('kurel-lint')}: none yet, compiled`,
        `kurel: code cache ${cacheName('kurel-lint')}: written`,
      ]);
      const second = await run(args, cacheDir);
      expect(second.trace).toEqual([`kurel: code cache ${cacheName('kurel-lint')}: used`]);
      expect(readdirSync(join(cacheDir, 'v8'))).toEqual([cacheName('kurel-lint')]);
      expect(outcome(first)).toEqual(outcome(uncached));
      expect(outcome(second)).toEqual(outcome(uncached));
    }
  });

  it('refuses a damaged cache file, judges as without it, and writes it anew', async () => {
    const args = ['lint', 'profiles/mistakes.yaml'];
    const cacheDir = freshCache();
    const uncached = await run(args, cacheDir, { KUREL_CODE_CACHE: 'off' });
    await run(args, cacheDir);
    const file = join(cacheDir, 'v8', cacheName('kurel-lint'));
    const good = readFileSync(file);
    const flipped = Buffer.from(good);
    for (let i = Math.floor(flipped.length / 2); i < Math.floor(flipped.length / 2) + 64; i++) flipped[i] = (flipped[i] ?? 0) ^ 0xff;
    for (const damaged of [flipped, good.subarray(0, good.length - 100), Buffer.alloc(0), Buffer.from('not a cache')]) {
      writeFileSync(file, damaged);
      const refused = await run(args, cacheDir);
      expect(refused.trace).toEqual([
        `kurel: code cache ${cacheName('kurel-lint')}: refused, compiled anew`,
        `kurel: code cache ${cacheName('kurel-lint')}: written`,
      ]);
      expect(outcome(refused)).toEqual(outcome(uncached));
      const next = await run(args, cacheDir);
      expect(next.trace).toEqual([`kurel: code cache ${cacheName('kurel-lint')}: used`]);
      expect(outcome(next)).toEqual(outcome(uncached));
    }
  });

  it("keeps one file a command: another kurel's or Node's, and what a stopped write left, go when it is written", async () => {
    const cacheDir = freshCache();
    const v8 = join(cacheDir, 'v8');
    mkdirSync(v8, { recursive: true });
    const foreign = [
      'kurel-lint-v18.0.0-x64-0123456789abcdef.bin',
      `kurel-lint-${process.version}-${process.arch}-0123456789abcdef.bin`,
      'kurel-lint-v20.1.0-x64-ab.bin.17.5.tmp',
    ];
    const others = ['kurel-build-v18.0.0-x64-0123456789abcdef.bin', 'unrelated.txt'];
    for (const name of [...foreign, ...others]) writeFileSync(join(v8, name), 'old');
    const first = await run(['lint', 'profiles/clean.yaml'], cacheDir);
    expect(first.code).toBe(0);
    expect(readdirSync(v8).sort()).toEqual([cacheName('kurel-lint'), ...others].sort());
  });

  it('runs alike when the cache cannot be written', async () => {
    const blocked = join(work, 'a-file');
    writeFileSync(blocked, 'not a folder');
    const args = ['lint', 'profiles/mistakes.yaml', '--format', 'json'];
    const uncached = await run(args, freshCache(), { KUREL_CODE_CACHE: 'off' });
    const unwritable = await run(args, blocked);
    expect(unwritable.trace).toHaveLength(2);
    expect(unwritable.trace[0]).toBe(`kurel: code cache ${cacheName('kurel-lint')}: none yet, compiled`);
    expect(unwritable.trace[1]?.startsWith(`kurel: code cache ${cacheName('kurel-lint')}: not written (`)).toBe(true);
    expect(outcome(unwritable)).toEqual(outcome(uncached));
  });

  it('gives runs started together on an empty cache the output of an uncached run, and leaves one whole file', async () => {
    const args = ['lint', 'profiles', '--format', 'json'];
    const cacheDir = freshCache();
    const uncached = await run(args, cacheDir, { KUREL_CODE_CACHE: 'off' });
    const together = await Promise.all([1, 2, 3, 4].map(() => run(args, cacheDir)));
    for (const r of together) expect(outcome(r)).toEqual(outcome(uncached));
    expect(readdirSync(join(cacheDir, 'v8'))).toEqual([cacheName('kurel-lint')]);
    expect((await run(args, cacheDir)).trace).toEqual([`kurel: code cache ${cacheName('kurel-lint')}: used`]);
  });

  it('keeps a cache for each command, and one for the threads of kurel lint --jobs', async () => {
    const cacheDir = freshCache();
    const help = await spawnKurel(['--help'], { cwd: work });
    const commands = [...help.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1] ?? '').filter((name) => name !== 'help');
    expect(commands).toContain('lint');
    expect(commands).toContain('serve');
    for (const command of commands) {
      const r = await run([command, '--help'], cacheDir);
      expect(r.code).toBe(0);
      expect(r.trace[0]).toBe(`kurel: code cache ${cacheName(`kurel-${command}`, command === 'serve' ? 'kurel-serve' : 'kurel')}: none yet, compiled`);
    }
    // Enough files for a second thread (one takes batches of 200).
    const many = join(work, 'many');
    mkdirSync(many);
    for (let i = 0; i < 450; i++) writeFileSync(join(many, `p${i}.yaml`), CLEAN.replace('name: prod', `name: p${i}`));
    const jobs = await run(['lint', 'many', '--jobs', '2'], cacheDir);
    expect(jobs.code).toBe(0);
    expect(existsSync(join(cacheDir, 'v8', cacheName('lint-worker', 'lint-worker')))).toBe(true);
  });
});

describe('the warm start of kurel serve', () => {
  let child: ChildProcess | undefined;
  afterAll(() => child?.kill('SIGKILL'));

  it('keeps what the supervisor, a serving process and its worker compiled once the service is ready', async () => {
    const cacheDir = freshCache();
    child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--processes', '1', '--workers', '1'], {
      cwd: work,
      env: { ...process.env, KUREL_CACHE_DIR: cacheDir, KUREL_TRACE_START: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const wanted = [
      `kurel: code cache ${cacheDir}/v8/${cacheName('kurel-serve', 'kurel-serve')}: written`,
      `kurel: code cache ${cacheDir}/v8/${cacheName('kurel-serving', 'kurel-serve')}: written`,
    ];
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child?.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (wanted.every((line) => stderr.split('\n').includes(line))) resolve();
      });
      child?.on('exit', () => reject(new Error(`kurel serve exited first:\n${stderr}`)));
    });
    expect(readdirSync(join(cacheDir, 'v8')).sort()).toEqual(
      [cacheName('kurel-serve', 'kurel-serve'), cacheName('kurel-serving', 'kurel-serve'), cacheName('serve-worker', 'serve-worker')].sort(),
    );
  });
});
