import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// The latest request read on each connection; a pipelining client may have sent several.
const latestOn = new WeakMap<Socket, IncomingMessage>();

/**
 * Once shutdown has begun (`draining()`), closes each connection after its last answer rather
 * than its next one: the answer to the latest request read on the connection says `Connection:
 * close`, and answers to requests read before it (pipelined) go out on a connection kept open.
 * Closing after any earlier answer would drop the requests already received behind it. Decided
 * when the headers go out, since shutdown may begin while a request is being handled.
 */
export function closeAfterLastAnswer(req: IncomingMessage, res: ServerResponse, draining: () => boolean): void {
  const socket = req.socket;
  latestOn.set(socket, req);
  // Node writes the headers through writeHead, also for an implicit head (res.end without one):
  // the one moment both the drain and the connection's later requests are known.
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (draining() && latestOn.get(socket) === req && !this.headersSent) this.setHeader('Connection', 'close');
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}
