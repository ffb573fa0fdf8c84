import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';

// A hostile peer on loopback: it answers what a real registry never would (a gzip bomb, a
// manifest of 100 MB, 100,000 tags, a redirect elsewhere), so that each bound is seen to hold.

const digestOf = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const EMPTY = Buffer.from('{}');
const DEFINITION = Buffer.from('apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: queue}\nspec: {}\n');

type Entry = tar.Headers & { body?: Buffer };

async function tarOf(entries: readonly Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => pack.on('end', resolve));
  for (const { body, ...header } of entries) pack.entry({ mtime: new Date(0), ...header }, body ?? Buffer.alloc(0));
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

async function gzipStream(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(source).pipe(createGzip())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function manifestOf(layer: Buffer, overrides: { layerType?: string; artifactType?: string; layerDigest?: string } = {}): Buffer {
  return Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      artifactType: overrides.artifactType ?? 'application/vnd.kurel.definitions.v1',
      config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: digestOf(EMPTY), size: 2 },
      layers: [
        {
          mediaType: overrides.layerType ?? 'application/vnd.kurel.definitions.v1.tar+gzip',
          digest: overrides.layerDigest ?? digestOf(layer),
          size: layer.length,
        },
      ],
    }),
  );
}

interface Artifact {
  manifest?: Buffer;
  layer?: Buffer;
  /** Serves the layer from the other host, through a redirect. */
  redirect?: boolean;
  /** Answers the manifest with this many bytes of zeros and Content-Length, or without it when `chunked`. */
  hugeManifest?: { bytes: number; chunked: boolean };
  tags?: string[];
  endlessPages?: boolean;
}

const artifacts = new Map<string, Artifact>();
const seenAuthorization: { registry: (string | undefined)[]; storage: (string | undefined)[] } = { registry: [], storage: [] };
const USER = 'hostile-user';
const PASSWORD = 'never-in-any-output';

const TOKEN = 'token-for-bearer-defs';
const IDENTITY_TOKEN = 'identity-token-from-docker-login';
const tokenRequests: { method: string; scope: string | null; service: string | null; authorization?: string; body: string }[] = [];

