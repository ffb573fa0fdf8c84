import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { compareText } from '../core/data.js';
import { importModule } from '../core/import-module.js';
import { sha256Hex } from '../core/sha256.js';
import { RegistryFailure } from './failure.js';
import { SHA256_DIGEST } from './reference.js';

/** The media types and annotations of a definitions artifact (docs/registries.md, "Artifact"). */
export const MEDIA_TYPES = {
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  artifact: 'application/vnd.kurel.definitions.v1',
  config: 'application/vnd.oci.empty.v1+json',
  layer: 'application/vnd.kurel.definitions.v1.tar+gzip',
} as const;

/** The empty config every artifact carries: `{}`. */
export const EMPTY_CONFIG = Buffer.from('{}');

/** The bounds of an artifact's layer (docs/registries.md, "Artifact"). */
export const ARTIFACT_LIMITS = {
  entries: 10_000,
  totalBytes: 64 * 1024 * 1024,
  fileBytes: 16 * 1024 * 1024,
  // A gzip of 64 MiB of text is far smaller; an incompressible one is a little larger.
  layerBytes: 80 * 1024 * 1024,
  manifestBytes: 4 * 1024 * 1024,
} as const;

// tar's own bytes around the files: a 512-byte header and up to 511 bytes of padding for each
// entry, long names in extended headers, and the two closing blocks.
const TAR_OVERHEAD = ARTIFACT_LIMITS.entries * 2048 + 2048;

/** A file of an artifact: its relative `/`-separated path and its bytes. */
export interface ArtifactFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** A definition file's name: `.yaml`, `.yml` or `.json`, in any case. */
export const DEFINITION_FILE = /\.(ya?ml|json)$/i;

/** A descriptor of a blob in a manifest. */
export interface Descriptor {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
}

/** The parts of a manifest kurel reads. */
export interface ArtifactManifest {
  readonly config: Descriptor;
  readonly layer: Descriptor;
  readonly annotations: Readonly<Record<string, string>>;
}

/** `sha256:` and the hex SHA-256 of bytes. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${sha256Hex(bytes)}`;
}

type TarStream = typeof import('tar-stream');
let tarStream: TarStream | undefined;

async function loadTarStream(): Promise<TarStream> {
  tarStream ??= ((await importModule<unknown>('tar-stream')) as unknown as { default: TarStream }).default;
  return tarStream;
}

/**
 * Packs files into the artifact's layer, reproducibly (docs/registries.md): entries sorted by
 * name, mtime 0, uid and gid 0, mode 0644, no user or group names; gzip with no name, no time
 * and an unknown OS, so the same files give the same bytes on any machine.
 */
export async function packLayer(files: readonly ArtifactFile[]): Promise<Buffer> {
  const tar = await loadTarStream();
  const pack = tar.pack();
  const sorted = [...files].sort((a, b) => compareText(a.name, b.name));
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const file of sorted) {
    await new Promise<void>((resolve, reject) => {
      pack.entry(
        { name: file.name, size: file.bytes.length, mode: 0o644, mtime: new Date(0), uid: 0, gid: 0, uname: '', gname: '', type: 'file' },
        Buffer.from(file.bytes),
        (err) => (err ? reject(err) : resolve()),
      );
    });
  }
  pack.finalize();
  await finished;
  const { gzipSync, constants } = await importModule<typeof import('node:zlib')>('node:zlib');
  const gzip = gzipSync(Buffer.concat(chunks), { level: constants.Z_BEST_COMPRESSION });
  // Byte 9 of the gzip header is the OS that wrote it: 255, unknown, on every machine.
  gzip[9] = 0xff;
  return gzip;
}

/** The manifest of an artifact whose layer is `layer`, as bytes (its digest is the artifact's). */
export function buildManifest(layer: Uint8Array, annotations: Readonly<Record<string, string>>): Buffer {
  const sortedAnnotations = Object.fromEntries(Object.entries(annotations).sort(([a], [b]) => compareText(a, b)));
  const manifest = {
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.manifest,
    artifactType: MEDIA_TYPES.artifact,
    config: { mediaType: MEDIA_TYPES.config, digest: digestOf(EMPTY_CONFIG), size: EMPTY_CONFIG.length },
    layers: [{ mediaType: MEDIA_TYPES.layer, digest: digestOf(layer), size: layer.length }],
    ...(Object.keys(sortedAnnotations).length > 0 ? { annotations: sortedAnnotations } : {}),
  };
  return Buffer.from(JSON.stringify(manifest));
}

/**
 * Reads a manifest's bytes as a definitions artifact: an OCI image manifest of kurel's artifact
 * type, the empty config, one layer of kurel's layer type; else `artifact-invalid`.
 */
