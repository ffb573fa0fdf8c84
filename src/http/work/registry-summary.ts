import type { Catalogue } from '../../catalogue/catalogue.js';
import { registryDigest } from '../../catalogue/registry-digest.js';
import type { RegistrySummary } from './task.js';

/**
 * What `/readyz` and `/metrics` tell of a catalogue. The digest is computed when first read: a
 * serving process takes requests before it (docs/service.md "During start"), and computes it
 * for its `listening` line and its first `/readyz` right after.
 */
export function summaryOf(catalogue: Catalogue): RegistrySummary {
  let digest: string | undefined;
  return {
    handlers: catalogue.listHandlers().length,
    definitions: catalogue.listDefinitions().length,
    get digest() {
      digest ??= registryDigest(catalogue);
      return digest;
    },
  };
}
