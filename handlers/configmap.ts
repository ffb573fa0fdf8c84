import { Type } from '@sinclair/typebox';
import { defineHandler } from '../src/schema/handler.js';

/** Mounts or projects ConfigMaps into a component; it takes no rendering keys, so any key is an error. */
export const configmap = defineHandler({
  type: 'configmap',
  version: '1.0.0',
  description: 'Mounts or projects ConfigMaps into a component',
  capabilityAware: false,
  renderingSchema: Type.Object({}, { additionalProperties: false }),
});
