import { Type } from '@sinclair/typebox';
import { checkRendering, defineHandler } from '../src/schema/handler.js';
import { applyDefaultWhenEmpty, DURATION_PATTERN, Name } from './shared-schemas.js';

const STORE_KIND_DEFAULT = 'ClusterSecretStore';

/** The rendering of `external-secret`: the External Secrets store and refresh interval. */
export const ExternalSecretRendering = Type.Object(
  {
    secretStoreRef: Type.Object(
      {
        name: Name('secret store name'),
        // The two store kinds External Secrets Operator has; empty means the default, as in the Go tool.
        kind: Type.Optional(
          Type.String({
            enum: ['SecretStore', STORE_KIND_DEFAULT, ''],
            default: STORE_KIND_DEFAULT,
            description: 'store kind: SecretStore or ClusterSecretStore (default ClusterSecretStore; empty means the default)',
          }),
        ),
      },
      { additionalProperties: false, description: 'the External Secrets store' },
    ),
    refreshInterval: Type.Optional(
      Type.String({
        pattern: DURATION_PATTERN,
        'x-expected': 'a duration such as 1h, 30m, 90s or 1h30m (units ns, us, ms, s, m, h)',
        'x-bare-number-unit': 's',
        description: 'how often secrets are refreshed',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Syncs secrets from an external store. Capability-aware but not required: an application
 * may author `secretStoreRef` inline.
 */
export const externalSecret = defineHandler({
  type: 'external-secret',
  version: '2.0.0',
  description: 'Syncs secrets into the namespace from an external secret store',
  capabilityAware: true,
  capabilityRequired: false,
  renderingSchema: ExternalSecretRendering,
  validateAndApplyDefaults(rendering, context?) {
    const result = checkRendering(ExternalSecretRendering, rendering, context);
    // An empty kind means the default, as for an absent one.
    return { ...result, rendering: applyDefaultWhenEmpty(result.rendering, 'secretStoreRef', 'kind', STORE_KIND_DEFAULT) };
  },
});
