import { createServer, type Server } from 'node:http';
import { type AddressInfo, Server as NetServer, type Socket } from 'node:net';
import type { KurelApp } from './app.js';
import { quietConnections } from './drain.js';
import type { TlsFiles, TlsPair, TlsReloadTiming } from './tls.js';

/** How often Node checks its header and request time-outs on the service's connections. */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

/**
 * Connections accepted elsewhere (by `kurel serve`'s supervisor, which owns the listening
 * socket): `url` is where they were accepted, and `connect` hands each one to `accept`.
 */
export interface HandedConnections {
  url: string;
  connect(accept: (socket: Socket) => void): void;
}

/** What a server serves: a listener and the parts of the service it runs with (an app, or app-core.ts's parts before express has loaded). */
export type ServedApp = Pick<KurelApp, 'listener' | 'state' | 'limits' | 'logger' | 'metrics'>;

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
 * Serves an app on `host:port` (port 0 picks a free one), or on the connections `handed` hands
 * it, over HTTPS only when `tls` is given; resolves once it listens (or takes connections).
 */
export async function startServer(
  kurel: ServedApp,
  options: { host: string; port: number; tls?: TlsOptions; handed?: HandedConnections | undefined },
): Promise<RunningServer> {
  const { listener, state, limits } = kurel;
  // Node checks its header and request time-outs at this interval (30 s unless told).
  const connectionsCheckingInterval = CONNECTIONS_CHECKING_INTERVAL_MS;
  let server: Server;
  // TLS (node:https and the reload machinery) loads only for a service that serves it.
  if (options.tls) {
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
  const { handed } = options;
  /** The connections handed to this server that are still open (a server that never listened does not count them). */
  const open = new Set<Socket>();
  /** Set once the drain has closed the listening socket: it then ends when the last handed connection closes. */
  let drained: (() => void) | undefined;
  let url: string;
  if (handed) {
    // What listening would start: Node's time-outs on the connections, and the TLS files' watch.
    server.emit('listening');
    handed.connect((socket) => {
      open.add(socket);
      socket.once('close', () => {
        open.delete(socket);
        if (open.size === 0) drained?.();
      });
      server.emit('connection', socket);
      // A socket accepted paused (so the supervisor read none of it) reads from here on.
      socket.resume();
    });
    url = handed.url;
  } else {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    url = `${options.tls ? 'https' : 'http'}://${host}:${address.port}`;
  }
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
      // already sent on them; the listening socket alone is closed here. Handed connections
      // are not the server's to count: the drain ends once the last one has closed, those
      // handed after the drain began included (they are served as the others).
      NetServer.prototype.close.call(server, () => {
        drained = finish;
        if (open.size === 0) finish();
      });
      quiet.closeQuiet();
    });
    return stopping;
  };
  return { server, url, shutdown };
}
