import { Type } from '@sinclair/typebox';
import { defineHandler } from '../src/schema/handler.js';

/** Adds Kubernetes NetworkPolicies for a component; it takes no rendering keys, so any key is an error. */
export const networkpolicy = defineHandler({
  type: 'networkpolicy',
  version: '1.0.0',
  description: 'Adds Kubernetes NetworkPolicies for a component',
  capabilityAware: false,
  renderingSchema: Type.Object({}, { additionalProperties: false }),
});
