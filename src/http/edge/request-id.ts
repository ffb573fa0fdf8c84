import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Answerable } from '../respond.js';

const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives the request its id, the client's `X-Request-Id` when it is a plain token and a new UUID
 * otherwise, echoes it in the answer and keeps it for problems and the log.
 */
export function assignRequestId(req: IncomingMessage, res: Answerable): string {
  const given = req.headers['x-request-id'];
  const requestId = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
  res.locals['requestId'] = requestId;
  res.setHeader('X-Request-Id', requestId);
  return requestId;
}
