import { createRequire } from 'node:module';

type CreateHash = typeof import('node:crypto').createHash;
let createHash: CreateHash | undefined;

/**
 * `sha256:` and the hex SHA-256 of a text's UTF-8 bytes. `node:crypto` is loaded on first use:
 * a lint or build without a lockfile computes no digest, and loading it cost about 7 ms of every
 * start (docs/performance.md).
 */
export function sha256Digest(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/** The hex SHA-256 of bytes, or of a text's UTF-8 bytes; `node:crypto` is loaded on first use. */
export function sha256Hex(content: string | Uint8Array): string {
  createHash ??= (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash;
  return createHash('sha256').update(content).digest('hex');
}
