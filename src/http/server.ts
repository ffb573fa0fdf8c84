import { createServer, type Server } from 'node:http';
import { type AddressInfo, Server as NetServer } from 'node:net';
import type { KurelApp } from './app.js';
import { quietConnections } from './drain.js';
import { CONNECTIONS_CHECKING_INTERVAL_MS, type EarlyListener } from './early-listener.js';
import type { TlsFiles, TlsPair, TlsReloadTiming } from './tls.js';

/** A listening service and the way to stop it. */
export interface RunningServer {
  server: Server;
  /** The base URL it listens on, e.g. `http://127.0.0.1:8080` (`https://` with TLS). */
  url: string;
  /**
   * Stops gracefully: readiness fails, no new connection is accepted, every request received is
   * answered (the last answer on each connection says `Connection: close`), and connections
   * without a request close once they have been quiet for a moment. After the grace period the
   * remaining connections are cut; `forced` says whether that happened.
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
export async function startServer(
  kurel: KurelApp,
  options: { host: string; port: number; tls?: TlsOptions; early?: EarlyListener | undefined },
): Promise<RunningServer> {
  const { listener, state, limits } = kurel;
  // Node checks its header and request time-outs at this interval (30 s unless told).
  const connectionsCheckingInterval = CONNECTIONS_CHECKING_INTERVAL_MS;
  // A plain HTTP server that already listens (answering /healthz while the service loaded) takes the app.
  const early = options.tls ? undefined : options.early;
  early?.serve(listener);
  let server: Server;
  if (early) server = early.server;
  // TLS (node:https and the reload machinery) loads only for a service that serves it.
  else if (options.tls) {
    server = (await import('./tls.js')).createHttpsServer(
      { ...options.tls, logger: kurel.logger, metrics: kurel.metrics.registry, connectionsCheckingInterval, handshakeTimeoutMs: limits.headersTimeoutMs },
      listener,
    );
  } else server = createServer({ connectionsCheckingInterval }, listener);
  // Node's own limits back the app's time limit up: a client that never finishes its headers
  // (or, over TLS, its handshake) is dropped even if no handler runs. The headers limit is the
  // idle connection's, not the request deadline: a short deadline must not reset connections.
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs) + 5_000;
  const quiet = quietConnections(server);
  await new Promise<void>((resolve, reject) => {
    if (early) return resolve();
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
      // A connection closes after the answer to its last request (it says `Connection: close`),
      // or, without a request, once quiet: never while a request may be on its way.
      const sweep = setInterval(() => quiet.closeQuiet(), 50);
      const deadline = setTimeout(() => {
        forced = true;
        server.closeAllConnections();
        // Closed connections end within a moment; the stop does not wait on them longer.
        setTimeout(finish, 1000).unref();
      }, limits.shutdownGraceMs);
      // node:http's close() would destroy every idle connection at once, resetting requests
      // already sent on them; the listening socket alone is closed here.
      NetServer.prototype.close.call(server, () => finish());
      quiet.closeQuiet();
    });
    return stopping;
  };
  return { server, url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}`, shutdown };
}
