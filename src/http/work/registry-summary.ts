import type { Catalogue } from '../../catalogue/catalogue.js';
import { registryDigest } from '../../catalogue/registry-digest.js';
import type { RegistrySummary } from './task.js';

/** What `/readyz` and `/metrics` tell of a catalogue. */
export function summaryOf(catalogue: Catalogue): RegistrySummary {
  return { handlers: catalogue.listHandlers().length, definitions: catalogue.listDefinitions().length, digest: registryDigest(catalogue) };
}
