import { compareBytes } from '../core/data.js';
import { VERSION } from '../core/package-version.js';
import { sha256Digest } from '../core/sha256.js';
import type { Catalogue } from './catalogue.js';

const digests = new WeakMap<Catalogue, string>();

/**
 * The lines a registry digest is taken over (docs/versions.md): `def NAME@VERSION DIGEST` per
 * definition version (`-` for an unversioned one), `handler TYPE@VERSION SOURCE` per handler
 * (`-` without a version; SOURCE is `builtin` or the plugin module as given) and
 * `kurel@VERSION`, sorted byte-wise.
 */
export function registryLines(catalogue: Catalogue): string[] {
  const lines = [`kurel@${VERSION}`];
  for (const entry of catalogue.listDefinitions()) lines.push(`def ${entry.name}@${entry.version ?? '-'} ${entry.digest}`);
  for (const { handler, source } of catalogue.listHandlers()) {
    lines.push(`handler ${handler.type}@${handler.version ?? '-'} ${source === 'builtin' ? 'builtin' : source.slice('plugin:'.length)}`);
  }
  return lines.sort(compareBytes);
}

/**
 * The registry digest of what a service serves: `sha256:` and the hex SHA-256 of
 * {@link registryLines}, each ended by a newline. Two replicas serve the same definitions,
 * handlers and kurel exactly when their digests are equal. Computed once per catalogue.
 */
export function registryDigest(catalogue: Catalogue): string {
  let digest = digests.get(catalogue);
  if (!digest) {
    const text = registryLines(catalogue)
      .map((line) => `${line}\n`)
      .join('');
    digest = sha256Digest(text);
    digests.set(catalogue, digest);
  }
  return digest;
}
