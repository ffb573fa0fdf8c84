import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LintCacheFile } from '../../src/sources/lint-cache-file.js';
import { type CliRun, runKurel } from '../helpers/cli.js';
import { propertyRuns } from '../helpers/property.js';
import { countingPlugin } from '../lsp/repository-fixture.js';

// docs/cli.md, `--cache`: a run with the cache prints exactly what a run without it prints, and
// judges again only the files that changed since (or whose judging changed).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFORMANCE = join(ROOT, 'test', 'conformance', 'cases');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-lint-cache-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const lint = (args: readonly string[], cwd = dir): Promise<CliRun> => runKurel(['lint', ...args], { cwd });
const same = (run: CliRun) => ({ code: run.code, stdout: run.stdout, stderr: run.stderr });

function profile(name: string, body: string): string {
  return `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: ${name}\nspec:\n  capabilities:\n${body}`;
}

describe('kurel lint --cache on every corpus', () => {
  const cases = readdirSync(CONFORMANCE).filter((name) => statSync(join(CONFORMANCE, name)).isDirectory());

  it.each(['text', 'json', 'sarif'])('prints what an uncached run prints, cold and warm, for every conformance case (%s)', async (format) => {
    cpSync(CONFORMANCE, join(dir, 'cases'), { recursive: true });
    for (const name of cases) {
      const where = join(dir, 'cases', name);
      const definitions = existsSync(join(where, 'definitions')) ? ['--definitions', 'definitions'] : [];
      const args = ['.', ...definitions, '--format', format, '--no-config'];
      const uncached = await lint(args, where);
      const cold = await lint([...args, '--cache'], where);
      const warm = await lint([...args, '--cache'], where);
      expect(same(cold), name).toEqual(same(uncached));
      expect(same(warm), name).toEqual(same(uncached));
    }
  });

  it('prints what an uncached run prints for the repository profiles, the versioned fixtures and the shared fixtures', async () => {
    for (const [source, args] of [
      ['profiles', ['.']],
      ['test/fixtures/versioned', ['clusters', '--definitions', 'definitions']],
      ['test/fixtures/profiles', ['.']],
    ] as const) {
      const where = join(dir, source.replaceAll('/', '-'));
      cpSync(join(ROOT, source), where, { recursive: true });
      for (const format of ['text', 'json']) {
        const run = [...args, '--format', format, '--no-config'];
        const uncached = await lint(run, where);
        expect(same(await lint([...run, '--cache'], where)), source).toEqual(same(uncached));
        expect(same(await lint([...run, '--cache'], where)), source).toEqual(same(uncached));
      }
    }
  });
});

