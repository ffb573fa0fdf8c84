import {
  ARTIFACT_LIMITS,
  type ArtifactFile,
  buildManifest,
  type Descriptor,
  digestOf,
  EMPTY_CONFIG,
  MEDIA_TYPES,
  packLayer,
  readManifest,
  unpackLayer,
} from './artifact.js';
import { BlobCache, defaultCacheDir } from './cache.js';
import { type Answer, RegistryClient } from './client.js';
import { RegistryFailure, type SourceFailureCode } from './failure.js';
import { type OciReference, parseOciReference, referenceByDigest } from './reference.js';
import { resolveTagRange, versionOfTag } from './tags.js';

/** How a source is resolved (docs/registries.md). */
export interface SourceOptions {
  /** Never touch the network: what is not cached is `registry-unreachable`. */
  readonly offline?: boolean;
  /** Hosts allowed over plain HTTP, beside loopback hosts. */
  readonly insecureRegistries?: readonly string[];
  /** The cache folder; by default from `KUREL_CACHE_DIR`, `XDG_CACHE_HOME` or `~/.cache/kurel`. */
  readonly cacheDir?: string;
  /** `DOCKER_CONFIG`, `KUREL_REGISTRY_USERNAME`/`PASSWORD`, `HOME`, …; `process.env` when absent. */
  readonly env?: NodeJS.ProcessEnv;
  /** The lockfile's entry: fetch by this digest, never by tag. */
  readonly locked?: { readonly tag: string | null; readonly digest: string };
  /** Where progress goes (a terminal), or nowhere. */
  readonly progress?: NodeJS.WritableStream;
  /** Connect and read timeout in milliseconds (30 s by default). */
  readonly timeoutMs?: number;
}

/** A file of a source: its relative path in the artifact, `/`-separated. */
export interface SourceFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** A source resolved and read: the tag and manifest digest it resolved to, and its files, sorted by name. */
export interface ResolvedSource {
  /** The reference as written. */
  readonly reference: string;
  /** The tag resolved; null when written by digest or locked without one. */
  readonly tag: string | null;
  /** The manifest's digest, `sha256:…`. */
  readonly digest: string;
  readonly files: readonly SourceFile[];
}

/** Why a source could not be resolved, fetched or read; the message names the reference and never holds a secret. */
export interface SourceFailure {
  readonly code: Exclude<SourceFailureCode, 'version-immutable'>;
  readonly message: string;
}

/** True for a {@link SourceFailure} (or a push's failure) rather than a result. */
export function isSourceFailure(value: object): value is SourceFailure | PushFailure {
  return 'code' in value && 'message' in value && !('files' in value);
}

const TAG_PAGE = 1000;
const MAX_TAGS_A_PAGE = 10_000;
const MAX_TAG_PAGES = 100;
const MAX_TAG_PAGE_BYTES = 4 * 1024 * 1024;

/**
 * Resolves a reference (a tag, a SemVer range or a digest; `options.locked` wins) and returns
 * its verified files (docs/registries.md). A manifest or blob asked for by digest is read from
 * the cache when it is there, with no network at all. Never throws for what the registry,
 * the network or the artifact does: each is a {@link SourceFailure}.
 */
export async function resolveSource(reference: string, options: SourceOptions): Promise<ResolvedSource | SourceFailure> {
  const parsed = parseOciReference(reference);
  if ('error' in parsed) return { code: 'usage', message: parsed.error };
  try {
    return await resolveParsed(parsed, options);
  } catch (err) {
    if (err instanceof RegistryFailure) return { code: err.code === 'version-immutable' ? 'artifact-invalid' : err.code, message: err.message };
    throw err;
  }
}

/** The file name a definition loaded from a source carries: `oci://HOST/REPO@sha256:…#redis-sidecar.yaml`. */
export function sourceFileName(source: ResolvedSource, file: SourceFile): string {
  const parsed = parseOciReference(source.reference);
  const base = 'error' in parsed ? source.reference.replace(/[:@].*$/, '') : referenceByDigest(parsed, source.digest);
  return `${base}#${file.name}`;
}

