import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { startServe } from '../helpers/serve.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
}

const dockerfile = instructions(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const stages = dockerfile.reduce<{ op: string; args: string }[][]>((all, step) => {
  if (step.op === 'FROM') all.push([]);
  if (all.length > 0) all.at(-1)!.push(step);
  return all;
}, []);
const runtime = stages.at(-1)!;
const runs = (stage: { op: string; args: string }[]) =>
  stage
    .filter((s) => s.op === 'RUN')
    .map((s) => s.args)
    .join(' && ');

interface PodTemplate {
  spec: { template: { spec: { securityContext: { runAsUser: number; runAsGroup: number }; containers: { ports: { containerPort: number }[] }[] } } };
}
const deployment = parseAllDocuments(readFileSync(join(ROOT, 'deploy', 'deployment.yaml'), 'utf8'))[0]!.toJS() as PodTemplate;

describe('the Dockerfile', () => {
  it('builds in one stage and runs from another, both on Node 22, an LTS line', () => {
    expect(stages.map((stage) => stage[0]!.args)).toEqual(['$' + '{NODE_IMAGE} AS build', '$' + '{NODE_IMAGE} AS runtime']);
    // The base image is pinned by digest, so a rebuild gets the same one.
    expect(dockerfile.filter((s) => s.op === 'ARG').map((s) => s.args)).toEqual([
      expect.stringMatching(/^NODE_IMAGE=node:22-bookworm-slim@sha256:[0-9a-f]{64}$/),
    ]);
  });

  it('packs the package in the build stage and installs it with npm ci --omit=dev in the runtime stage', () => {
    expect(runs(stages[0]!)).toContain('npm pack --ignore-scripts --pack-destination /pack');
    expect(runs(runtime)).toContain('tar -xzf /tmp/kurel.tgz --strip-components=1 -C /opt/kurel');
    expect(runs(runtime)).toContain('npm ci --omit=dev --no-audit --no-fund --ignore-scripts');
    expect(runtime.filter((s) => s.op === 'COPY').map((s) => s.args)).toEqual([
      '--from=build /pack/kurel.tgz /tmp/kurel.tgz',
      '--from=build /src/package-lock.json /tmp/package-lock.json',
    ]);
  });

  it('runs kurel serve as the non-root user the Deployment names, on the port it serves', () => {
    const pod = deployment.spec.template.spec;
    expect(runtime.filter((s) => s.op === 'USER').map((s) => s.args)).toEqual([`${pod.securityContext.runAsUser}:${pod.securityContext.runAsGroup}`]);
    expect(runtime.find((s) => s.op === 'ENTRYPOINT')?.args).toBe('["node", "/opt/kurel/dist/cli.cjs", "serve"]');
    expect(runtime.find((s) => s.op === 'EXPOSE')?.args).toBe(String(pod.containers[0]!.ports[0]!.containerPort));
  });

  it('serves by default on every interface at the port it exposes, so docker run -p 8443:8443 IMAGE answers', () => {
    const exposed = runtime.find((s) => s.op === 'EXPOSE')?.args;
    const command = JSON.parse(runtime.find((s) => s.op === 'CMD')?.args ?? '[]') as string[];
    expect(command).toEqual(['--host', '0.0.0.0', '--port', exposed]);
  });

  it('keeps in the build context every file the build stage needs, and leaves the rest out', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    const matches = (path: string) =>
      ignored.some((pattern) => {
        const regex = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`);
        return regex.test(path);
      });
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'scripts/build.mjs',
      'scripts/shipped-patterns.ts',
      'src/cli/main.ts',
      'handlers',
      'definitions/redis-sidecar.yaml',
      'openapi.yaml',
      'README.md',
    ];
    expect(needed.filter(matches)).toEqual([]);
    expect(['node_modules/yaml', 'dist/cli.cjs', '.git/HEAD', 'test/package.test.ts', 'kurel-0.1.0.tgz'].filter((p) => !matches(p))).toEqual([]);
  });
});

it('installs the packed package as the runtime stage does, and kurel serve starts from it and answers /healthz', { timeout: 240_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'kurel-image-'));
  try {
    // The build stage: dist/ is already built (npm test builds first), so only the pack remains.
    const packed = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const [manifest] = JSON.parse(packed.stdout) as { filename: string }[];
    // The runtime stage, in a folder standing for /opt/kurel.
    const opt = join(work, 'opt-kurel');
    mkdirSync(opt);
    await run('tar', ['-xzf', join(work, manifest!.filename), '--strip-components=1', '-C', opt]);
    copyFileSync(join(ROOT, 'package-lock.json'), join(opt, 'package-lock.json'));
    const ci = ['ci', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts'];
    // Dependencies come from the npm cache when it holds them all.
    await run(NPM, [...ci, '--offline'], { cwd: opt }).catch(() => run(NPM, ci, { cwd: opt }));
    const installed = parse(readFileSync(join(opt, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(installed.dependencies).filter((name) => !existsSync(join(opt, 'node_modules', name)))).toEqual([]);
    // No package only the tests need is installed: the lockfile marks each `dev` (a devDependency that a dependency also needs, such as vscode-jsonrpc, is not).
    const locked = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.keys(installed.devDependencies).filter((name) => locked.packages[`node_modules/${name}`]?.dev === true);
    expect(devOnly.length).toBeGreaterThan(10);
    expect(devOnly.filter((name) => existsSync(join(opt, 'node_modules', name)))).toEqual([]);

    const served = await startServe(['--port', '0'], { cli: join(opt, 'dist', 'cli.cjs'), cwd: work, env: { NODE_ENV: 'production' } });
    try {
      const res = await fetch(`${served.url}/healthz`);
      expect([res.status, await res.json()]).toEqual([200, { status: 'ok' }]);
      // The package's own definitions/ load from where it is installed.
      const capabilities = (await (await fetch(`${served.url}/v1/capabilities`)).json()) as { type: string }[];
      expect(capabilities.map((c) => c.type)).toContain('redis-sidecar');
    } finally {
      expect(await served.stop()).toBe(0);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
