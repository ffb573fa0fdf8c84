import { createRequire } from 'node:module';

type CreateHash = typeof import('node:crypto').createHash;
let createHash: CreateHash | undefined;

/**
 * `sha256:` and the hex SHA-256 of a text's UTF-8 bytes. `node:crypto` is loaded on first use:
 * a lint or build without a lockfile computes no digest, and loading it cost about 7 ms of every
 * start (DESIGN §6).
 */
export function sha256Digest(text: string): string {
  createHash ??= (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash;
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}
