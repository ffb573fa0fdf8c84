import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, runKurel } from '../helpers/cli.js';
import { propertyRuns } from '../helpers/property.js';

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

// A plugin that notes every rendering it judges, so a test can tell a judged file from a cached one.
const countingPlugin = (notes: string) => `import { appendFileSync } from 'node:fs';
export default {
  type: 'counted',
  description: 'notes each rendering it judges',
  capabilityAware: true,
  capabilityRequired: false,
  renderingSchema: { type: 'object', properties: { size: { type: 'integer' } }, additionalProperties: false },
  validateAndApplyDefaults(rendering) {
    appendFileSync(${JSON.stringify(notes)}, String(rendering.size) + '\\n');
    return { rendering: { ...rendering }, issues: [] };
  },
};
`;

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
