import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenEarly } from '../../src/http/early-listener.js';
import { startServer } from '../../src/http/server.js';
import { keepAliveLoad } from '../helpers/keep-alive-load.js';
import { GATEWAY_DOCUMENT, GATEWAY_PROFILE, startSlowRequest, testApp } from './support.js';

describe('graceful shutdown', () => {
  it('answers a request in flight, refuses new connections, fails readiness, and stops unforced', async () => {
    const kurel = testApp();
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0 });
    const slow = startSlowRequest(server.url, '/v1/validate', GATEWAY_PROFILE);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = server.shutdown();
    expect(kurel.state.isDraining).toBe(true);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    slow.finish();
    const res = await slow.response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).valid).toBe(true);
    expect(await stopping).toEqual({ forced: false });
    expect(server.server.listening).toBe(false);
  });

  it('cuts a request that outlives the grace period, and says so', async () => {
    const kurel = testApp({ limits: { shutdownGraceMs: 200 } });
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0 });
    const stuck = startSlowRequest(server.url, '/v1/validate', GATEWAY_PROFILE);
    const failed = stuck.response.then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    expect(await server.shutdown()).toEqual({ forced: true });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await failed).toBe('cut');
  });

  it('returns the same stop to every caller', async () => {
    const server = await startServer(testApp(), { host: '127.0.0.1', port: 0 });
    const first = server.shutdown();
    expect(server.shutdown()).toBe(first);
    expect(await first).toEqual({ forced: false });
  });
});

describe('shutdown under keep-alive load', () => {
  // Back-to-back and pipelined requests on 64 connections: a request on the wire when the drain
  // begins must be answered, never reset with its connection.
  it.each([
    { pipeline: 1, round: 1 },
    { pipeline: 3, round: 2 },
    { pipeline: 1, round: 3 },
  ])('answers every request received, $pipeline at a time on 64 connections (round $round)', async ({ pipeline }) => {
    const kurel = testApp({ logLevel: 'silent' });
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0 });
    const load = keepAliveLoad(server.url, { connections: 64, pipeline, method: 'POST', path: '/v1/validate', body: JSON.stringify(GATEWAY_DOCUMENT) });
    // Every connection has been accepted and answered once: the load is on all of them.
    while (load.tally.answered < 400 || load.tally.answeredConnections < 64) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await server.shutdown()).toEqual({ forced: false });
    const tally = await load.done;
    expect({ lost: tally.lost, errors: tally.errors }).toEqual({ lost: 0, errors: [] });
    expect(tally.answered).toBe(tally.sent);
    expect(tally.statuses).toEqual({ 200: tally.answered });
    // Every connection was busy when the drain began: each ended after an answer saying so.
    expect(tally.closedAfterAnswer).toBe(64);
  });
});

describe('the early listener', () => {
  it('answers /healthz at once, /readyz as starting and everything else 503 with Retry-After, until the app takes over', async () => {
    const early = await listenEarly('127.0.0.1', 0);
    if (!early) throw new Error('the early listener could not listen');
    const { port } = early.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}`;
    const health = await fetch(`${url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'starting' }]);
    const work = await fetch(`${url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect([work.status, work.headers.get('retry-after'), work.headers.get('content-type')]).toEqual([503, '1', 'application/problem+json; charset=utf-8']);
    expect(await work.json()).toEqual({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'the service is starting; retry shortly' });

    const kurel = testApp();
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0, early });
    expect(server.url).toBe(url);
    const validated = await fetch(`${url}/v1/validate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(GATEWAY_DOCUMENT),
    });
    expect([validated.status, ((await validated.json()) as { valid: boolean }).valid]).toEqual([200, true]);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(await server.shutdown()).toEqual({ forced: false });
  });

  it('resolves to undefined when the port is taken', async () => {
    const taken = await listenEarly('127.0.0.1', 0);
    const { port } = taken!.server.address() as AddressInfo;
    expect(await listenEarly('127.0.0.1', port)).toBeUndefined();
    taken!.server.close();
  });
});
