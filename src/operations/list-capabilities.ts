import type { Catalogue } from '../catalogue/catalogue.js';
import { latestVersion } from '../core/versions.js';

/** One published version of a capability: its CapabilityDefinition's file and digest. */
export interface CapabilityVersionListing {
  version: string;
  /** The definition file (as given) of this version. */
  file: string;
  /** The definition document's digest (docs/versions.md). */
  digest: string;
}

/** One capability type a catalogue knows (docs/cli.md, docs/versions.md). */
export interface CapabilityListing {
  type: string;
  /** `builtin`, `plugin:<module>`, or for a type only a definition knows, the file of the version an unpinned binding resolves to. */
  source: string;
  capabilityAware: boolean;
  capabilityRequired: boolean;
  hasDefinition: boolean;
  description: string;
  /** Every CapabilityDefinition version, ascending; empty for a handler-only type or an unversioned definition. */
  versions: CapabilityVersionListing[];
  /** What an unpinned binding resolves to: the highest release (or prerelease when there are only prereleases); null without definition versions. */
  latest: string | null;
  /** The handler's own version (information; a pin on a handler-only type must be satisfied by it); null without a handler or a version. */
  handlerVersion: string | null;
}

/** Every type a handler or definition knows, sorted by type; never mutates the catalogue. */
export function listCapabilities(catalogue: Catalogue): CapabilityListing[] {
  return catalogue.knownTypes().map((type) => {
    const registered = catalogue.handler(type);
    const definition = catalogue.definition(type);
    const handler = registered?.handler;
    const versions: CapabilityVersionListing[] = catalogue
      .definitionVersions(type)
      .flatMap((entry) => (entry.version === undefined ? [] : [{ version: entry.version, file: entry.file, digest: entry.digest }]));
    return {
      type,
      source: registered?.source ?? definition?.file ?? 'unknown',
      capabilityAware: handler?.capabilityAware ?? false,
      capabilityRequired: handler?.capabilityRequired ?? false,
      hasDefinition: definition !== undefined,
      description: handler?.description || definition?.description || '',
      versions,
      latest: latestVersion(versions.map((v) => v.version)) ?? null,
      handlerVersion: handler?.version ?? null,
    };
  });
}
