import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf, runKurel } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Type-checks files with the `tsc` binary (strict); resolves with its exit code and output. */
function typeCheck(cwd: string, files: readonly string[]): Promise<{ code: number; output: string }> {
  const args = [
    TSC,
    '--noEmit',
    '--strict',
    '--exactOptionalPropertyTypes',
    '--target',
    'es2022',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--types',
    '',
    ...files,
  ];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd }, (err, stdout, stderr) => {
      const code = exitCodeOf(err);
      resolve({ code, output: stdout + stderr });
    });
  });
}

// Uses the declarations as a platform team would: a typed profile, renderings of each kind.
const SAMPLE = `import type { ClusterProfile, ExposeRendering, CertificateRendering, RedisSidecarRendering } from './kurel-types.js';

const ingress: ExposeRendering = { controllerType: 'ingress', ingressClassName: 'nginx', sslRedirect: true };
const gateway: ExposeRendering = { controllerType: 'gateway', gatewayName: 'public-gw', gatewayNamespace: null };
const certificate: CertificateRendering = { issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' } };
const redis: RedisSidecarRendering = { image: 'redis:7-alpine', maxMemory: '512Mi' };

export const profile: ClusterProfile = {
  apiVersion: 'launcher.gokure.dev/v1alpha1',
  kind: 'ClusterProfile',
  metadata: { name: 'prod-eu-west' },
  spec: {
    gitopsEngine: 'fluxcd',
    capabilities: {
      expose: { rendering: ingress },
      'expose.internal': { rendering: gateway },
      certificate: { rendering: certificate },
      configmap: null,
      'redis-sidecar': { rendering: redis },
    },
  },
};

export function controllerOf(rendering: ExposeRendering): string {
  // The discriminated union narrows on controllerType.
  return rendering.controllerType === 'ingress' ? rendering.ingressClassName : rendering.gatewayName;
}
`;

// Each line breaks one rule the schemas state; every one must be reported.
const MISUSE_LINES = [
  `const a: ExposeRendering = { controllerType: 'gateway', ingressClassName: 'nginx' };`,
  `const b: ExposeRendering = { controllerType: 'ingress' };`,
  `const c: ExposeRendering = { controllerType: 'traefik', ingressClassName: 'nginx' };`,
  `const d: CertificateRendering = { issuerRef: { kind: 'Issuer' } };`,
  `const e: ClusterProfile = { apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfil', metadata: { name: 'x' } };`,
  `const f: ClusterProfile = { apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfile', metadata: { name: 'x' }, spec: { gitopsEngine: 'argocd' } };`,
  `const g: RedisSidecarRendering = { image: 7 };`,
  `const h: ClusterProfile = { apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfile', metadata: { name: 'x', labels: {} } };`,
];
const MISUSE = [
  `import type { ClusterProfile, ExposeRendering, CertificateRendering, RedisSidecarRendering } from './kurel-types.js';`,
  ...MISUSE_LINES,
  `export { a, b, c, d, e, f, g, h };`,
].join('\n');

let dir: string;
let declarations: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-types-'));
  const run = await runKurel(['types', '--out', join(dir, 'kurel-types.ts'), '--definitions', join(ROOT, 'definitions')]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  declarations = readFileSync(join(dir, 'kurel-types.ts'), 'utf8');
  writeFileSync(join(dir, 'sample.ts'), SAMPLE);
  writeFileSync(join(dir, 'misuse.ts'), MISUSE);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kurel types', () => {
  it('declares the profile and the rendering of every built-in and loaded definition', () => {
    for (const name of [
      'ClusterProfile',
      'ExposeRendering',
      'CertificateRendering',
      'ExternalSecretRendering',
      'PvcRendering',
      'VolsyncRendering',
      'ConfigmapRendering',
      'IngressRendering',
      'RedisSidecarRendering',
    ]) {
      expect(declarations).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'));
    }
  });

  it('writes declarations that compile, with a sample using them, under strict tsc', async () => {
    const result = await typeCheck(dir, ['kurel-types.ts', 'sample.ts']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it('makes tsc reject every misuse of the declared types, each on its own line', async () => {
    const result = await typeCheck(dir, ['misuse.ts']);
    expect(result.code).not.toBe(0);
    const reportedLines = new Set([...result.output.matchAll(/^misuse\.ts\((\d+),\d+\): error TS\d+/gm)].map((m) => Number(m[1])));
    expect([...reportedLines].sort((x, y) => x - y)).toEqual(MISUSE_LINES.map((_, i) => i + 2));
  });

  it('prints the same declarations on standard output without --out', async () => {
    const run = await runKurel(['types', '--definitions', join(ROOT, 'definitions')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(declarations);
  });

  it('exits 2 naming the file when --out cannot be written', async () => {
    const run = await runKurel(['types', '--out', join(dir, 'no-such-dir', 'types.ts')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`error: cannot write ${join(dir, 'no-such-dir', 'types.ts')}: the folder ${join(dir, 'no-such-dir')} does not exist\n`);
  });
});
