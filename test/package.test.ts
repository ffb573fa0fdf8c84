import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { VERSION } from '../src/core/package-version.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command and returns its exit code and output instead of throwing on a non-zero exit. */
async function exec(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

it('packs into a tarball whose installed kurel bin lints a profile', { timeout: 240_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'kurel-pack-'));
  try {
    // dist/ is already built (npm test builds first), so packing skips the prepare script.
    const packed = await exec(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    const [manifest] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const paths = manifest!.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/cli.js', 'dist/index.js', 'definitions/redis-sidecar.yaml']));
    // The README links the manual in docs/, and kurel explain reads docs/codes/: both ship.
    const pages = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f.split(sep).join('/')}`);
    expect(pages.length).toBeGreaterThan(50);
    expect(pages.filter((page) => !paths.includes(page))).toEqual([]);
    expect(paths.filter((p) => /^(src|test|handlers|scripts|bench)\//.test(p))).toEqual([]);

    const app = join(work, 'app');
    const tarball = join(work, manifest!.filename);
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'kurel-install-check', private: true }));
    // Dependencies normally come from the npm cache; without network-free copies, fetch them.
    let installed = await exec(NPM, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
    if (installed.code !== 0) installed = await exec(NPM, ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
    expect(installed.code, installed.stderr).toBe(0);

    const bin = join(app, 'node_modules', '.bin', 'kurel');
    writeFileSync(
      join(app, 'cluster.yaml'),
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: edge\nspec:\n  capabilities:\n    expose:\n      rendering: {controllerType: gateway, gatewayName: edge}\n',
    );
    writeFileSync(
      join(app, 'broken.yaml'),
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: edge\nspec:\n  capabilites: {}\n',
    );

    const version = await exec(bin, ['--version'], app);
    const good = await exec(bin, ['lint', 'cluster.yaml', '--format', 'json'], app);
    const bad = await exec(bin, ['lint', 'broken.yaml'], app);
    expect({ version: version.stdout.trim(), good: good.code, bad: bad.code }).toEqual({ version: VERSION, good: 0, bad: 1 });
    expect(JSON.parse(good.stdout)).toEqual({
      valid: true,
      diagnostics: [],
      files: [
        {
          path: 'cluster.yaml',
          kind: 'ClusterProfile',
          status: 'checked',
          resolved: {
            gitopsEngine: 'fluxcd',
            capabilities: { expose: { controllerType: 'gateway', gatewayName: 'edge', gatewayNamespace: 'gateway-system' } },
            versions: {},
          },
        },
      ],
    });
    expect(bad.stdout.split('\n')[0]).toBe(
      'broken.yaml:6:3 error unknown-field unknown field "capabilites" in spec (allowed: gitopsEngine, platform, capabilities)',
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
