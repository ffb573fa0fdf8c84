import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KurelApp } from './app.js';
import type { TlsFiles, TlsPair, TlsReloadTiming } from './tls.js';

/** A listening service and the way to stop it. */
export interface RunningServer {
  server: Server;
  /** The base URL it listens on, e.g. `http://127.0.0.1:8080` (`https://` with TLS). */
  url: string;
  /**
   * Stops gracefully: readiness fails, no new connection is accepted, requests in flight are
   * answered (their connections then close), idle connections close at once. After the grace
   * period the remaining connections are cut; `forced` says whether that happened.
   */
  shutdown(): Promise<{ forced: boolean }>;
}

/** Serving HTTPS only: the files of the pair, the pair loaded from them, and how to follow their changes. */
export interface TlsOptions {
  files: TlsFiles;
  pair: TlsPair;
  timing?: TlsReloadTiming;
}

/**
 * Serves an app on `host:port` (port 0 picks a free one), over HTTPS only when `tls` is given;
 * resolves once it listens.
 */
export async function startServer(kurel: KurelApp, options: { host: string; port: number; tls?: TlsOptions }): Promise<RunningServer> {
  const { app, state, limits } = kurel;
  // Node checks its header and request time-outs at this interval (30 s unless told).
  const connectionsCheckingInterval = 1000;
  // TLS (node:https and the reload machinery) loads only for a service that serves it.
  const server: Server = options.tls
    ? (await import('./tls.js')).createHttpsServer({ ...options.tls, logger: kurel.logger, metrics: kurel.metrics.registry, connectionsCheckingInterval }, app)
    : createServer({ connectionsCheckingInterval }, app);
  // Node's own limits back the app's time limit up: a client that never finishes its headers
  // or body is dropped even if no handler runs.
  server.headersTimeout = limits.requestTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs + 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let stopping: Promise<{ forced: boolean }> | undefined;
  const shutdown = () => {
    stopping ??= new Promise((resolve) => {
      state.beginDrain();
      let forced = false;
      const finish = () => {
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve({ forced });
      };
      // Connections a request left idle close as soon as their answer is out.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => {
        forced = true;
        server.closeAllConnections();
        // Closed connections end within a moment; the stop does not wait on them longer.
        setTimeout(finish, 1000).unref();
      }, limits.shutdownGraceMs);
      server.close(finish);
      server.closeIdleConnections();
    });
    return stopping;
  };
  return { server, url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}`, shutdown };
}
