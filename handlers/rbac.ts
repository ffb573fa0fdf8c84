import { defineHandler } from '../src/schema/handler.js';

/** Grants a component Kubernetes RBAC permissions; its rendering passes through unvalidated and is merged at build. */
export const rbac = defineHandler({
  type: 'rbac',
  version: '1.0.0',
  description: 'Grants a component Kubernetes RBAC permissions',
  capabilityAware: false,
});
