import type { Catalogue } from '../catalogue/catalogue.js';

/** One capability type a catalogue knows (DESIGN §5.1). */
export interface CapabilityListing {
  type: string;
  /** `builtin`, `plugin:<module>`, or for a type only a definition knows, its file. */
  source: string;
  capabilityAware: boolean;
  capabilityRequired: boolean;
  hasDefinition: boolean;
  description: string;
}

/** Every type a handler or definition knows, sorted by type; never mutates the catalogue. */
export function listCapabilities(catalogue: Catalogue): CapabilityListing[] {
  return catalogue.knownTypes().map((type) => {
    const registered = catalogue.handler(type);
    const definition = catalogue.definition(type);
    const handler = registered?.handler;
    return {
      type,
      source: registered?.source ?? definition?.file ?? 'unknown',
      capabilityAware: handler?.capabilityAware ?? false,
      capabilityRequired: handler?.capabilityRequired ?? false,
      hasDefinition: definition !== undefined,
      description: handler?.description || definition?.description || '',
    };
  });
}
