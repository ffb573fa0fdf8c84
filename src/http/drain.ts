import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection must have been without a request before a draining server closes it. */
export const DRAIN_QUIET_MS = 250;

/** Node's list of a server's connections (internal to `node:http`; read only where present). */
interface ConnectionList {
  idle(): { socket: Socket }[];
}

/**
 * Follows when each connection of `server` last began or finished a request, so a draining
 * server closes only connections that have been quiet for a while: a keep-alive client sends its
 * next request right after an answer, and closing its connection then would reset a request
 * already on the wire. Returns the way to close the quiet ones.
 */
export function quietConnections(server: Server, quietMs = DRAIN_QUIET_MS): { closeQuiet(): void } {
  const lastActive = new WeakMap<Socket, number>();
  const candidates = new WeakMap<Socket, number>();
  server.on('connection', (socket: Socket) => lastActive.set(socket, performance.now()));
  server.on('request', (req, res) => {
    const socket = req.socket;
    lastActive.set(socket, Number.POSITIVE_INFINITY);
    res.once('close', () => lastActive.set(socket, performance.now()));
  });
  server.on('secureConnection', (socket: Socket) => lastActive.set(socket, performance.now()));
  const connections = (): ConnectionList | undefined => {
    const symbol = Object.getOwnPropertySymbols(server).find((s) => s.description === 'http.server.connections');
    const list = symbol === undefined ? undefined : (server as unknown as Record<symbol, unknown>)[symbol];
    return typeof (list as ConnectionList | undefined)?.idle === 'function' ? (list as ConnectionList) : undefined;
  };
  return {
    closeQuiet() {
      // Run after the event loop has read what is waiting on the sockets: a request whose bytes
      // are in the kernel's buffer is parsed first and its connection is no longer idle.
      setImmediate(() => {
        const list = connections();
        if (!list) {
          server.closeIdleConnections();
          return;
        }
        const now = performance.now();
        for (const { socket } of list.idle()) {
          const message = (socket as Socket & { _httpMessage?: { finished: boolean } | null })._httpMessage;
          if (message && !message.finished) continue;
          const active = lastActive.get(socket) ?? 0;
          if (now - active < quietMs) continue;
          // Closed at the next sweep if still quiet then: a request written just as this sweep
          // ran is read by the event loop in between.
          if (candidates.get(socket) === active) socket.destroy();
          else candidates.set(socket, active);
        }
      });
    },
  };
}