describe('what a cached run judges again', () => {
  beforeEach(() => {
    writeFileSync(join(dir, 'counted.mjs'), countingPlugin(join(dir, 'counted.txt')));
    for (const n of [1, 2, 3]) writeFileSync(join(dir, `c${n}.yaml`), profile(`c${n}`, `    counted:\n      rendering: {size: ${n}}\n`));
  });
  const counted = () => (existsSync(join(dir, 'counted.txt')) ? readFileSync(join(dir, 'counted.txt'), 'utf8').split('\n').filter(Boolean).sort() : []);
  const run = (extra: string[] = []) => runKurel(['lint', '.', '--plugin', './counted.mjs', '--cache', '--no-config', ...extra], { cwd: dir });

  it('judges every file on the first run, none on the second, and only a changed file after an edit', async () => {
    const first = await run();
    expect(first.code).toBe(0);
    expect(counted()).toEqual(['1', '2', '3']);
    rmSync(join(dir, 'counted.txt'));
    expect(same(await run())).toEqual(same(first));
    expect(counted()).toEqual([]);
    writeFileSync(join(dir, 'c2.yaml'), profile('c2', '    counted:\n      rendering: {size: 20}\n'));
    await run();
    expect(counted()).toEqual(['20']);
  });

  it('judges nothing again when a definition comes among the files after the profiles it judges', async () => {
    // The profiles before a definition are judged without it, then again with it: both results are kept.
    writeFileSync(
      join(dir, 'd.yaml'),
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: tls-mode\nspec:\n  rendering:\n    properties:\n      mode: {type: string}\n',
    );
    writeFileSync(join(dir, 'c3.yaml'), profile('c3', '    counted:\n      rendering: {size: 3}\n    tls-mode:\n      rendering: {mode: 1}\n'));
    const uncached = await runKurel(['lint', '.', '--plugin', './counted.mjs', '--no-config'], { cwd: dir });
    expect(uncached.code).toBe(1);
    expect(uncached.stdout).toContain('c3.yaml:10:25 error wrong-type capability "tls-mode": mode must be a string, found integer 1\n');
    expect(same(await run())).toEqual(same(uncached));
    rmSync(join(dir, 'counted.txt'));
    expect(same(await run())).toEqual(same(uncached));
    expect(counted()).toEqual([]);
    writeFileSync(join(dir, 'c2.yaml'), profile('c2', '    counted:\n      rendering: {size: 20}\n'));
    await run();
    expect(new Set(counted())).toEqual(new Set(['20']));
    rmSync(join(dir, 'counted.txt'));
    await run();
    expect(counted()).toEqual([]);
  });

  it('reads a file whose time changed but not its bytes, and judges it no more', async () => {
    await run();
    rmSync(join(dir, 'counted.txt'));
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'c1.yaml'), later, later);
    expect((await run()).code).toBe(0);
    expect(counted()).toEqual([]);
  });

  it('judges every file again when a flag, the configuration or kurel lint options that judge change', async () => {
    await run();
    rmSync(join(dir, 'counted.txt'));
    await run(['--platform', 'kubernetes=1.30']);
    expect(counted()).toEqual(['1', '2', '3']);
    rmSync(join(dir, 'counted.txt'));
    // Options that only print (the format, colour, quiet) share the cache.
    await run(['--platform', 'kubernetes=1.30', '--quiet', '--format', 'github']);
    expect(counted()).toEqual([]);
  });

  it('judges every profile again when a definition changes, and reports what the new definition says', async () => {
    const definition = (type: string) =>
      `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: tls-mode\nspec:\n  rendering:\n    properties:\n      mode: {type: ${type}}\n`;
    writeFileSync(join(dir, 'def.yaml'), definition('string'));
    writeFileSync(join(dir, 'c1.yaml'), profile('c1', '    tls-mode:\n      rendering: {mode: strict}\n'));
    const args = ['c1.yaml', '--capability-def', 'def.yaml', '--cache', '--no-config', '--format', 'json'];
    expect((await lint(args)).code).toBe(0);
    writeFileSync(join(dir, 'def.yaml'), definition('integer'));
    const changed = await lint(args);
    expect(same(changed)).toEqual(same(await lint(args.filter((a) => a !== '--cache'))));
    expect(changed.code).toBe(1);
    expect(JSON.parse(changed.stdout).diagnostics.map((d: { code: string; path: string }) => [d.code, d.path])).toEqual([
      ['wrong-type', '/spec/capabilities/tls-mode/rendering/mode'],
    ]);
  });

  it('rebuilds a damaged cache instead of trusting it', async () => {
    const first = await run();
    const cache = join(dir, '.kurelcache');
    const text = readFileSync(cache, 'utf8');
    // One result changed by hand: the checksum no longer matches, so nothing of the file is used.
    writeFileSync(cache, text.replace('\\"diagnostics\\":[]', '\\"diagnostics\\":[{}]'));
    rmSync(join(dir, 'counted.txt'));
    expect(same(await run())).toEqual(same(first));
    expect(counted()).toEqual(['1', '2', '3']);
    for (const damaged of ['', 'not json\n{}', '{"kurelLintCache":1}\n[]']) {
      writeFileSync(cache, damaged);
      expect(same(await run())).toEqual(same(first));
    }
    // Each run wrote a good cache again: the next judges nothing.
    rmSync(join(dir, 'counted.txt'));
    await run();
    expect(counted()).toEqual([]);
  });

  it('keeps the cache where --cache-location says: a file, or .kurelcache in a folder', async () => {
    await run(['--cache-location', 'here.cache']);
    expect(existsSync(join(dir, 'here.cache'))).toBe(true);
    mkdirSync(join(dir, 'sub'));
    await run(['--cache-location', 'sub']);
    expect(existsSync(join(dir, 'sub', '.kurelcache'))).toBe(true);
    expect(existsSync(join(dir, '.kurelcache'))).toBe(false);
  });

  it('makes the folder --cache-location names, with a .gitignore that keeps it out of git', async () => {
    const first = await run(['--cache-location', '.kurel-cache/']);
    expect(first.code).toBe(0);
    expect(readdirSync(join(dir, '.kurel-cache')).sort()).toEqual(['.gitignore', '.kurelcache']);
    expect(readFileSync(join(dir, '.kurel-cache', '.gitignore'), 'utf8')).toBe('# written by kurel: its cache, never committed\n*\n');
    expect(existsSync(join(dir, '.kurelcache'))).toBe(false);
    rmSync(join(dir, 'counted.txt'));
    expect(same(await run(['--cache-location', '.kurel-cache/']))).toEqual(same(first));
    expect(counted()).toEqual([]);
    // A folder that is there already is the user's: nothing but the cache is written in it.
    mkdirSync(join(dir, 'mine'));
    await run(['--cache-location', 'mine/']);
    expect(readdirSync(join(dir, 'mine'))).toEqual(['.kurelcache']);
  });

  it('prints what an uncached run prints, and says why, when the cache cannot be written', async () => {
    writeFileSync(join(dir, 'plain'), 'a file, not a folder\n');
    const uncached = await runKurel(['lint', '.', '--plugin', './counted.mjs', '--no-config'], { cwd: dir });
    const failed = await run(['--cache-location', 'plain/kurel.cache']);
    expect({ code: failed.code, stdout: failed.stdout }).toEqual({ code: uncached.code, stdout: uncached.stdout });
    expect(failed.stderr).toMatch(/^kurel: cannot write the lint cache .*plain\/kurel\.cache: ENOTDIR/);
  });

  it('keeps what another run sharing the cache recorded since it was read, and its own', () => {
    const cache = join(dir, 'shared.cache');
    const result = (path: string) => ({ report: { path, kind: 'ClusterProfile', status: 'checked' as const }, diagnostics: [] });
    const one = LintCacheFile.open(cache, dir, { run: 1 });
    const two = LintCacheFile.open(cache, dir, { run: 1 });
    one.record('a.yaml', 'a', 'judging', result('a.yaml'));
    one.record('x.yaml', 'x', 'judging', result('x.yaml'));
    expect(one.save()).toEqual({ ok: true });
    two.record('b.yaml', 'b', 'judging', result('b.yaml'));
    // The other run's result for a file this run judged too is replaced by this run's.
    two.record('a.yaml', 'a2', 'judging', result('a.yaml'));
    expect(two.save()).toEqual({ ok: true });
    const three = LintCacheFile.open(cache, dir, { run: 1 });
    expect(three.lookup('x.yaml', 'x', 'judging')).toEqual(result('x.yaml'));
    expect(three.lookup('b.yaml', 'b', 'judging')).toEqual(result('b.yaml'));
    expect(three.lookup('a.yaml', 'a2', 'judging')).toEqual(result('a.yaml'));
    expect(three.lookup('a.yaml', 'a', 'judging')).toBeUndefined();
    // A run of other flags starts the file afresh: nothing of the others is taken.
    const other = LintCacheFile.open(cache, dir, { run: 2 });
    one.record('c.yaml', 'c', 'judging', result('c.yaml'));
    expect(one.save()).toEqual({ ok: true });
    other.record('d.yaml', 'd', 'judging', result('d.yaml'));
    expect(other.save()).toEqual({ ok: true });
    expect(LintCacheFile.open(cache, dir, { run: 1 }).lookup('c.yaml', 'c', 'judging')).toBeUndefined();
    expect(LintCacheFile.open(cache, dir, { run: 2 }).lookup('d.yaml', 'd', 'judging')).toEqual(result('d.yaml'));
  });

  it('keeps at most the results asked for, those used last', () => {
    const cache = join(dir, 'small.cache');
    const result = (path: string) => ({ report: { path, kind: 'ClusterProfile', status: 'checked' as const }, diagnostics: [] });
    const first = LintCacheFile.open(cache, dir, { run: 1 }, { maxEntries: 2 });
    for (const name of ['a', 'b']) first.record(`${name}.yaml`, name, 'judging', result(`${name}.yaml`));
    // a is used again: c pushes b out.
    expect(first.lookup('a.yaml', 'a', 'judging')).toEqual(result('a.yaml'));
    first.record('c.yaml', 'c', 'judging', result('c.yaml'));
    expect(first.save()).toEqual({ ok: true });
    const next = LintCacheFile.open(cache, dir, { run: 1 }, { maxEntries: 2 });
    expect(['a', 'b', 'c'].map((name) => next.lookup(`${name}.yaml`, name, 'judging') !== undefined)).toEqual([true, false, true]);
  });

  it('keeps results of at most the size asked for, those used last, and does not read a file far larger', () => {
    const cache = join(dir, 'sized.cache');
    const result = (path: string, size: number) => ({
      report: { path, kind: 'ClusterProfile', status: 'checked' as const },
      diagnostics: [
        {
          file: path,
          line: 1,
          column: 1,
          endLine: 1,
          endColumn: 2,
          severity: 'warning' as const,
          code: 'unknown-field' as const,
          path: '',
          message: 'x'.repeat(size),
        },
      ],
    });
    const first = LintCacheFile.open(cache, dir, { run: 1 }, { maxChars: 3_000 });
    for (const name of ['a', 'b', 'c']) first.record(`${name}.yaml`, name, 'judging', result(`${name}.yaml`, 1_000));
    expect(first.save()).toEqual({ ok: true });
    const next = LintCacheFile.open(cache, dir, { run: 1 }, { maxChars: 3_000 });
    expect(['a', 'b', 'c'].map((name) => next.lookup(`${name}.yaml`, name, 'judging') !== undefined)).toEqual([false, true, true]);
    // Written without a bound, 2 MiB: a reader bound to 3,000 characters starts afresh without reading it.
    const big = LintCacheFile.open(cache, dir, { run: 1 });
    big.record('big.yaml', 'big', 'judging', result('big.yaml', 2 * 1024 * 1024));
    expect(big.save()).toEqual({ ok: true });
    expect(LintCacheFile.open(cache, dir, { run: 1 }).lookup('big.yaml', 'big', 'judging')).toBeDefined();
    expect(LintCacheFile.open(cache, dir, { run: 1 }, { maxChars: 3_000 }).lookup('big.yaml', 'big', 'judging')).toBeUndefined();
  });

  it('gives two runs sharing a cache the answers of an uncached run', async () => {
    const uncached = await runKurel(['lint', '.', '--plugin', './counted.mjs', '--no-config'], { cwd: dir });
    const runs = await Promise.all([run(), run(), run()]);
    for (const r of runs) expect(same(r)).toEqual(same(uncached));
    expect(same(await run())).toEqual(same(uncached));
  });
});

