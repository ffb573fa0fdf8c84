import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel, spawnKurel } from '../helpers/cli.js';
import { makePair } from '../helpers/tls.js';
import { type RunningRegistry, SKOPEO_TOOL, skipRegistryTests, startRegistry } from './registry.js';

const skip = skipRegistryTests();
const DEFINITIONS = new URL('../../definitions/', import.meta.url);
const DIGEST = /^oci:\/\/127\.0\.0\.1:\d+\/[a-z/]+@sha256:[a-f0-9]{64}\n$/;

/** A copy of the shipped definitions in a folder of its own, every file given `mtime`. */
function copyDefinitions(root: string, mtime: Date): string {
  const dir = mkdtempSync(join(root, 'defs-'));
  cpSync(DEFINITIONS, dir, { recursive: true });
  for (const name of readdirSync(dir)) utimesSync(join(dir, name), mtime, mtime);
  return dir;
}

describe.skipIf(skip)('kurel push and kurel pull against docker-registry', () => {
  let registry: RunningRegistry;
  let work: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    registry = await startRegistry();
    work = mkdtempSync(join(tmpdir(), 'kurel-push-'));
    env = { KUREL_CACHE_DIR: join(work, 'cache'), HOME: join(work, 'home'), DOCKER_CONFIG: join(work, 'docker') };
  });
  afterAll(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('gives the same digest for the same files pushed from two copies with other mtimes, and pushes nothing the second time', async () => {
    const first = copyDefinitions(work, new Date('2020-01-01T00:00:00Z'));
    const second = copyDefinitions(work, new Date('2024-06-30T12:34:56Z'));
    const ref = `oci://${registry.host}/acme/defs:1.0.0`;
    const pushed = await runKurel(['push', first, ref], { cwd: work, env });
    expect(pushed.stderr).toBe('');
    expect(pushed).toMatchObject({ code: 0, stdout: expect.stringMatching(DIGEST) });
    const again = await runKurel(['push', second, ref], { cwd: work, env });
    expect(again).toEqual({ code: 0, stdout: pushed.stdout, stderr: `${ref} already holds exactly this content: nothing pushed\n` });
    const json = await runKurel(['push', second, ref, '--format', 'json'], { cwd: work, env });
    const digest = pushed.stdout.trim().split('@')[1];
    expect({ code: json.code, envelope: JSON.parse(json.stdout) }).toEqual({
      code: 0,
      envelope: { valid: true, diagnostics: [], reference: pushed.stdout.trim(), digest, unchanged: true },
    });
  });

  it('refuses other content under a version already pushed: version-immutable, exit 1', async () => {
    const dir = copyDefinitions(work, new Date(0));
    const ref = `oci://${registry.host}/acme/immutable:2.0.0`;
    expect((await runKurel(['push', dir, ref], { cwd: work, env })).code).toBe(0);
    writeFileSync(join(dir, 'redis-sidecar.yaml'), `${readFileSync(join(dir, 'redis-sidecar.yaml'), 'utf8')}# changed\n`);
    const run = await runKurel(['push', dir, ref], { cwd: work, env });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^${ref.replace(/[.:/]/g, '\\$&')}: error version-immutable ${ref.replace(/[.:/]/g, '\\$&')}: the tag 2\\.0\\.0 already names sha256:[a-f0-9]{64}, other content`,
      ),
    );
  });

  it('refuses a version that is not SemVer, and definitions with errors, pushing nothing', async () => {
    const dir = copyDefinitions(work, new Date(0));
    const latest = await runKurel(['push', dir, `oci://${registry.host}/acme/refused:latest`], { cwd: work, env });
    expect(latest.code).toBe(2);
    expect(latest.stdout).toContain('error usage kurel push needs a SemVer version as the tag, such as :1.2.0; found latest');
    writeFileSync(
      join(dir, 'broken.yaml'),
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: broken}\nspec: {bogus: 1}\n',
    );
    const broken = await runKurel(['push', dir, `oci://${registry.host}/acme/refused:1.0.0`], { cwd: work, env });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/broken\.yaml:4:8 error unknown-field/);
    const tags = await fetch(`http://${registry.host}/v2/acme/refused/tags/list`);
    expect(tags.status).toBe(404);
  });

  it('pulls a range as Helm resolves it, and what skopeo copied to another repository', async () => {
    const dir = copyDefinitions(work, new Date(0));
    for (const version of ['1.1.0', '1.2.0', '1.3.0-rc.1', 'v1.2.5']) {
      writeFileSync(join(dir, 'version.yaml'), `# ${version}\n`);
      expect((await runKurel(['push', dir, `oci://${registry.host}/acme/ranged:${version}`], { cwd: work, env })).code).toBe(0);
    }
    const pulled = await runKurel(['pull', `oci://${registry.host}/acme/ranged:^1.1`, '--output', 'out', '--format', 'json'], { cwd: work, env });
    expect(pulled.code).toBe(0);
    expect(JSON.parse(pulled.stdout)).toMatchObject({ valid: true, tag: 'v1.2.5', output: 'out' });
    expect(readFileSync(join(work, 'out', 'version.yaml'), 'utf8')).toBe('# v1.2.5\n');
    const pre = await runKurel(['pull', `oci://${registry.host}/acme/ranged:^1.3.0-0`, '--output', 'pre', '--format', 'json'], { cwd: work, env });
    expect(JSON.parse(pre.stdout)).toMatchObject({ valid: true, tag: '1.3.0-rc.1' });
    const copied = spawnSync(
      SKOPEO_TOOL.command,
      [
        'copy',
        '--src-tls-verify=false',
        '--dest-tls-verify=false',
        `docker://${registry.host}/acme/ranged:1.2.0`,
        `docker://${registry.host}/mirror/defs:1.2.0`,
      ],
      { encoding: 'utf8' },
    );
    expect(copied.status, copied.stderr).toBe(0);
    const mirrored = await runKurel(['pull', `oci://${registry.host}/mirror/defs`, '--output', 'mirror'], {
      cwd: work,
      env: { ...env, KUREL_CACHE_DIR: join(work, 'cache2') },
    });
    expect(mirrored).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^wrote 6 files to mirror from oci:\/\/127\.0\.0\.1:\d+\/mirror\/defs@sha256:[a-f0-9]{64}\n$/),
    });
    expect(readFileSync(join(work, 'mirror', 'version.yaml'), 'utf8')).toBe('# 1.2.0\n');
  });

  it('lists the capabilities of an oci:// --definitions entry, each named by the source and its digest', async () => {
    expect((await runKurel(['push', copyDefinitions(work, new Date(0)), `oci://${registry.host}/acme/listed:1.0.0`], { cwd: work, env })).code).toBe(0);
    const run = await runKurel(['capabilities', '--no-config', '--definitions', `oci://${registry.host}/acme/listed:1.0.0`, '--format', 'json'], {
      cwd: work,
      env,
    });
    expect(run.code, run.stdout).toBe(0);
    const redis = (JSON.parse(run.stdout) as { type: string; source: string }[]).find((c) => c.type === 'redis-sidecar');
    expect(redis?.source).toMatch(new RegExp(`^oci://${registry.host.replace(/\./g, '\\.')}/acme/listed@sha256:[a-f0-9]{64}#redis-sidecar\\.yaml$`));
  });

  it('pulls offline from the cache, and names the reference when it is not cached', async () => {
    const cached = await runKurel(['pull', `oci://${registry.host}/acme/defs:1.0.0`, '--offline', '--output', 'offline'], { cwd: work, env });
    expect(cached.code).toBe(0);
    const missing = await runKurel(['pull', `oci://${registry.host}/acme/never:1.0.0`, '--offline'], { cwd: work, env });
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stdout).toContain(
      `error registry-unreachable oci://${registry.host}/acme/never:1.0.0: not in the cache, and --offline forbids fetching it from ${registry.host}`,
    );
  });
});

