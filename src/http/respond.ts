import type { ServerResponse } from 'node:http';
import { compactJson } from '../core/json-text.js';

/**
 * A response the service answers: express's, or node:http's on the routes answered before
 * express (edge/direct-routes.ts), which carries the same `locals` (the request id, whether it
 * has been answered).
 */
export type Answerable = ServerResponse & { locals: Record<string, unknown> };

/** Answers with a compact JSON body; integers beyond 2^53 (kept exact as bigint) keep every digit. */
export function sendJson(res: Answerable, status: number, value: unknown, mediaType = 'application/json'): void {
  sendText(res, status, mediaType, compactJson(value));
}

/** Answers with a UTF-8 text body (HEAD gets the headers only); bypasses express's `send`, which only adds work here. */
export function sendText(res: Answerable, status: number, mediaType: string, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${mediaType}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  endInTurn(res, text);
}

/** Answers with a body already encoded as UTF-8 (by a worker, say). */
export function sendBytes(res: Answerable, status: number, mediaType: string, body: Uint8Array): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${mediaType}; charset=utf-8`);
  res.setHeader('Content-Length', body.byteLength);
  endInTurn(res, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}

/** True once an answer has been given to `res`, even if it is still waiting for its turn on the connection. */
export function isAnswered(res: Answerable): boolean {
  return res.headersSent || res.locals['answered'] === true;
}

/**
 * Ends the response with `body` when it is its turn on the connection. A client that pipelines
 * has its answers sent in order; one ready before those ahead of it waits, so that its headers
 * (`Connection: close` during a drain, above all) are decided when they go out. The first answer
 * given wins.
 */
export function endInTurn(res: Answerable, body: string | Buffer): void {
  if (res.locals['answered'] === true) return;
  res.locals['answered'] = true;
  if (res.socket || res.headersSent) res.end(body);
  else res.once('socket', () => res.end(body));
}
