import { LIMITS } from '../core/input-limits.js';

/**
 * Reads standard input to its end, or until it holds more than the size limit: the rest is
 * never read (docs/profiles.md), so an endless input (`< /dev/zero`) ends the read too.
 */
export async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size > LIMITS.maxFileBytes) break;
  }
  return Buffer.concat(chunks);
}
