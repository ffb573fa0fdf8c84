import { Type } from '@sinclair/typebox';
import { defineHandler } from '../src/schema/handler.js';

/** Adds Cilium network policies for a component; it takes no rendering keys, so any key is an error. */
export const ciliumNetworkpolicy = defineHandler({
  type: 'cilium-networkpolicy',
  version: '1.0.0',
  description: 'Adds Cilium network policies for a component',
  capabilityAware: false,
  renderingSchema: Type.Object({}, { additionalProperties: false }),
});
