import { isUtf8 } from 'node:buffer';
import { HttpProblem } from './problem.js';

// Apart from read-body.ts, which needs express: the worker threads decode bodies too, and never load express.

/** Decodes a JSON body: UTF-8 (a leading byte order mark is dropped), then JSON.parse; 400 when it cannot be decoded. */
export function decodeJsonBody(bytes: Uint8Array): { text: string; data: unknown } {
  if (bytes.length === 0) throw new HttpProblem(400, 'the request body is empty; expected a JSON document');
  if (!isUtf8(bytes)) throw new HttpProblem(400, 'the request body is not valid UTF-8');
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { text, data: JSON.parse(text) };
  } catch (err) {
    throw new HttpProblem(400, `the request body is not valid JSON: ${(err as Error).message}`);
  }
}
