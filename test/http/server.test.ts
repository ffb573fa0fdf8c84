import { once } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/http/server.js';
import { openFront } from '../../src/http/supervisor/front.js';
import { keepAliveLoad } from '../helpers/keep-alive-load.js';
import { waitFor } from '../helpers/serve.js';
import { GATEWAY_DOCUMENT, GATEWAY_PROFILE, startSlowRequest, testApp } from './support.js';

/** Waits until the app follows at least `count` requests: a slow request has arrived, however loaded the machine. */
const untilInFlight = (kurel: { requestIdsInFlight(): string[] }, count: number) =>
  waitFor(() => (kurel.requestIdsInFlight().length >= count ? true : undefined), `${count} requests in flight`);

describe('graceful shutdown', () => {
  it('answers a request in flight, refuses new connections, fails readiness, and stops unforced', async () => {
    const kurel = testApp();
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0 });
    const slow = startSlowRequest(server.url, '/v1/validate', GATEWAY_PROFILE);
    await untilInFlight(kurel, 1);
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
    await untilInFlight(kurel, 1);
    // Forced: the grace period ended the drain, not the request.
    expect(await server.shutdown()).toEqual({ forced: true });
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

describe('a server handed its connections', () => {
  it('serves the connections a front accepted, and drains them before it stops', async () => {
    const front = await openFront('127.0.0.1', 0, { answers: true });
    if ('error' in front) throw front.error;
    const url = `http://${front.address}`;
    const kurel = testApp();
    let accept: (socket: Socket) => void = () => undefined;
    const server = await startServer(kurel, {
      host: '127.0.0.1',
      port: 0,
      handed: {
        url,
        connect: (take) => {
          accept = take;
        },
      },
    });
    expect([server.url, server.server.listening]).toEqual([url, false]);
    front.add(1, {
      take: (socket, done) => {
        accept(socket);
        done(null);
      },
    });
    const slow = startSlowRequest(url, '/v1/validate', GATEWAY_PROFILE);
    await untilInFlight(kurel, 1);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    front.remove(1);
    // In this one process the front still counts the connections it handed over: it closes with them.
    const closing = front.close();
    const stopping = server.shutdown();
    let stopped = false;
    void stopping.then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The request in flight holds the drain open, though the server never listened.
    expect(stopped).toBe(false);
    slow.finish();
    expect((await slow.response).status).toBe(200);
    expect(await stopping).toEqual({ forced: false });
    await closing;
  });

  // A process may begin to drain on its own signal while the supervisor still hands it connections.
  it('serves a connection handed after the drain began, and ends the drain once it closes', async () => {
    const front = await openFront('127.0.0.1', 0, { answers: true });
    if ('error' in front) throw front.error;
    const url = `http://${front.address}`;
    const kurel = testApp({ limits: { shutdownGraceMs: 3_000 } });
    let accept: (socket: Socket) => void = () => undefined;
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0, handed: { url, connect: (take) => (accept = take) } });
    front.add(1, {
      take: (socket, done) => {
        accept(socket);
        done(null);
      },
    });
    const first = startSlowRequest(url, '/v1/validate', GATEWAY_PROFILE);
    await untilInFlight(kurel, 1);
    // The drain has closed what it listens on before the next connection is handed.
    const closed = once(server.server, 'close');
    const stopping = server.shutdown();
    await closed;
    const late = startSlowRequest(url, '/v1/validate', GATEWAY_PROFILE);
    await untilInFlight(kurel, 1);
    first.finish();
    expect((await first.response).status).toBe(200);
    late.finish();
    const answer = await late.response;
    expect([answer.status, answer.headers.connection]).toEqual([200, 'close']);
    expect(await stopping).toEqual({ forced: false });
    front.remove(1);
    await front.close();
  });
});
