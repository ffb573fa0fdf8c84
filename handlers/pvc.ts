import { Type } from '@sinclair/typebox';
import { defineHandler } from '../src/schema/handler.js';

/** The rendering of `pvc`: the storage class for claims. */
export const PvcRendering = Type.Object(
  { storageClassName: Type.Optional(Type.String({ description: 'StorageClass for persistent volume claims' })) },
  { additionalProperties: false },
);

/** Adds persistent volume claims to a component. */
export const pvc = defineHandler({
  type: 'pvc',
  version: '1.0.0',
  description: 'Adds persistent volume claims to a component',
  capabilityAware: false,
  renderingSchema: PvcRendering,
});
