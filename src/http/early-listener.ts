import { createServer, type RequestListener, type Server } from 'node:http';

/** How often Node checks its header and request time-outs on the service's connections. */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

/** A listening server whose request handler can be swapped once the service is ready for it. */
export interface EarlyListener {
  server: Server;
  /** Hands every request from now on to `listener`. */
  serve(listener: RequestListener): void;
}

const STARTING_PROBLEM = JSON.stringify({
  type: 'about:blank',
  title: 'Service Unavailable',
  status: 503,
  detail: 'the service is starting; retry shortly',
});

/**
 * Listens on `host:port` with node:http alone, before the HTTP stack loads, so that `GET
 * /healthz` answers 200 as soon as the process runs; `GET /readyz` says `starting` (503) and
 * every other request is 503 with `Retry-After: 1` until {@link EarlyListener.serve} hands the
 * requests to the service. Resolves to undefined when it cannot listen (the service then says
 * why when it tries again).
 */
export function listenEarly(host: string, port: number): Promise<EarlyListener | undefined> {
  let listener: RequestListener = (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end('{"status":"ok"}');
    } else if (req.method === 'GET' && path === '/readyz') {
      res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8' }).end('{"status":"starting"}');
    } else {
      res.writeHead(503, { 'Content-Type': 'application/problem+json; charset=utf-8', 'Retry-After': '1' }).end(STARTING_PROBLEM);
    }
  };
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS }, (req, res) => listener(req, res));
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      resolve({
        server,
        serve(next) {
          listener = next;
        },
      });
    });
  });
}
