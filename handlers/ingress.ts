import { defineHandler } from '../src/schema/handler.js';

/** Creates a Kubernetes Ingress for a component; its rendering passes through unvalidated and is merged at build. */
export const ingress = defineHandler({
  type: 'ingress',
  version: '1.0.0',
  description: 'Creates a Kubernetes Ingress for a component',
  capabilityAware: false,
  platformReserved: ['allowedHostnameWildcard', 'networkPolicy'],
});
