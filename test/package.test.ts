import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    const repositoryManifest = readFileSync(join(ROOT, 'package.json'), 'utf8');
    // As pre-commit packs it (docs/editors.md): the tarball's name alone on standard output, which
    // pre-commit reads; the prepack script's build (skipped, dist/ being current) shows nowhere.
    const packed = await exec(NPM, ['pack', '--pack-destination', work], ROOT);
    expect({ code: packed.code, stdout: packed.stdout }, packed.stderr).toEqual({ code: 0, stdout: `kurel-${VERSION}.tgz\n` });
    const manifest = { filename: packed.stdout.trim() };
    const tarball = join(work, manifest.filename);
    const paths = (await exec('tar', ['-tzf', tarball], work)).stdout
      .split('\n')
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, ''));
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/cli.cjs', 'dist/index.js', 'definitions/redis-sidecar.yaml']));
    // The packed package.json keeps the scripts a consumer may run, and the repository's is back as it was.
    const shipped = JSON.parse((await exec('tar', ['-xzOf', tarball, 'package/package.json'], work)).stdout) as { scripts: Record<string, string> };
    expect(shipped.scripts).toEqual({ start: 'node dist/cli.cjs serve' });
    expect(readFileSync(join(ROOT, 'package.json'), 'utf8')).toBe(repositoryManifest);
    expect(existsSync(join(ROOT, 'package.json.repository'))).toBe(false);
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
    // The README links the manual in docs/, and kurel explain reads docs/codes/: both ship.
    const pages = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f.split(sep).join('/')}`);
    expect(pages.length).toBeGreaterThan(50);
    expect(pages.filter((page) => !paths.includes(page))).toEqual([]);
    expect(paths.filter((p) => /^(src|test|handlers|scripts|bench)\//.test(p))).toEqual([]);

    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'kurel-install-check', private: true }));
    // Dependencies normally come from the npm cache; without network-free copies, fetch them.
    let installed = await exec(NPM, ['install', '--offline', '--no-audit', '--no-fund', tarball], app);
    if (installed.code !== 0) installed = await exec(NPM, ['install', '--no-audit', '--no-fund', tarball], app);
    expect(installed.code, installed.stderr).toBe(0);
    // kurel asks a consumer to run nothing on install (npm would list an install script to approve).
    expect(installed.stderr).not.toContain('kurel@');

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
