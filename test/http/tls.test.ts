import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { loadTlsPair, type TlsPair, TlsPairError, TlsPairWatcher, type TlsReloadEvent } from '../../src/http/tls.js';
import { makePair, type PemPair, writeSecretVolume } from '../helpers/tls.js';
import { sleep, testApp } from './support.js';

let first: PemPair;
let second: PemPair;
let third: PemPair;
beforeAll(async () => {
  [first, second, third] = await Promise.all([makePair('kurel-test-first'), makePair('kurel-test-second'), makePair('kurel-test-third')]);
});

const fingerprint = (pair: PemPair) => new X509Certificate(pair.cert).fingerprint256;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kurel-tls-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Serves a test app over TLS from the pair in `dir` (tls.crt, tls.key), polling quickly. */
async function serveTls(dir: string, settleMs = 400, limits: { headersTimeoutMs?: number } = {}) {
  const kurel = testApp({ limits });
  const files = { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') };
  const running = await startServer(kurel, { host: '127.0.0.1', port: 0, tls: { files, pair: loadTlsPair(files), timing: { pollIntervalMs: 50, settleMs } } });
  cleanups.push(async () => void (await running.shutdown()));
  return { ...kurel, running };
}

interface Answer {
  status: number;
  httpVersion: string;
  alpn: string | false | null;
  fingerprint: string;
  body: string;
}

/** One GET on a new connection that trusts the three test certificates. */
function get(running: RunningServer, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // Offering h2 too shows the server picks HTTP/1.1 itself.
    const options: RequestOptions & { ALPNProtocols: string[] } = {
      ca: [first.cert, second.cert, third.cert],
      agent: false,
      ALPNProtocols: ['h2', 'http/1.1'],
    };
    const req = httpsRequest(`${running.url}${path}`, options, (res) => {
      const socket = res.socket as TLSSocket;
      const peer = socket.getPeerCertificate();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, httpVersion: res.httpVersion, alpn: socket.alpnProtocol, fingerprint: peer.fingerprint256, body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const metric = async (running: RunningServer, name: string) => (await get(running, '/metrics')).body.split('\n').find((line) => line.startsWith(`${name} `));

describe('serving TLS', () => {
  it('answers HTTP/1.1 over TLS with the certificate it was given', async () => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { running } = await serveTls(dir);
    expect(running.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const answer = await get(running, '/healthz');
    expect(answer).toEqual({ status: 200, httpVersion: '1.1', alpn: 'http/1.1', fingerprint: fingerprint(first), body: '{"status":"ok"}' });
  });

  it('serves HTTPS only: a plain HTTP request on its port gets no answer', async () => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { running } = await serveTls(dir);
    const plain = running.url.replace('https:', 'http:');
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest(`${plain}/healthz`, { agent: false }, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (err: NodeJS.ErrnoException) => resolve(`failed ${err.code}`));
      req.end();
    });
    expect(outcome).toMatch(/^failed (ECONNRESET|EPIPE)$/);
  });

  it.each([
    { sent: 'nothing', bytes: Buffer.alloc(0) },
    // A TLS record header announcing a 512-byte ClientHello, and 5 bytes of it.
    { sent: 'half a ClientHello', bytes: Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03]) },
  ])('closes a connection that sends $sent, as an idle plain connection is closed', async ({ bytes }) => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { running } = await serveTls(dir, 400, { headersTimeoutMs: 300 });
    const port = Number(new URL(running.url).port);
    // Without a handshake limit the server would hold the connection for two minutes.
    const closed = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code}`));
      socket.on('close', () => resolve('closed'));
      socket.resume();
    });
    expect(closed).toMatch(/^(closed|error ECONNRESET)$/);
  });

  it('loads a pair swapped in through the ..data link of a Secret volume for new connections, without a restart', async () => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { running, log } = await serveTls(dir);
    expect((await get(running, '/healthz')).fingerprint).toBe(fingerprint(first));
    writeSecretVolume(dir, second);
    await until(async () => ((await get(running, '/healthz')).fingerprint === fingerprint(second) ? true : undefined), 'the new certificate');
    expect(log.lines.filter((l) => l['msg'] === 'tls certificate reloaded').map((l) => l['fingerprint'])).toEqual([fingerprint(second)]);
    expect(await metric(running, 'kurel_tls_reloads_total{result="success"}')).toBe('kurel_tls_reloads_total{result="success"} 1');
    expect(await metric(running, 'kurel_tls_reloads_total{result="failure"}')).toBe('kurel_tls_reloads_total{result="failure"} 0');
    const notAfter = new Date(new X509Certificate(second.cert).validTo).getTime() / 1000;
    expect(await metric(running, 'kurel_tls_certificate_expiry_timestamp_seconds')).toBe(`kurel_tls_certificate_expiry_timestamp_seconds ${notAfter}`);
  });

  it('keeps the old pair when the new certificate and key do not match, and logs and counts the failure once', async () => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { running, log } = await serveTls(dir, 300);
    writeSecretVolume(dir, { cert: second.cert, key: third.key });
    const failure = await until(() => log.lines.find((l) => l['msg'] === 'tls reload failed'), 'the failure to be logged');
    expect(failure).toMatchObject({
      level: 50,
      reason: 'mismatch',
      error: `the key in ${join(dir, 'tls.key')} does not belong to the certificate in ${join(dir, 'tls.crt')}`,
    });
    expect((await get(running, '/healthz')).fingerprint).toBe(fingerprint(first));
    // Polls go on, but the same broken pair is reported once.
    await sleep(300);
    expect(log.lines.filter((l) => l['msg'] === 'tls reload failed')).toHaveLength(1);
    expect(await metric(running, 'kurel_tls_reloads_total{result="failure"}')).toBe('kurel_tls_reloads_total{result="failure"} 1');
    expect(await metric(running, 'kurel_tls_reloads_total{result="success"}')).toBe('kurel_tls_reloads_total{result="success"} 0');

    writeSecretVolume(dir, second);
    await until(async () => ((await get(running, '/healthz')).fingerprint === fingerprint(second) ? true : undefined), 'the good pair after the bad one');
    expect(await metric(running, 'kurel_tls_reloads_total{result="success"}')).toBe('kurel_tls_reloads_total{result="success"} 1');
    // Every poll until the good pair came found the same broken one, and none reported it again.
    expect(log.lines.filter((l) => l['msg'] === 'tls reload failed')).toHaveLength(1);
  });

  it('waits for a key written after its certificate instead of failing at once', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tls.crt'), first.cert);
    writeFileSync(join(dir, 'tls.key'), first.key);
    // A settle time no loaded machine passes between the two writes below: how long the watcher
    // waits is the pair watcher's tests' business, with a clock they move.
    const { running, log } = await serveTls(dir, 600_000);
    writeFileSync(join(dir, 'tls.crt'), second.cert);
    await sleep(300);
    expect((await get(running, '/healthz')).fingerprint).toBe(fingerprint(first));
    writeFileSync(join(dir, 'tls.key'), second.key);
    await until(async () => ((await get(running, '/healthz')).fingerprint === fingerprint(second) ? true : undefined), 'the completed pair');
    expect(log.lines.filter((l) => l['msg'] === 'tls reload failed')).toEqual([]);
  });

  it('answers every request of a client looping on new connections while the pair rotates twice', async () => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { running } = await serveTls(dir);
    const seen: string[] = [];
    const failures: string[] = [];
    let rotations = 0;
    const rotate = (async () => {
      for (const pair of [second, third]) {
        await until(() => (seen.length >= 30 * (rotations + 1) ? true : undefined), 'requests before a rotation', 20_000);
        writeSecretVolume(dir, pair);
        rotations++;
      }
    })();
    // Bounded: 400 requests or 20 seconds, whichever comes first; two clients at once.
    const deadline = Date.now() + 20_000;
    const client = async () => {
      while (seen.length + failures.length < 400 && Date.now() < deadline) {
        try {
          const answer = await get(running, '/healthz');
          seen.push(answer.status === 200 ? answer.fingerprint : `status ${answer.status}`);
          if (rotations === 2 && answer.fingerprint === fingerprint(third) && seen.length >= 120) return;
        } catch (err) {
          failures.push(String(err));
        }
      }
    };
    await Promise.all([client(), client(), rotate]);
    expect(failures).toEqual([]);
    expect(seen.length).toBeGreaterThanOrEqual(120);
    expect(seen.filter((s) => s.startsWith('status'))).toEqual([]);
    // Every certificate served in its turn, and the last one in the end.
    expect(new Set(seen)).toEqual(new Set([fingerprint(first), fingerprint(second), fingerprint(third)]));
    expect(seen.at(-1)).toBe(fingerprint(third));
  });
});

describe('the pair watcher', () => {
  const files = (dir: string) => ({ certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') });

  function watcherOver(dir: string, settleMs: number) {
    let clock = 0;
    const applied: TlsPair[] = [];
    const events: TlsReloadEvent[] = [];
    const watcher = new TlsPairWatcher(
      files(dir),
      loadTlsPair(files(dir)),
      (p) => applied.push(p),
      (e) => events.push(e),
      { pollIntervalMs: 60_000, settleMs },
      () => clock,
    );
    return { watcher, applied, events, advance: (ms: number) => (clock += ms) };
  }

  it('retries a mismatched pair until the settle time has passed, then reports it once', () => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { watcher, applied, events, advance } = watcherOver(dir, 30_000);
    writeSecretVolume(dir, { cert: second.cert, key: first.key });
    watcher.check();
    advance(29_999);
    watcher.check();
    expect(events).toEqual([]);
    advance(1);
    watcher.check();
    advance(10_000);
    watcher.check();
    expect(events.map((e) => (e.ok ? 'ok' : e.error.reason))).toEqual(['mismatch']);
    expect(applied).toEqual([]);
  });

  it('starts the settle time again for every new content of the files', () => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { watcher, events, advance } = watcherOver(dir, 1_000);
    writeSecretVolume(dir, { cert: second.cert, key: first.key });
    watcher.check();
    advance(900);
    writeSecretVolume(dir, { cert: third.cert, key: first.key });
    watcher.check();
    advance(900);
    watcher.check();
    expect(events).toEqual([]);
    advance(100);
    watcher.check();
    expect(events).toHaveLength(1);
  });

  it('reports nothing when the files come back to the pair in service', () => {
    const dir = tempDir();
    writeSecretVolume(dir, first);
    const { watcher, events, advance } = watcherOver(dir, 1_000);
    writeSecretVolume(dir, { cert: second.cert, key: first.key });
    watcher.check();
    writeSecretVolume(dir, first);
    advance(5_000);
    watcher.check();
    expect(events).toEqual([]);
  });
});

describe('loading a pair', () => {
  it.each([
    [
      'a missing certificate',
      (dir: string) => writeFileSync(join(dir, 'tls.key'), first.key),
      'unreadable',
      (dir: string) => `cannot read ${join(dir, 'tls.crt')}: no such file`,
    ],
    [
      'a certificate that is not PEM',
      (dir: string) => {
        writeFileSync(join(dir, 'tls.crt'), 'hello');
        writeFileSync(join(dir, 'tls.key'), first.key);
      },
      'invalid',
      (dir: string) => `${join(dir, 'tls.crt')} does not hold a PEM certificate`,
    ],
    [
      'a key that is not PEM',
      (dir: string) => {
        writeFileSync(join(dir, 'tls.crt'), first.cert);
        writeFileSync(join(dir, 'tls.key'), first.cert);
      },
      'invalid',
      (dir: string) => `${join(dir, 'tls.key')} does not hold an unencrypted PEM private key`,
    ],
    [
      'a key of another certificate',
      (dir: string) => {
        writeFileSync(join(dir, 'tls.crt'), first.cert);
        writeFileSync(join(dir, 'tls.key'), second.key);
      },
      'mismatch',
      (dir: string) => `the key in ${join(dir, 'tls.key')} does not belong to the certificate in ${join(dir, 'tls.crt')}`,
    ],
  ])('refuses %s and says why', (_name, write, reason, message) => {
    const dir = tempDir();
    write(dir);
    let error: unknown;
    try {
      loadTlsPair({ certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TlsPairError);
    expect([(error as TlsPairError).reason, (error as TlsPairError).message]).toEqual([reason, message(dir)]);
  });
});
