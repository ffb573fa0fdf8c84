import { Type } from '@sinclair/typebox';
import { defineHandler } from '../src/schema/handler.js';

/** The rendering of `volsync`: storage and snapshot classes for replicated volumes. */
export const VolsyncRendering = Type.Object(
  {
    storageClassName: Type.Optional(Type.String({ description: 'StorageClass for replicated volumes' })),
    volumeSnapshotClassName: Type.Optional(Type.String({ description: 'VolumeSnapshotClass for snapshots' })),
  },
  { additionalProperties: false },
);

/** Replicates and backs up volumes with VolSync. */
export const volsync = defineHandler({
  type: 'volsync',
  version: '1.0.0',
  description: 'Replicates and backs up volumes with VolSync',
  capabilityAware: false,
  renderingSchema: VolsyncRendering,
});
