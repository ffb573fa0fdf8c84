import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/http/server.js';
import { GATEWAY_PROFILE, startSlowRequest, testApp } from './support.js';

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
