// The registry floor's entry (ARCHITECTURE.md): OCI references, the distribution API client,
// the artifact's packing and unpacking, the blob cache (docs/registries.md).
export { ARTIFACT_LIMITS, type ArtifactFile, DEFINITION_FILE, MEDIA_TYPES } from './artifact.js';
export { defaultCacheDir } from './cache.js';
export { isOciReference, type OciReference, parseOciReference } from './reference.js';
export {
  createRegistryResolver,
  findMovedSources,
  type RegistryResolverOptions,
  type RegistrySourceRequest,
  type RegistrySourceResolution,
} from './resolver.js';
export {
  isSourceFailure,
  type PushFailure,
  type PushOptions,
  type PushResult,
  pushArtifact,
  type ResolvedSource,
  resolveSource,
  type SourceFailure,
  type SourceFile,
  type SourceOptions,
  sourceFileName,
} from './source.js';
export { resolveTagRange, versionOfTag } from './tags.js';
