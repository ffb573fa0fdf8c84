import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { CLEAN_PROFILE } from '../helpers/profile.js';

// What a run of the built CLI loaded: Node's built-in modules and the CommonJS files it required
// besides its launcher (the lazily loaded packages are CommonJS bundles; the launcher compiles
// kurel's own bundle with node:vm, which Node's module cache does not list).
interface Loaded {
  builtins: string[];
  required: string[];
}

const work = mkdtempSync(join(tmpdir(), 'kurel-start-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PRELOAD = join(work, 'record-loads.cjs');
writeFileSync(
  PRELOAD,
  `process.on('exit', () => require('node:fs').writeFileSync(process.env.KUREL_LOADS_FILE, JSON.stringify({
    builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)),
    required: Object.keys(require.cache).filter((path) => path !== __filename && path !== process.argv[1]),
  })));\n`,
);

function lintLoads(text: string): Promise<Loaded & { code: number }> {
  const profile = join(work, `profile-${Math.random().toString(36).slice(2)}.yaml`);
  const loads = `${profile}.json`;
  writeFileSync(profile, text);
  return new Promise((resolve) => {
    execFile(process.execPath, ['--require', PRELOAD, CLI, 'lint', profile], { env: { ...process.env, KUREL_LOADS_FILE: loads } }, (err) => {
      const code = err ? Number((err as { code?: number }).code) : 0;
      resolve({ code, ...(JSON.parse(readFileSync(loads, 'utf8')) as Loaded) });
    });
  });
}

const CLEAN = CLEAN_PROFILE;

// docs/performance.md: a lint starts within 2x of \`node -e 0\`; what most runs never use is not loaded.
describe('the start of kurel lint (built CLI)', () => {
  it('loads neither yaml, semver, node:crypto nor node:child_process for a clean profile', async () => {
    const run = await lintLoads(CLEAN);
    expect(run.code).toBe(0);
    expect(run.required.map((path) => path.slice(path.lastIndexOf('/') + 1))).toEqual([]);
    expect(run.builtins.filter((name) => ['crypto', 'child_process', 'dgram'].includes(name))).toEqual([]);
  });

  it('positions a diagnostic of a file the fast path read by a scan of its text, loading no yaml', async () => {
    const run = await lintLoads(CLEAN.replace('capabilities:', 'capabilites:'));
    expect(run.code).toBe(1);
    expect(run.required).toEqual([]);
  });

  it('loads the bundled yaml, and only it, for a text outside the fast path (an alias)', async () => {
    const run = await lintLoads(
      CLEAN.replace(
        '    expose: {rendering: {controllerType: ingress, ingressClassName: nginx}}',
        '    expose: &x {rendering: {controllerType: ingress, ingressClassName: nginx}}\n    expose.b: *x',
      ),
    );
    expect(run.code).toBe(0);
    expect(run.required.map((path) => path.slice(path.lastIndexOf('/dist/')))).toEqual(['/dist/chunks/yaml.cjs']);
  });
});
