import { defineHandler } from '../src/schema/handler.js';

/** Protects resources from Flux pruning; its rendering passes through unvalidated and is merged at build. */
export const pruneProtection = defineHandler({
  type: 'prune-protection',
  version: '1.0.0',
  description: 'Protects resources from Flux pruning',
  capabilityAware: false,
});