async function resolveParsed(reference: OciReference, options: SourceOptions): Promise<ResolvedSource> {
  const env = options.env ?? process.env;
  const cache = new BlobCache(options.cacheDir ?? defaultCacheDir(env));
  let client: RegistryClient | undefined;
  const online = (): RegistryClient => {
    if (options.offline)
      throw new RegistryFailure('registry-unreachable', `${reference.text}: not in the cache, and --offline forbids fetching it from ${reference.registry}`);
    client ??= new RegistryClient(reference.registry, reference.repository, reference.text, {
      env,
      insecureRegistries: options.insecureRegistries,
      timeoutMs: options.timeoutMs,
    });
    return client;
  };
  let tag: string | null;
  let digest: string;
  let manifestBytes: Buffer | undefined;
  if (options.locked !== undefined) {
    ({ tag, digest } = options.locked);
  } else if (reference.digest !== null) {
    tag = reference.tag;
    digest = reference.digest;
  } else {
    tag = reference.tag;
    if (options.offline) {
      const known = await cache.readTags(reference.registry, reference.repository);
      tag ??= resolveTagRange(Object.keys(known), reference.range) ?? null;
      const cached = tag === null ? undefined : known[tag];
      if (cached === undefined) online();
      digest = cached as string;
    } else {
      if (tag === null) {
        const tags = await listTags(online());
        tag = resolveTagRange(tags, reference.range) ?? null;
        if (tag === null) {
          const wanted = reference.range === null ? 'no tag is a SemVer release' : `no SemVer tag matches ${reference.range}`;
          throw new RegistryFailure('version-not-found', `${reference.text}: ${wanted} (${describeTags(tags)})`);
        }
      }
      const fetched = await fetchManifest(online(), tag, reference.text);
      manifestBytes = fetched.bytes;
      digest = fetched.digest;
      await cache.write(digest, manifestBytes);
      await cache.writeTag(reference.registry, reference.repository, tag, digest);
    }
  }
  manifestBytes ??= await cache.read(digest);
  if (manifestBytes === undefined) {
    manifestBytes = (await fetchManifest(online(), digest, reference.text)).bytes;
    await cache.write(digest, manifestBytes);
  }
  const manifest = readManifest(manifestBytes, reference.text);
  let layer = await cache.read(manifest.layer.digest);
  if (layer === undefined) {
    layer = await fetchBlob(online(), manifest.layer, reference.text, options.progress);
    await cache.write(manifest.layer.digest, layer);
  }
  const files = await unpackLayer(layer, reference.text);
  return { reference: reference.text, tag, digest, files };
}

function describeTags(tags: readonly string[]): string {
  const versions = tags.filter((tag) => versionOfTag(tag) !== undefined);
  if (versions.length === 0) return 'the repository has no SemVer tags';
  const shown = versions.slice(0, 10).join(', ');
  return `tags: ${shown}${versions.length > 10 ? `, and ${versions.length - 10} more` : ''}`;
}

/** Every tag of the repository, following `Link` pages: at most 100 pages of 10,000 tags. */
async function listTags(client: RegistryClient): Promise<string[]> {
  const tags: string[] = [];
  let target: string | undefined = `/v2/${client.repository}/tags/list?n=${TAG_PAGE}`;
  for (let page = 0; target !== undefined; page++) {
    if (page === MAX_TAG_PAGES)
      throw new RegistryFailure('artifact-invalid', `${client.registry}/${client.repository}: the tag list has more than ${MAX_TAG_PAGES} pages`);
    const answer: Answer = await client.send({ method: 'GET', target, maxBytes: MAX_TAG_PAGE_BYTES, what: 'a page of the tag list' });
    if (answer.status === 404) throw new RegistryFailure('version-not-found', `${client.registry}/${client.repository}: the repository does not exist`);
    expectStatus(answer, [200], client, 'listing tags');
    let data: unknown;
    try {
      data = JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new RegistryFailure('artifact-invalid', `${client.registry}/${client.repository}: the tag list is not JSON`);
    }
    const pageTags = (data as { tags?: unknown } | null)?.tags ?? [];
    if (!Array.isArray(pageTags) || !pageTags.every((tag) => typeof tag === 'string')) {
      throw new RegistryFailure('artifact-invalid', `${client.registry}/${client.repository}: the tag list is not a list of strings`);
    }
    if (pageTags.length > MAX_TAGS_A_PAGE) {
      throw new RegistryFailure(
        'artifact-invalid',
        `${client.registry}/${client.repository}: a page of the tag list has ${pageTags.length} tags, more than ${MAX_TAGS_A_PAGE}`,
      );
    }
    tags.push(...(pageTags as string[]));
    target = nextPage(answer.headers.link);
  }
  return tags;
}

function nextPage(link: string | string[] | undefined): string | undefined {
  const text = Array.isArray(link) ? link.join(',') : link;
  if (text === undefined) return undefined;
  const match = /<([^>]*)>\s*;\s*rel="?next"?/i.exec(text);
  return match?.[1];
}

