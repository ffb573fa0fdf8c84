import { semver } from '../core/versions.js';

/** A reference to definitions in an OCI registry, as docs/registries.md writes it. */
export interface OciReference {
  /** As written, e.g. `oci://localhost:5000/acme/defs:^1.2`. */
  readonly text: string;
  /** The registry's host, with its port when written: `localhost:5000`. */
  readonly registry: string;
  /** The repository within the registry: `acme/defs`. */
  readonly repository: string;
  /** An exact tag, or null. */
  readonly tag: string | null;
  /** A SemVer range written in place of the tag, or null. */
  readonly range: string | null;
  /** `sha256:…` when written with `@`, or null. */
  readonly digest: string | null;
}

const SCHEME = 'oci://';
// The distribution spec's grammar of a repository name, a tag and a host.
const REPOSITORY = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;
/** A SHA-256 digest as OCI writes it. */
export const SHA256_DIGEST = /^sha256:[a-f0-9]{64}$/;
const MAX_REFERENCE = 1024;

/** True when a definitions entry names an OCI source (`oci://…`) rather than a folder. */
export function isOciReference(text: string): boolean {
  return text.startsWith(SCHEME);
}

/**
 * Parses `oci://HOST[:PORT]/REPOSITORY[:TAG | :RANGE | @sha256:HEX]` (docs/registries.md). After
 * the colon, an exact SemVer version (a leading `v` allowed) or any text that is not a SemVer
 * range is a tag; a range (`^1.2`, `~1.4`, `>=1.0 <2`, `1.x`, `1.2`) is resolved against the tags.
 */
export function parseOciReference(text: string): OciReference | { readonly error: string } {
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  const expected = 'expected oci://HOST[:PORT]/REPOSITORY[:TAG|:RANGE|@sha256:DIGEST]';
  if (!isOciReference(text)) return { error: `${shown} is not an OCI reference: ${expected}` };
  if (text.length > MAX_REFERENCE) return { error: `${shown} is longer than ${MAX_REFERENCE} characters` };
  const rest = text.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return { error: `${shown} names no repository: ${expected}` };
  const registry = rest.slice(0, slash);
  if (!HOST.test(registry)) return { error: `${shown} has no valid registry host (${JSON.stringify(registry)}): ${expected}` };
  let path = rest.slice(slash + 1);
  let digest: string | null = null;
  const at = path.indexOf('@');
  if (at >= 0) {
    digest = path.slice(at + 1);
    path = path.slice(0, at);
    if (!SHA256_DIGEST.test(digest)) return { error: `${shown} has an invalid digest: expected @sha256: and 64 lowercase hex digits` };
  }
  let tag: string | null = null;
  let range: string | null = null;
  const colon = path.indexOf(':');
  const repository = colon >= 0 ? path.slice(0, colon) : path;
  if (!REPOSITORY.test(repository)) {
    return { error: `${shown} has an invalid repository ${JSON.stringify(repository)}: lowercase letters, digits and separators (. _ - /)` };
  }
  if (colon >= 0) {
    const after = path.slice(colon + 1);
    const kind = classifyTag(after);
    if (kind === 'invalid') return { error: `${shown} has neither a tag nor a SemVer range after the colon: ${JSON.stringify(after)}` };
    if (kind === 'tag') tag = after;
    else range = after;
    if (range !== null && digest !== null) return { error: `${shown} writes both a range and a digest: write one of them` };
  }
  return { text, registry, repository, tag, range, digest };
}

function classifyTag(text: string): 'tag' | 'range' | 'invalid' {
  if (text === '') return 'invalid';
  const bare = text.replace(/^v/, '');
  if (TAG.test(text) && semver().valid(bare) === bare) return 'tag';
  if (text.length <= 256 && /^[0-9^~<>=*xX|. -]/.test(text) && semver().validRange(text) !== null) return 'range';
  return TAG.test(text) ? 'tag' : 'invalid';
}

/** The text of a reference by digest: `oci://HOST/REPO@sha256:…` (no tag, no range). */
export function referenceByDigest(reference: OciReference, digest: string): string {
  return `${SCHEME}${reference.registry}/${reference.repository}@${digest}`;
}