describe.skipIf(skip)('a registry over TLS from a test CA, and one with Basic authentication', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'kurel-tls-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('pushes and pulls over HTTPS with the CA in NODE_EXTRA_CA_CERTS, and refuses the registry without it', async () => {
    const pair = await makePair('kurel-registry-test');
    const registry = await startRegistry({ tls: pair });
    try {
      writeFileSync(join(work, 'ca.pem'), pair.cert);
      const env = { KUREL_CACHE_DIR: join(work, 'cache'), HOME: work, NODE_EXTRA_CA_CERTS: join(work, 'ca.pem') };
      const ref = `oci://${registry.host}/secure/defs:1.0.0`;
      const pushed = await spawnKurel(['push', DEFINITIONS.pathname, ref], { cwd: work, env });
      expect(pushed).toMatchObject({ code: 0, stdout: expect.stringMatching(DIGEST) });
      const pulled = await spawnKurel(['pull', ref, '--output', 'secure'], { cwd: work, env: { ...env, KUREL_CACHE_DIR: join(work, 'other-cache') } });
      expect(pulled.code, pulled.stdout).toBe(0);
      const untrusted = await spawnKurel(['pull', ref], {
        cwd: work,
        env: { KUREL_CACHE_DIR: join(work, 'third-cache'), HOME: work, NODE_EXTRA_CA_CERTS: '' },
      });
      expect(untrusted.code).toBe(2);
      expect(untrusted.stdout).toMatch(
        /error registry-unreachable .*cannot reach 127\.0\.0\.1:\d+ \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\)/,
      );
    } finally {
      await registry.stop();
    }
  });

  it('answers Basic authentication from a docker config.json, and never prints the password', async () => {
    const password = 's3cret-Pa55word-never-shown';
    const htpasswd = spawnSync('htpasswd', ['-Bbn', 'ci-bot', password], { encoding: 'utf8' });
    expect(htpasswd.status, htpasswd.stderr).toBe(0);
    const registry = await startRegistry({ htpasswd: htpasswd.stdout });
    try {
      const docker = join(work, 'docker');
      mkdirSync(docker, { recursive: true });
      const ref = `oci://${registry.host}/private/defs:1.0.0`;
      const base = { KUREL_CACHE_DIR: join(work, 'auth-cache'), HOME: work, DOCKER_CONFIG: docker };
      const refused = await runKurel(['push', DEFINITIONS.pathname, ref], { cwd: work, env: base });
      expect(refused.code).toBe(2);
      expect(refused.stdout).toContain(`error registry-auth ${ref}: ${registry.host} asks for credentials and no credentials were found`);
      const auth = Buffer.from(`ci-bot:${password}`).toString('base64');
      writeFileSync(join(docker, 'config.json'), JSON.stringify({ auths: { [registry.host]: { auth } } }));
      const pushed = await runKurel(['push', DEFINITIONS.pathname, ref], { cwd: work, env: base });
      expect(pushed).toMatchObject({ code: 0, stdout: expect.stringMatching(DIGEST) });
      const pulled = await runKurel(['pull', ref, '--output', 'private', '--format', 'json'], {
        cwd: work,
        env: { ...base, KUREL_CACHE_DIR: join(work, 'auth-cache-2') },
      });
      expect(pulled.code).toBe(0);
      writeFileSync(
        join(docker, 'config.json'),
        JSON.stringify({ auths: { [registry.host]: { auth: Buffer.from('ci-bot:wrong-password').toString('base64') } } }),
      );
      const wrong = await runKurel(['pull', ref, '--format', 'json'], { cwd: work, env: { ...base, KUREL_CACHE_DIR: join(work, 'auth-cache-3') } });
      expect(wrong.code).toBe(2);
      expect(JSON.parse(wrong.stdout).diagnostics[0]).toMatchObject({
        code: 'registry-auth',
        message: `${ref}: the registry ${registry.host} refused the credentials for private/defs (HTTP 401)`,
      });
      // docker's credential helpers: credHelpers for the host, credsStore for every host.
      const bin = join(work, 'bin');
      mkdirSync(bin, { recursive: true });
      writeFileSync(
        join(bin, 'docker-credential-kureltest'),
        `#!/bin/sh\n[ "$1" = get ] || exit 1\nread host\n[ "$host" = "${registry.host}" ] || { echo "credentials not found in native keychain"; exit 1; }\nprintf '{"ServerURL":"%s","Username":"ci-bot","Secret":"%s"}' "$host" "${password}"\n`,
        { mode: 0o755 },
      );
      const helped = { ...base, PATH: `${bin}:${process.env.PATH}` };
      const helpers: [string, object][] = [
        ['credHelpers', { credHelpers: { [registry.host]: 'kureltest' } }],
        ['credsStore', { credsStore: 'kureltest', auths: { [registry.host]: {} } }],
      ];
      const viaHelpers: Awaited<ReturnType<typeof runKurel>>[] = [];
      for (const [name, config] of helpers) {
        writeFileSync(join(docker, 'config.json'), JSON.stringify(config));
        const run = await runKurel(['pull', ref, '--output', `via-${name}`], { cwd: work, env: { ...helped, KUREL_CACHE_DIR: join(work, `cache-${name}`) } });
        expect({ name, code: run.code }).toEqual({ name, code: 0 });
        viaHelpers.push(run);
      }
      for (const run of [refused, pushed, pulled, wrong, ...viaHelpers]) expect(run.stdout + run.stderr).not.toContain(password);
      expect(JSON.stringify(readdirSync(join(work, 'auth-cache'), { recursive: true }))).not.toContain(password);
    } finally {
      await registry.stop();
    }
  });
});

