import type { Response } from 'express';
import { stringifyJson } from '../core/json-text.js';

/** Answers with a compact JSON body; integers beyond 2^53 (kept exact as bigint) keep every digit. */
export function sendJson(res: Response, status: number, value: unknown, mediaType = 'application/json'): void {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    text = stringifyJson(value, 0);
  }
  sendText(res, status, mediaType, text);
}

/** Answers with a UTF-8 text body (HEAD gets the headers only); bypasses express's `send`, which only adds work here. */
export function sendText(res: Response, status: number, mediaType: string, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${mediaType}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Answers with a body already encoded as UTF-8 (by a worker, say). */
export function sendBytes(res: Response, status: number, mediaType: string, body: Uint8Array): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${mediaType}; charset=utf-8`);
  res.setHeader('Content-Length', body.byteLength);
  res.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}