async function fetchManifest(client: RegistryClient, tagOrDigest: string, reference: string): Promise<{ bytes: Buffer; digest: string }> {
  const answer = await client.send({
    method: 'GET',
    target: `/v2/${client.repository}/manifests/${tagOrDigest}`,
    headers: { Accept: MEDIA_TYPES.manifest },
    maxBytes: ARTIFACT_LIMITS.manifestBytes,
    what: 'the manifest',
  });
  if (answer.status === 404) {
    throw new RegistryFailure(
      'version-not-found',
      `${reference}: ${tagOrDigest.startsWith('sha256:') ? 'no manifest' : 'no tag'} ${tagOrDigest} in ${client.registry}/${client.repository}`,
    );
  }
  expectStatus(answer, [200], client, `fetching the manifest ${tagOrDigest}`);
  const contentType = String(answer.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (contentType !== '' && contentType !== MEDIA_TYPES.manifest) {
    throw new RegistryFailure(
      'artifact-invalid',
      `${reference}: the manifest's media type is ${JSON.stringify(contentType)}, expected ${MEDIA_TYPES.manifest}`,
    );
  }
  const digest = digestOf(answer.body);
  if (tagOrDigest.startsWith('sha256:') && digest !== tagOrDigest) {
    throw new RegistryFailure('artifact-invalid', `${reference}: the manifest's digest is ${digest}, not the ${tagOrDigest} asked for`);
  }
  const announced = answer.headers['docker-content-digest'];
  if (typeof announced === 'string' && announced.startsWith('sha256:') && announced !== digest) {
    throw new RegistryFailure('artifact-invalid', `${reference}: the manifest's digest is ${digest}, not the ${announced} the registry announced`);
  }
  return { bytes: answer.body, digest };
}

async function fetchBlob(client: RegistryClient, blob: Descriptor, reference: string, progress: NodeJS.WritableStream | undefined): Promise<Buffer> {
  let shown = -1;
  const answer = await client.send({
    method: 'GET',
    target: `/v2/${client.repository}/blobs/${blob.digest}`,
    maxBytes: blob.size,
    what: `the blob ${blob.digest}`,
    onBytes:
      progress === undefined
        ? undefined
        : (received) => {
            const percent = blob.size === 0 ? 100 : Math.floor((received * 100) / blob.size);
            if (percent === shown) return;
            shown = percent;
            progress.write(`\rfetching ${reference}: ${percent}% of ${blob.size} bytes${percent === 100 ? '\n' : ''}`);
          },
  });
  if (answer.status === 404)
    throw new RegistryFailure('artifact-invalid', `${reference}: the blob ${blob.digest} is missing from ${client.registry}/${client.repository}`);
  expectStatus(answer, [200], client, `fetching the blob ${blob.digest}`);
  const digest = digestOf(answer.body);
  if (answer.body.length !== blob.size || digest !== blob.digest) {
    throw new RegistryFailure('artifact-invalid', `${reference}: the blob's digest is ${digest}, not the ${blob.digest} the manifest names`);
  }
  return answer.body;
}

function expectStatus(answer: Answer, expected: readonly number[], client: RegistryClient, doing: string): void {
  if (expected.includes(answer.status)) return;
  const detail = registryErrorCode(answer.body);
  throw new RegistryFailure(
    'registry-unreachable',
    `${client.registry}/${client.repository}: ${doing} answered HTTP ${answer.status}${detail ? ` (${detail})` : ''}`,
  );
}

/** The first error code of a distribution API error body (`MANIFEST_INVALID`), never its free text. */
function registryErrorCode(body: Buffer): string | undefined {
  try {
    const data = JSON.parse(body.toString('utf8')) as { errors?: { code?: unknown }[] };
    const code = data.errors?.[0]?.code;
    return typeof code === 'string' && /^[A-Z_]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** What a push may say beside the files: where they come from and when (docs/registries.md, "Artifact"). */
export interface PushOptions extends SourceOptions {
  /** `org.opencontainers.image.source`, when known. */
  readonly source?: string;
  /** `org.opencontainers.image.created`, only from `SOURCE_DATE_EPOCH`. */
  readonly created?: string;
}

/** A push done: the manifest's digest, and whether the tag already held exactly this. */
export interface PushResult {
  readonly reference: string;
  readonly digest: string;
  readonly unchanged: boolean;
}

/** Why a push failed; `version-immutable` when the tag holds other content. */
export interface PushFailure {
  readonly code: SourceFailureCode;
  readonly message: string;
}

/**
 * Pushes definition files as a kurel artifact under `reference`'s tag (a SemVer version),
 * reproducibly (docs/registries.md, "Commands"). A tag that already names the same manifest is
 * left as it is; one that names another is `version-immutable`: versions are immutable.
 */
export async function pushArtifact(reference: string, files: readonly ArtifactFile[], options: PushOptions): Promise<PushResult | PushFailure> {
  const parsed = parseOciReference(reference);
  if ('error' in parsed) return { code: 'usage', message: parsed.error };
  if (parsed.tag === null || parsed.digest !== null || versionOfTag(parsed.tag) === undefined) {
    const found = parsed.range ?? parsed.tag ?? parsed.digest ?? 'nothing';
    return { code: 'usage', message: `${reference}: push needs a SemVer version as the tag (oci://HOST/REPO:1.2.0), found ${found}` };
  }
  if (options.offline) return { code: 'usage', message: `${reference}: push reaches the registry, which --offline forbids` };
  const tag = parsed.tag;
  try {
    const layer = await packLayer(files);
    const annotations: Record<string, string> = { 'org.opencontainers.image.version': tag };
    if (options.source) annotations['org.opencontainers.image.source'] = options.source;
    if (options.created) annotations['org.opencontainers.image.created'] = options.created;
    const manifest = buildManifest(layer, annotations);
    const digest = digestOf(manifest);
    const env = options.env ?? process.env;
    const client = new RegistryClient(
      parsed.registry,
      parsed.repository,
      reference,
      { env, insecureRegistries: options.insecureRegistries, timeoutMs: options.timeoutMs },
      'pull,push',
    );
    const existing = await client.send({
      method: 'GET',
      target: `/v2/${parsed.repository}/manifests/${tag}`,
      headers: { Accept: MEDIA_TYPES.manifest },
      maxBytes: ARTIFACT_LIMITS.manifestBytes,
      what: 'the manifest',
    });
    if (existing.status === 200) {
      const existingDigest = digestOf(existing.body);
      if (existingDigest === digest) return { reference: referenceByDigest(parsed, digest), digest, unchanged: true };
      return {
        code: 'version-immutable',
        message: `${reference}: the tag ${tag} already names ${existingDigest}, other content than the ${digest} pushed; versions are immutable: push a new version`,
      };
    }
    if (existing.status !== 404) expectStatus(existing, [200, 404], client, `looking up the tag ${tag}`);
    await uploadBlob(client, EMPTY_CONFIG);
    await uploadBlob(client, layer);
    const put = await client.send({
      method: 'PUT',
      target: `/v2/${parsed.repository}/manifests/${tag}`,
      headers: { 'Content-Type': MEDIA_TYPES.manifest },
      body: manifest,
      maxBytes: 64 * 1024,
      what: 'the answer to the manifest',
    });
    expectStatus(put, [200, 201], client, `putting the manifest ${tag}`);
    const cache = new BlobCache(options.cacheDir ?? defaultCacheDir(env));
    await cache.write(digest, manifest);
    await cache.write(digestOf(layer), layer);
    await cache.writeTag(parsed.registry, parsed.repository, tag, digest);
    return { reference: referenceByDigest(parsed, digest), digest, unchanged: false };
  } catch (err) {
    if (err instanceof RegistryFailure) return { code: err.code, message: err.message };
    throw err;
  }
}

/** Uploads a blob unless the repository has it: `POST` an upload, then `PUT` it whole. */
async function uploadBlob(client: RegistryClient, bytes: Buffer): Promise<void> {
  const digest = digestOf(bytes);
  const head = await client.send({ method: 'HEAD', target: `/v2/${client.repository}/blobs/${digest}`, maxBytes: 0, what: 'the blob' });
  if (head.status === 200) return;
  const started = await client.send({ method: 'POST', target: `/v2/${client.repository}/blobs/uploads/`, maxBytes: 64 * 1024, what: 'the upload answer' });
  expectStatus(started, [202], client, 'starting an upload');
  const location = started.headers.location;
  if (location === undefined) throw new RegistryFailure('registry-unreachable', `${client.registry}/${client.repository}: the upload answer has no Location`);
  const target = `${location}${location.includes('?') ? '&' : '?'}digest=${encodeURIComponent(digest)}`;
  const put = await client.send({
    method: 'PUT',
    target,
    headers: { 'Content-Type': 'application/octet-stream' },
    body: bytes,
    maxBytes: 64 * 1024,
    what: 'the upload answer',
  });
  expectStatus(put, [201, 204], client, `uploading the blob ${digest}`);
}

/** The manifest digest a tag of a reference names now, asked of the registry (never the cache). */
export async function digestOfTag(reference: string, tag: string, options: SourceOptions): Promise<{ digest: string } | SourceFailure> {
  const parsed = parseOciReference(reference);
  if ('error' in parsed) return { code: 'usage', message: parsed.error };
  if (options.offline) return { code: 'registry-unreachable', message: `${reference}: checking tag ${tag} asks the registry, which --offline forbids` };
  try {
    const env = options.env ?? process.env;
    const client = new RegistryClient(parsed.registry, parsed.repository, reference, {
      env,
      insecureRegistries: options.insecureRegistries,
      timeoutMs: options.timeoutMs,
    });
    return { digest: (await fetchManifest(client, tag, reference)).digest };
  } catch (err) {
    if (err instanceof RegistryFailure) return { code: err.code === 'version-immutable' ? 'artifact-invalid' : err.code, message: err.message };
    throw err;
  }
}