// A registry on plain HTTP at an address that is not loopback: reached only when named insecure.
const outside = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

describe.skipIf(skip || outside === undefined)('a plain-HTTP registry that is not on loopback', () => {
  let registry: RunningRegistry;
  let work: string;
  beforeAll(async () => {
    registry = await startRegistry({ address: outside! });
    work = mkdtempSync(join(tmpdir(), 'kurel-insecure-'));
  });
  afterAll(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('is refused over plain HTTP until --insecure-registry or .kurel.yaml insecureRegistries names it', async () => {
    const env = { KUREL_CACHE_DIR: join(work, 'cache'), HOME: work, DOCKER_CONFIG: join(work, 'docker') };
    const ref = `oci://${registry.host}/plain/defs:1.0.0`;
    const refused = await runKurel(['push', DEFINITIONS.pathname, ref], { cwd: work, env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain(
      `error registry-unreachable ${ref}: ${registry.host} does not answer HTTPS; a registry on plain HTTP must be named with --insecure-registry ${registry.host} or in .kurel.yaml insecureRegistries`,
    );
    const pushed = await runKurel(['push', DEFINITIONS.pathname, ref, '--insecure-registry', registry.host], { cwd: work, env });
    expect(pushed).toMatchObject({ code: 0, stdout: expect.stringMatching(/@sha256:[a-f0-9]{64}\n$/) });
    writeFileSync(join(work, '.kurel.yaml'), `insecureRegistries: ["${registry.host}"]\n`);
    const pulled = await runKurel(['pull', ref, '--output', 'plain'], { cwd: work, env: { ...env, KUREL_CACHE_DIR: join(work, 'cache-2') } });
    expect(pulled.code, pulled.stdout).toBe(0);
  });
});
