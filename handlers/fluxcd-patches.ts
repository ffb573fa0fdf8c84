import { defineHandler } from '../src/schema/handler.js';

/** Adds Flux kustomization patches; its rendering passes through unvalidated and is merged at build. */
export const fluxcdPatches = defineHandler({
  type: 'fluxcd-patches',
  version: '1.0.0',
  description: 'Adds Flux kustomization patches',
  capabilityAware: false,
});
