import { defineHandler } from '../src/schema/handler.js';

/** Adds Flux post-build variable substitution; its rendering passes through unvalidated and is merged at build. */
export const fluxcdPostbuild = defineHandler({
  type: 'fluxcd-postbuild',
  version: '1.0.0',
  description: 'Adds Flux post-build variable substitution',
  capabilityAware: false,
});
