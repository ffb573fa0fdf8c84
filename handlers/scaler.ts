import { defineHandler } from '../src/schema/handler.js';

/** Scales a component horizontally; its rendering passes through unvalidated and is merged at build. */
export const scaler = defineHandler({
  type: 'scaler',
  version: '1.0.0',
  description: 'Scales a component horizontally',
  capabilityAware: false,
});
