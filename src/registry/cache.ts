import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareText } from '../core/data.js';
import { sha256Hex } from '../core/sha256.js';
import { SHA256_DIGEST } from './reference.js';

const MAX_TAG_INDEX_BYTES = 4 * 1024 * 1024;

export { defaultCacheDir } from '../files/cache-dir.js';

/**
 * The content-addressed store of registry blobs under `<cache>/oci/`: each blob is a file named
 * by its digest, verified on every read (a file that no longer matches is removed and counts as
 * absent) and written atomically (a file of its own, renamed into place), so runs sharing the
 * folder never see half a blob. A failed write only costs the cache, never the run.
 */
export class BlobCache {
  private readonly root: string;

  constructor(dir: string) {
    this.root = join(dir, 'oci');
  }

  private pathOf(digest: string): string {
    return join(this.root, 'blobs', 'sha256', digest.slice('sha256:'.length));
  }

  /** The blob's bytes when it is cached and still has its digest; else undefined. */
  async read(digest: string): Promise<Buffer | undefined> {
    if (!SHA256_DIGEST.test(digest)) return undefined;
    const path = this.pathOf(digest);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      return undefined;
    }
    if (`sha256:${sha256Hex(bytes)}` === digest) return bytes;
    await rm(path, { force: true }).catch(() => undefined);
    return undefined;
  }

  /** Stores a blob under its digest; `bytes` must have that digest. */
  async write(digest: string, bytes: Uint8Array): Promise<void> {
    if (!SHA256_DIGEST.test(digest) || `sha256:${sha256Hex(bytes)}` !== digest) return;
    await this.writeAtomically(this.pathOf(digest), bytes);
  }

  /** The tags of a repository this cache has seen resolved, and the manifest digest of each. */
  async readTags(registry: string, repository: string): Promise<Record<string, string>> {
    try {
      const bytes = await readFile(this.tagIndexPath(registry, repository));
      if (bytes.length > MAX_TAG_INDEX_BYTES) return {};
      const data: unknown = JSON.parse(bytes.toString('utf8'));
      if (data === null || typeof data !== 'object' || Array.isArray(data)) return {};
      return Object.fromEntries(
        Object.entries(data).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && SHA256_DIGEST.test(entry[1])),
      );
    } catch {
      return {};
    }
  }

  /** Records that `tag` named the manifest `digest` when last resolved. */
  async writeTag(registry: string, repository: string, tag: string, digest: string): Promise<void> {
    const tags = await this.readTags(registry, repository);
    if (tags[tag] === digest) return;
    tags[tag] = digest;
    const sorted = Object.fromEntries(Object.entries(tags).sort(([a], [b]) => compareText(a, b)));
    await this.writeAtomically(this.tagIndexPath(registry, repository), Buffer.from(`${JSON.stringify(sorted, null, 2)}\n`));
  }

  private tagIndexPath(registry: string, repository: string): string {
    return join(this.root, 'tags', `${sha256Hex(`${registry}/${repository}`)}.json`);
  }

  private async writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
    const folder = join(path, '..');
    const temporary = join(folder, `.${randomBytes(8).toString('hex')}.tmp`);
    try {
      await mkdir(folder, { recursive: true });
      await writeFile(temporary, bytes, { flag: 'wx' });
      await rename(temporary, path);
    } catch {
      await rm(temporary, { force: true }).catch(() => undefined);
    }
  }
}