export function readManifest(bytes: Uint8Array, reference: string): ArtifactManifest {
  const invalid = (why: string): RegistryFailure => new RegistryFailure('artifact-invalid', `${reference}: ${why}`);
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw invalid('the manifest is not JSON');
  }
  if (!isRecord(data)) throw invalid('the manifest is not a JSON object');
  if (data.schemaVersion !== 2) throw invalid('the manifest is not schemaVersion 2');
  if (data.mediaType !== MEDIA_TYPES.manifest) {
    throw invalid(`the manifest's media type is ${JSON.stringify(data.mediaType ?? null)}, expected ${MEDIA_TYPES.manifest}`);
  }
  if (data.artifactType !== MEDIA_TYPES.artifact) {
    throw invalid(`the artifact type is ${JSON.stringify(data.artifactType ?? null)}, expected ${MEDIA_TYPES.artifact}: not kurel definitions`);
  }
  const config = readDescriptor(data.config, 'the config', invalid);
  if (config.mediaType !== MEDIA_TYPES.config) throw invalid(`the config's media type is ${JSON.stringify(config.mediaType)}, expected ${MEDIA_TYPES.config}`);
  if (!Array.isArray(data.layers) || data.layers.length !== 1) throw invalid('the manifest must have exactly one layer');
  const layer = readDescriptor(data.layers[0], 'the layer', invalid);
  if (layer.mediaType !== MEDIA_TYPES.layer) throw invalid(`the layer's media type is ${JSON.stringify(layer.mediaType)}, expected ${MEDIA_TYPES.layer}`);
  if (layer.size > ARTIFACT_LIMITS.layerBytes) throw invalid(`the layer is ${layer.size} bytes, more than the ${ARTIFACT_LIMITS.layerBytes} allowed`);
  if (config.size > 1024) throw invalid(`the config is ${config.size} bytes, expected the empty config`);
  const annotations: Record<string, string> = {};
  if (isRecord(data.annotations)) for (const [key, value] of Object.entries(data.annotations)) if (typeof value === 'string') annotations[key] = value;
  return { config, layer, annotations };
}

function readDescriptor(value: unknown, what: string, invalid: (why: string) => RegistryFailure): Descriptor {
  if (!isRecord(value)) throw invalid(`${what} is not a descriptor`);
  const { mediaType, digest, size } = value;
  if (typeof mediaType !== 'string') throw invalid(`${what} has no media type`);
  if (typeof digest !== 'string' || !SHA256_DIGEST.test(digest)) throw invalid(`${what}'s digest is not sha256: and 64 hex digits`);
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) throw invalid(`${what}'s size is not a whole number of bytes`);
  return { mediaType, digest, size };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Unpacks a layer into memory, safely (docs/registries.md, "Artifact"): regular files only,
 * named `.yaml`, `.yml` or `.json` by relative paths without `..`; at most 10,000 entries,
 * 16 MiB each and 64 MiB in all. The gzip stream is read within those bounds, so a small
 * layer that inflates without end is stopped where the bound is passed. Returns the files
 * sorted by name; anything else is `artifact-invalid`. Nothing is written anywhere.
 */
export async function unpackLayer(layer: Uint8Array, reference: string): Promise<ArtifactFile[]> {
  const invalid = (why: string): RegistryFailure => new RegistryFailure('artifact-invalid', `${reference}: ${why}`);
  const tar = await loadTarStream();
  const { createGunzip } = await importModule<typeof import('node:zlib')>('node:zlib');
  const files: ArtifactFile[] = [];
  const names = new Set<string>();
  let inflated = 0;
  let total = 0;
  const bound = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      inflated += chunk.length;
      if (inflated > ARTIFACT_LIMITS.totalBytes + TAR_OVERHEAD)
        return callback(invalid(`the layer inflates past ${ARTIFACT_LIMITS.totalBytes} bytes of files`));
      callback(null, chunk);
    },
  });
  const extract = tar.extract();
  const reading = (async () => {
    for await (const entry of extract) {
      const { header } = entry;
      if (files.length >= ARTIFACT_LIMITS.entries) throw invalid(`the layer has more than ${ARTIFACT_LIMITS.entries} entries`);
      if (header.type !== 'file') throw invalid(`${showName(header.name)} is a ${header.type ?? 'special entry'}, not a regular file`);
      const name = checkEntryName(header.name, invalid);
      if (names.has(name)) throw invalid(`${JSON.stringify(name)} appears twice in the layer`);
      const size = header.size ?? 0;
      if (size > ARTIFACT_LIMITS.fileBytes)
        throw invalid(`${JSON.stringify(name)} is ${size} bytes, more than the ${ARTIFACT_LIMITS.fileBytes} allowed for one file`);
      total += size;
      if (total > ARTIFACT_LIMITS.totalBytes) throw invalid(`the layer's files are more than the ${ARTIFACT_LIMITS.totalBytes} bytes allowed`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      names.add(name);
      files.push({ name, bytes: Buffer.concat(chunks) });
    }
  })();
  const settled = await Promise.allSettled([pipeline(Readable.from([Buffer.from(layer)]), createGunzip(), bound, extract), reading]);
  const errors = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (errors.length > 0) {
    extract.destroy();
    // The first bound passed is the cause; the other side only saw its stream close.
    const failure = errors.find((err) => err instanceof RegistryFailure);
    if (failure !== undefined) throw failure;
    const err = errors[0] as NodeJS.ErrnoException;
    throw invalid(`the layer is not a gzip-compressed tar (${err.code ?? err.message})`);
  }
  return files.sort((a, b) => compareText(a.name, b.name));
}

function showName(name: string): string {
  return JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);
}

function checkEntryName(raw: string, invalid: (why: string) => RegistryFailure): string {
  const name = raw.startsWith('./') ? raw.slice(2) : raw;
  const shown = showName(name);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw invalid(`${shown} is an absolute path`);
  if (name.includes('\\') || name.includes('\0')) throw invalid(`${shown} holds a backslash or NUL`);
  const parts = name.split('/');
  if (parts.includes('..')) throw invalid(`${shown} leads outside the artifact (..)`);
  if (parts.some((part) => part === '' || part === '.')) throw invalid(`${shown} is not a plain relative path`);
  if (!DEFINITION_FILE.test(name)) throw invalid(`${shown} is not a .yaml, .yml or .json file`);
  return name;
}
