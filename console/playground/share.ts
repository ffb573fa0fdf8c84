/**
 * Packs a profile's text into a URL fragment and back: UTF-8, raw DEFLATE (the browser's own
 * CompressionStream, so no library), base64url. The fragment never reaches a server.
 */

/** The largest text a link unpacks to: the service's body limit, so nothing larger is ever checked. */
export const MAX_SHARED_BYTES = 1024 * 1024;

/** A link that cannot be unpacked: damaged, or larger than {@link MAX_SHARED_BYTES}. */
export class ShareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShareError';
  }
}

/** The text compressed and encoded as base64url (no padding). */
export async function packText(text: string): Promise<string> {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return toBase64Url(bytes);
}

/** The text {@link packText} packed; throws {@link ShareError} for anything else. */
export async function unpackText(packed: string): Promise<string> {
  const bytes = fromBase64Url(packed);
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      // Stop reading at the limit rather than after: a small link may unpack to gigabytes.
      if (size > MAX_SHARED_BYTES) {
        await reader.cancel();
        throw new ShareError(`the shared profile is larger than ${MAX_SHARED_BYTES} bytes`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof ShareError) throw err;
    throw new ShareError('the shared link is damaged: its profile cannot be unpacked');
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw new ShareError('the shared link is damaged: its profile is not UTF-8 text');
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ShareError('the shared link is damaged: it holds characters base64url does not use');
  let binary: string;
  try {
    binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    throw new ShareError('the shared link is damaged: it is cut short');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
