import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { HttpProblem } from './problem.js';

/**
 * Who may `POST /v1/reload` (docs/service.md): with an admin token (`--admin-token-file`), only a
 * request carrying `Authorization: Bearer <token>`, from anywhere, loopback too; without one,
 * only callers on a loopback address. Anyone else gets 403. A reverse proxy on the same host
 * makes every caller a loopback one: give the service a token then.
 */
export function reloadAccess(adminToken: string | undefined): RequestHandler {
  const expected = adminToken === undefined ? undefined : Buffer.from(adminToken, 'utf8');
  return (req, _res, next) => {
    if (expected) {
      const given = bearerToken(req.headers.authorization);
      if (given === undefined)
        throw new HttpProblem(403, 'reloading needs the admin token: send Authorization: Bearer <token>, the token in --admin-token-file');
      if (!sameBytes(Buffer.from(given, 'utf8'), expected)) throw new HttpProblem(403, 'the bearer token is not the admin token in --admin-token-file');
    } else if (!isLoopback(req.socket.remoteAddress)) {
      throw new HttpProblem(
        403,
        `reloading is open to loopback callers only, and this request came from ${req.socket.remoteAddress ?? 'an unknown address'}; give kurel serve --admin-token-file to reload from elsewhere`,
      );
    }
    next();
  };
}

/** The token of an `Authorization: Bearer <token>` header; undefined for any other header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(header ?? '');
  return match?.[1];
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback (::ffff:127.x.y.z). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

// Compared in constant time, so the answer's timing tells nothing of how much of a guess was right.
function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}