describe('kurel lint --cache over generated edits', () => {
  // Each step rewrites one of three profiles with a rendering that may be right or wrong; the
  // cached run after each step prints what an uncached run prints.
  const rendering = fc.oneof(
    fc.constant('controllerType: ingress, ingressClassName: nginx'),
    fc.constant('controllerType: ingress'),
    fc.constant('controllerType: gateway, gatewayName: gw'),
    fc.constant('controllerType: gateway, ingressClassName: nginx'),
    fc.constant('controllerType: ingres'),
    fc.string({ unit: fc.constantFrom('a', ' ', ':', '{', '}', ','), maxLength: 12 }).map((s) => `controllerType: ingress, x${s}`),
  );
  it('matches an uncached run after every edit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), rendering, fc.boolean()), { minLength: 1, maxLength: 6 }), async (edits) => {
        const where = mkdtempSync(join(dir, 'p-'));
        for (const n of [0, 1, 2])
          writeFileSync(join(where, `c${n}.yaml`), profile(`c${n}`, '    expose:\n      rendering: {controllerType: ingress, ingressClassName: nginx}\n'));
        for (const [n, body, keepTime] of edits) {
          const file = join(where, `c${n}.yaml`);
          const before = statSync(file);
          writeFileSync(file, profile(`c${n}`, `    expose:\n      rendering: {${body}}\n`));
          // An edit that keeps the time but not the size is still seen (one that keeps both is not: docs/cli.md).
          if (keepTime && statSync(file).size !== before.size) utimesSync(file, before.atime, before.mtime);
          const uncached = await lint(['.', '--no-config', '--format', 'json'], where);
          const cached = await lint(['.', '--no-config', '--format', 'json', '--cache'], where);
          expect(same(cached)).toEqual(same(uncached));
        }
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});
