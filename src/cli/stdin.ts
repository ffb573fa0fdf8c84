import { LIMITS } from '../core/limits.js';

/** Reads all of standard input, stopping early past the size limit. */
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
