import express, { type RequestHandler } from 'express';
import { HttpProblem } from './problem.js';
import { type BodyKind, mediaTypeReader } from './request-body.js';

export { type BodyKind, bodyBytes } from './request-body.js';

/**
 * Checks the request's media type against what the route accepts (415 otherwise; the only
 * charset accepted is UTF-8), then reads the raw body up to `maxBytes` (413 beyond: at once,
 * before any byte is read, when the declared `Content-Length` is larger, and then the connection
 * is closed rather than drained). The kind is left in `res.locals.bodyKind` and the bytes in
 * `req.body`.
 */
export function readBody(accepted: readonly BodyKind[], maxBytes: number): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit: maxBytes });
  const kindOf = mediaTypeReader(accepted);
  const checkHead: RequestHandler = (req, res, next) => {
    const kind = kindOf(req.headers['content-type']);
    if (kind instanceof HttpProblem) throw kind;
    res.locals['bodyKind'] = kind;
    const declared = req.headers['content-length'];
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
      throw new HttpProblem(413, `the request body is larger than the limit of ${maxBytes} bytes`, { Connection: 'close' }, { limitBytes: maxBytes });
    }
    next();
  };
  return [checkHead, raw];
}
