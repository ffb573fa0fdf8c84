import type { Catalogue } from '../catalogue/catalogue.js';
import { latestVersion } from '../core/versions.js';

/** One version of a capability: a definition version's file and digest, or a handler's version (no file, no digest). */
export interface CapabilityVersionListing {
  /** Null for an unversioned definition. */
  version: string | null;
  /** The definition file (as given) of this version; null for a handler's version. */
  file: string | null;
  /** The definition document's digest (DESIGN §8.1); null for a handler's version. */
  digest: string | null;
}

/** One capability type a catalogue knows (DESIGN §5.1, §8.1). */
export interface CapabilityListing {
  type: string;
  /** `builtin`, `plugin:<module>`, or for a type only a definition knows, the file of the version an unpinned binding resolves to. */
  source: string;
  capabilityAware: boolean;
  capabilityRequired: boolean;
  hasDefinition: boolean;
  description: string;
  /** Every version, ascending: its definitions' when it has any, else its handler's one version. */
  versions: CapabilityVersionListing[];
  /** What an unpinned binding resolves to: the highest release (or prerelease when there are only prereleases); null without versions. */
  latest: string | null;
}

/** Every type a handler or definition knows, sorted by type; never mutates the catalogue. */
export function listCapabilities(catalogue: Catalogue): CapabilityListing[] {
  return catalogue.knownTypes().map((type) => {
    const registered = catalogue.handler(type);
    const definition = catalogue.definition(type);
    const handler = registered?.handler;
    const versions: CapabilityVersionListing[] =
      catalogue.versionSource(type) === 'definition'
        ? catalogue.definitionVersions(type).map((entry) => ({ version: entry.version ?? null, file: entry.file, digest: entry.digest }))
        : catalogue.versionsOf(type).map((version) => ({ version, file: null, digest: null }));
    return {
      type,
      source: registered?.source ?? definition?.file ?? 'unknown',
      capabilityAware: handler?.capabilityAware ?? false,
      capabilityRequired: handler?.capabilityRequired ?? false,
      hasDefinition: definition !== undefined,
      description: handler?.description || definition?.description || '',
      versions,
      latest: latestVersion(catalogue.versionsOf(type)) ?? null,
    };
  });
}
