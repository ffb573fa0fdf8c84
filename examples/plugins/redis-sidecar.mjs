// A handler plugin for kurel (docs/plugins.md): an ES module whose default export is a handler.
//   kurel build my-package --profile cluster.yaml --plugin ./examples/plugins/redis-sidecar.mjs
import { checkRendering } from 'kurel';

/** The rendering a ClusterProfile binds to `redis-sidecar`, as JSON Schema (closed: unknown keys are errors). */
const renderingSchema = {
  type: 'object',
  properties: {
    image: { type: 'string', minLength: 1, description: 'Redis image reference, e.g. redis:7' },
    maxMemory: { type: 'string', default: '256Mi', description: 'memory limit of the sidecar container' },
    port: { type: 'integer', minimum: 1, maximum: 65535, default: 6379, description: 'port the sidecar listens on' },
  },
  required: ['image'],
  additionalProperties: false,
};

/** @type {import('kurel').Handler} */
export default {
  type: 'redis-sidecar',
  description: 'Injects a Redis sidecar container next to the component',
  capabilityAware: true,
  capabilityRequired: true,
  renderingSchema,
  platformReserved: ['image'],
  validateAndApplyDefaults(rendering, context) {
    // The context carries the cluster's platform versions, so lifecycles in the schema gate too.
    const result = checkRendering(renderingSchema, rendering, context);
    // What a schema cannot say: the memory limit must be a Kubernetes quantity of bytes.
    const maxMemory = result.rendering.maxMemory;
    if (typeof maxMemory === 'string' && !/^\d+(Ki|Mi|Gi)$/.test(maxMemory)) {
      result.issues.push({
        code: 'invalid-value',
        severity: 'error',
        message: `maxMemory must be a quantity such as 256Mi or 1Gi, found "${maxMemory}"`,
        path: ['maxMemory'],
      });
    }
    return result;
  },
};