function serveRegistry(storageHost: () => string, selfHost: () => string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/v2/') return void res.end('{}');
    if (url.pathname === '/token') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const scope = url.searchParams.get('scope') ?? form.get('scope');
        const service = url.searchParams.get('service') ?? form.get('service');
        tokenRequests.push({
          method: req.method ?? '',
          scope,
          service,
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
          body,
        });
        const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
        const allowed = req.headers.authorization === basic || (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === IDENTITY_TOKEN);
        if (!allowed || scope !== 'repository:bearer/defs:pull' || service !== 'hostile-registry') return void res.writeHead(401).end();
        res.end(JSON.stringify(req.method === 'POST' ? { access_token: TOKEN } : { token: TOKEN }));
      });
      return;
    }
    if (url.pathname.startsWith('/v2/bearer/') && req.headers.authorization !== `Bearer ${TOKEN}`) {
      const challenge = `Bearer realm="http://${selfHost()}/token",service="hostile-registry",scope="repository:bearer/defs:pull"`;
      return void res.writeHead(401, { 'WWW-Authenticate': challenge }).end();
    }
    const match = /^\/v2\/(.+)\/(manifests|blobs|tags)\/(.+)$/.exec(url.pathname);
    const artifact = match ? artifacts.get(match[1]!) : undefined;
    if (!match || !artifact) return void res.writeHead(404).end();
    if (artifact.redirect) {
      seenAuthorization.registry.push(req.headers.authorization);
      if (req.headers.authorization === undefined) return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="hostile"' }).end();
    }
    const kind = match[2];
    if (kind === 'tags') {
      if (artifact.endlessPages) {
        res.writeHead(200, { Link: `</v2/${match[1]}/tags/list?n=1&last=${Math.random()}>; rel="next"` });
        return void res.end(JSON.stringify({ tags: ['0.0.1'] }));
      }
      return void res.end(JSON.stringify({ name: match[1], tags: artifact.tags ?? ['1.0.0'] }));
    }
    if (kind === 'manifests') {
      if (artifact.hugeManifest) {
        const { bytes, chunked } = artifact.hugeManifest;
        res.writeHead(200, { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json', ...(chunked ? {} : { 'Content-Length': String(bytes) }) });
        const block = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = (): void => {
          while (sent < bytes && !res.destroyed) {
            sent += block.length;
            if (!res.write(block)) return void res.once('drain', pump);
          }
          res.end();
        };
        req.socket.on('close', () => (sent = bytes));
        pump();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' });
      return void res.end(artifact.manifest);
    }
    if (artifact.redirect) return void res.writeHead(307, { Location: `http://${storageHost()}/storage/${match[3]}` }).end();
    if (match[3] === digestOf(EMPTY)) return void res.end(EMPTY);
    res.end(artifact.layer);
  };
}

describe('unsafe artifacts and hostile registries', () => {
  let registry: Server;
  let storage: Server;
  let silent: TcpServer;
  const sockets: Socket[] = [];
  let host = '';
  let silentHost = '';
  let work: string;
  const listen = (server: Server | TcpServer): Promise<number> =>
    new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

  beforeAll(async () => {
    let storagePort = 0;
    registry = createServer(
      serveRegistry(
        () => `localhost:${storagePort}`,
        () => host,
      ),
    );
    storage = createServer((req, res) => {
      seenAuthorization.storage.push(req.headers.authorization);
      res.end(artifacts.get('redirect/defs')?.layer);
    });
    silent = createTcpServer((socket) => sockets.push(socket));
    host = `127.0.0.1:${await listen(registry)}`;
    storagePort = await listen(storage);
    silentHost = `127.0.0.1:${await listen(silent)}`;
    work = mkdtempSync(join(tmpdir(), 'kurel-hostile-'));

    const layerOf = async (entries: Entry[]) => gzipSync(await tarOf(entries));
    const put = (name: string, layer: Buffer, extra: Partial<Artifact> = {}, overrides = {}) =>
      artifacts.set(name, { layer, manifest: manifestOf(layer, overrides), ...extra });
    put('symlink/defs', await layerOf([{ name: 'link.yaml', type: 'symlink', linkname: '/etc/passwd' }]));
    put(
      'hardlink/defs',
      await layerOf([
        { name: 'a.yaml', body: DEFINITION },
        { name: 'link.yaml', type: 'link', linkname: 'a.yaml' },
      ]),
    );
    put('dotdot/defs', await layerOf([{ name: '../escape.yaml', body: DEFINITION }]));
    put('absolute/defs', await layerOf([{ name: '/tmp/absolute.yaml', body: DEFINITION }]));
    put('device/defs', await layerOf([{ name: 'null.yaml', type: 'character-device', devmajor: 1, devminor: 3 }]));
    put('folder/defs', await layerOf([{ name: 'defs', type: 'directory' }]));
    put('not-yaml/defs', await layerOf([{ name: 'run.sh', body: Buffer.from('#!/bin/sh\n') }]));
    put('many/defs', await layerOf(Array.from({ length: 10_001 }, (_, i) => ({ name: `d${i}.yaml`, body: Buffer.from('{}') }))));
    put('large-file/defs', await layerOf([{ name: 'big.yaml', body: Buffer.alloc(16 * 1024 * 1024 + 1, 0x20) }]));
    const zeros = Buffer.alloc(1024 * 1024);
    put(
      'bomb/defs',
      await gzipStream(
        (async function* () {
          for (let i = 0; i < 1024; i++) yield zeros;
        })(),
      ),
    );
    const good = await layerOf([{ name: 'queue.yaml', body: DEFINITION }]);
    put('wrong-digest/defs', good, {}, { layerDigest: digestOf(Buffer.from('other')) });
    put('media-type/defs', good, {}, { layerType: 'application/vnd.oci.image.layer.v1.tar+gzip' });
    put('image/defs', good, {}, { artifactType: 'application/vnd.oci.image.config.v1+json' });
    artifacts.set('huge-manifest/defs', { hugeManifest: { bytes: 100 * 1024 * 1024, chunked: false } });
    artifacts.set('endless-manifest/defs', { hugeManifest: { bytes: 100 * 1024 * 1024, chunked: true } });
    artifacts.set('many-tags/defs', { tags: Array.from({ length: 100_000 }, (_, i) => `1.0.${i}`) });
    artifacts.set('endless-tags/defs', { endlessPages: true });
    put('redirect/defs', good, { redirect: true });
    put('bearer/defs', good);
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all([registry, storage, silent].map((server) => new Promise((resolve) => server.close(resolve))));
    rmSync(work, { recursive: true, force: true });
  });

  const pull = (reference: string, env: NodeJS.ProcessEnv = {}) =>
    runKurel(['pull', reference, '--output', 'out', '--format', 'json'], {
      cwd: work,
      env: { KUREL_CACHE_DIR: join(work, 'cache'), HOME: work, DOCKER_CONFIG: join(work, 'no-docker'), KUREL_REGISTRY_TIMEOUT_MS: '2000', ...env },
    });

  it.each([
    ['symlink/defs:1.0.0', 'artifact-invalid', '"link.yaml" is a symlink, not a regular file'],
    ['hardlink/defs:1.0.0', 'artifact-invalid', '"link.yaml" is a link, not a regular file'],
    ['dotdot/defs:1.0.0', 'artifact-invalid', '"../escape.yaml" leads outside the artifact (..)'],
    ['absolute/defs:1.0.0', 'artifact-invalid', '"/tmp/absolute.yaml" is an absolute path'],
    ['device/defs:1.0.0', 'artifact-invalid', '"null.yaml" is a character-device, not a regular file'],
    ['folder/defs:1.0.0', 'artifact-invalid', '"defs" is a directory, not a regular file'],
    ['not-yaml/defs:1.0.0', 'artifact-invalid', '"run.sh" is not a .yaml, .yml or .json file'],
    ['many/defs:1.0.0', 'artifact-invalid', 'the layer has more than 10000 entries'],
    ['large-file/defs:1.0.0', 'artifact-invalid', '"big.yaml" is 16777217 bytes, more than the 16777216 allowed for one file'],
    ['bomb/defs:1.0.0', 'artifact-invalid', 'the layer inflates past 67108864 bytes of files'],
    ['wrong-digest/defs:1.0.0', 'artifact-invalid', `not the ${digestOf(Buffer.from('other'))} the manifest names`],
    [`wrong-digest/defs@sha256:${'0'.repeat(64)}`, 'artifact-invalid', `not the sha256:${'0'.repeat(64)} asked for`],
    [
      'media-type/defs:1.0.0',
      'artifact-invalid',
      `the layer's media type is "application/vnd.oci.image.layer.v1.tar+gzip", expected application/vnd.kurel.definitions.v1.tar+gzip`,
    ],
    ['image/defs:1.0.0', 'artifact-invalid', 'the artifact type is "application/vnd.oci.image.config.v1+json", expected application/vnd.kurel.definitions.v1'],
    ['huge-manifest/defs:1.0.0', 'artifact-invalid', 'the manifest is 104857600 bytes, more than the 4194304 allowed'],
    ['endless-manifest/defs:1.0.0', 'artifact-invalid', 'the manifest is more than the 4194304 bytes allowed'],
    ['many-tags/defs:^1', 'artifact-invalid', 'a page of the tag list has 100000 tags, more than 10000'],
    ['endless-tags/defs:^1', 'artifact-invalid', 'the tag list has more than 100 pages'],
  ])('refuses oci://HOST/%s: %s, and writes nothing outside the cache', async (path, code, message) => {
    const run = await pull(`oci://${host}/${path}`);
    expect(run.code).toBe(2);
    const [diagnostic, ...rest] = JSON.parse(run.stdout).diagnostics;
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ code, file: `oci://${host}/${path}` });
    expect(diagnostic.message).toContain(message);
    expect(readdirSync(work).filter((name) => name !== 'cache')).toEqual([]);
  });

  it('refuses a registry that never answers once the read timeout passes', async () => {
    const run = await pull(`oci://${silentHost}/quiet/defs:1.0.0`, { KUREL_REGISTRY_TIMEOUT_MS: '300' });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).diagnostics).toMatchObject([
      { code: 'registry-unreachable', message: `oci://${silentHost}/quiet/defs:1.0.0: ${silentHost} did not answer within 0.3 s` },
    ]);
    expect(readdirSync(work).filter((name) => name !== 'cache')).toEqual([]);
  });

  it('follows a redirect to another host without the credentials the registry was sent', async () => {
    const run = await pull(`oci://${host}/redirect/defs:1.0.0`, { KUREL_REGISTRY_USERNAME: USER, KUREL_REGISTRY_PASSWORD: PASSWORD });
    expect(run.code, run.stdout).toBe(0);
    const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    expect(seenAuthorization.registry).toContain(basic);
    expect(seenAuthorization.storage).toEqual([undefined]);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
    rmSync(join(work, 'out'), { recursive: true });
  });

  it('answers a Bearer challenge with a token for the scope asked, from a user and password or an identity token', async () => {
    const withPassword = await pull(`oci://${host}/bearer/defs:1.0.0`, { KUREL_REGISTRY_USERNAME: USER, KUREL_REGISTRY_PASSWORD: PASSWORD });
    expect(withPassword.code, withPassword.stdout).toBe(0);
    rmSync(join(work, 'out'), { recursive: true });
    const docker = join(work, 'docker');
    mkdirSync(docker);
    writeFileSync(join(docker, 'config.json'), JSON.stringify({ auths: { [host]: { identitytoken: IDENTITY_TOKEN } } }));
    const withIdentity = await pull(`oci://${host}/bearer/defs:1.0.0`, { DOCKER_CONFIG: docker, KUREL_CACHE_DIR: join(work, 'cache-identity') });
    rmSync(docker, { recursive: true });
    rmSync(join(work, 'cache-identity'), { recursive: true });
    expect(withIdentity.code, withIdentity.stdout).toBe(0);
    rmSync(join(work, 'out'), { recursive: true });
    expect(tokenRequests.map((r) => [r.method, r.scope, r.service])).toEqual([
      ['GET', 'repository:bearer/defs:pull', 'hostile-registry'],
      ['POST', 'repository:bearer/defs:pull', 'hostile-registry'],
    ]);
    const without = await pull(`oci://${host}/bearer/defs:1.0.0`, { KUREL_CACHE_DIR: join(work, 'cache-none') });
    rmSync(join(work, 'cache-none'), { recursive: true, force: true });
    expect(without.code).toBe(2);
    expect(JSON.parse(without.stdout).diagnostics[0]).toMatchObject({ code: 'registry-auth' });
    for (const run of [withPassword, withIdentity, without]) expect(run.stdout + run.stderr).not.toMatch(new RegExp(`${PASSWORD}|${IDENTITY_TOKEN}|${TOKEN}`));
  });
});
