import express, { type Request, type RequestHandler } from 'express';
import { HttpProblem } from './problem.js';

/** How a request body is to be read. */
export type BodyKind = 'json' | 'yaml';

const MEDIA_TYPES: Readonly<Record<string, BodyKind>> = {
  'application/json': 'json',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
};

/** The media types a kind of body is accepted as. */
export function mediaTypesOf(kinds: readonly BodyKind[]): string[] {
  return Object.keys(MEDIA_TYPES).filter((type) => kinds.includes(MEDIA_TYPES[type]!));
}

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

/** The body bytes `readBody` left on the request (empty when there was none). */
export function bodyBytes(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

/**
 * Reads a `Content-Type` header for a route that accepts `accepted`: the kind of body, or the
 * 415 problem that refuses it (the only charset accepted is UTF-8). Clients send the same few
 * values over and over; each is parsed once.
 */
export function mediaTypeReader(accepted: readonly BodyKind[]): (header: string | undefined) => BodyKind | HttpProblem {
  const verdicts = new Map<string, BodyKind | HttpProblem>();
  return (header) => {
    const key = header ?? '';
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      try {
        verdict = parseBodyKind(header, accepted);
      } catch (err) {
        if (!(err instanceof HttpProblem)) throw err;
        verdict = err;
      }
      if (verdicts.size >= 64) verdicts.clear();
      verdicts.set(key, verdict);
    }
    return verdict;
  };
}

function parseBodyKind(header: string | undefined, accepted: readonly BodyKind[]): BodyKind {
  const expected = mediaTypesOf(accepted).join(', ');
  if (!header) throw new HttpProblem(415, `the request has no Content-Type; expected one of ${expected}`);
  const [type = '', ...parameters] = header.split(';');
  const mediaType = type.trim().toLowerCase();
  const kind = MEDIA_TYPES[mediaType];
  if (kind === undefined || !accepted.includes(kind)) {
    throw new HttpProblem(415, `media type ${JSON.stringify(mediaType)} is not accepted here; expected one of ${expected}`);
  }
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value.trim().replace(/^"|"$/g, '').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') throw new HttpProblem(415, `charset ${JSON.stringify(charset)} is not accepted; send UTF-8`);
  }
  return kind;
}
