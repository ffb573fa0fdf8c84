import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTool, skipWithout } from '../helpers/real-tool.js';
import type { PemPair } from '../helpers/tls.js';

/** Debian's distribution registry (`docker-registry`), run for real by these tests. */
export const REGISTRY_TOOL = findTool('/usr/bin/docker-registry', ['--version']);
/** skopeo, which reads and copies what kurel pushes. */
export const SKOPEO_TOOL = findTool('/usr/bin/skopeo', ['--version']);

/** True when the registry tests cannot run here (printed; never in CI, where the tools are installed). */
export function skipRegistryTests(): boolean {
  return skipWithout(REGISTRY_TOOL) || skipWithout(SKOPEO_TOOL);
}

/** A registry serving on loopback, with its storage in a temporary folder. */
export interface RunningRegistry {
  /** `127.0.0.1:PORT`, or the address asked for */
  readonly host: string;
  readonly folder: string;
  stop(): Promise<void>;
}

/** A free loopback port: one the system hands out, closed again at once. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * Starts `docker-registry serve` on a free loopback port with filesystem storage in a temporary
 * folder: plain, with TLS from `tls`, or with Basic authentication from an htpasswd file's text.
 * Resolves when `GET /v2/` answers (any status), polled as a condition.
 */
export async function startRegistry(options: { tls?: PemPair; htpasswd?: string; address?: string } = {}): Promise<RunningRegistry> {
  const folder = mkdtempSync(join(tmpdir(), 'kurel-registry-'));
  const port = await freePort();
  const lines = [
    'version: 0.1',
    'log:',
    '  level: error',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${join(folder, 'data')}`,
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: ${options.address ?? '127.0.0.1'}:${port}`,
  ];
  if (options.tls) {
    writeFileSync(join(folder, 'tls.crt'), options.tls.cert);
    writeFileSync(join(folder, 'tls.key'), options.tls.key);
    lines.push('  tls:', `    certificate: ${join(folder, 'tls.crt')}`, `    key: ${join(folder, 'tls.key')}`);
  }
  if (options.htpasswd !== undefined) {
    writeFileSync(join(folder, 'htpasswd'), options.htpasswd);
    lines.push('auth:', '  htpasswd:', '    realm: kurel-test', `    path: ${join(folder, 'htpasswd')}`);
  }
  writeFileSync(join(folder, 'config.yml'), `${lines.join('\n')}\n`);
  const child = spawn(REGISTRY_TOOL.command, ['serve', join(folder, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const host = `${options.address ?? '127.0.0.1'}:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(host, options.tls, child);
  } catch (err) {
    await stop();
    throw new Error(`docker-registry did not start: ${String(err)}\n${stderr}`);
  }
  return { host, folder, stop };
}

async function waitUntilAnswering(host: string, tls: PemPair | undefined, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    if (await answers(host, tls)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function answers(host: string, tls: PemPair | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const url = `${tls ? 'https' : 'http'}://${host}/v2/`;
    const onAnswer = (res: { resume(): void; statusCode?: number }): void => {
      res.resume();
      resolve(true);
    };
    const req = tls ? httpsRequest(url, { ca: [tls.cert], agent: false }, onAnswer) : httpRequest(url, { agent: false }, onAnswer);
    req.on('error', () => resolve(false));
    req.end();
  });
}
