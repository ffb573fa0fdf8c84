import { defineHandler } from '../src/schema/handler.js';

/** Sets pod and container security contexts; its rendering passes through unvalidated and is merged at build. */
export const securityContext = defineHandler({
  type: 'security-context',
  version: '1.0.0',
  description: 'Sets pod and container security contexts',
  capabilityAware: false,
});
