import { defineHandler } from '../src/schema/handler.js';

/** Creates a Gateway API HTTPRoute for a component; its rendering passes through unvalidated and is merged at build. */
export const httproute = defineHandler({
  type: 'httproute',
  version: '1.0.0',
  description: 'Creates a Gateway API HTTPRoute for a component',
  capabilityAware: false,
  platformReserved: ['networkPolicy'],
});
