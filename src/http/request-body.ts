// What a request body is, without express: its kind from its media type, and the bytes read-body.ts
// left on the request. The routes answered before express (routes/direct-routes.ts) use it before
// the express stack has loaded (docs/service.md "During start").
import type { Request } from 'express';
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
