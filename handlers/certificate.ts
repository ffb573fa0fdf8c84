import { Type } from '@sinclair/typebox';
import { checkRendering, defineHandler } from '../src/schema/handler.js';
import { applyDefaultWhenEmpty, Name } from './shared-schemas.js';

const ISSUER_KIND_DEFAULT = 'ClusterIssuer';

/** The rendering of `certificate`: the cert-manager issuer certificates are signed by. */
export const CertificateRendering = Type.Object(
  {
    issuerRef: Type.Object(
      {
        name: Name('cert-manager issuer name'),
        kind: Type.Optional(Type.String({ default: ISSUER_KIND_DEFAULT, description: 'issuer kind (default ClusterIssuer)' })),
      },
      { additionalProperties: false, description: 'the cert-manager issuer' },
    ),
  },
  { additionalProperties: false },
);

/** Issues TLS certificates for a component through cert-manager. */
export const certificate = defineHandler({
  type: 'certificate',
  version: '1.0.0',
  description: 'Issues TLS certificates for a component through cert-manager',
  capabilityAware: true,
  capabilityRequired: true,
  renderingSchema: CertificateRendering,
  validateAndApplyDefaults(rendering, context?) {
    const result = checkRendering(CertificateRendering, rendering, context);
    // An empty kind means the default, as for an absent one.
    return { ...result, rendering: applyDefaultWhenEmpty(result.rendering, 'issuerRef', 'kind', ISSUER_KIND_DEFAULT) };
  },
});
