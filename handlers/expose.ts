import { Type } from '@sinclair/typebox';
import { checkRendering, defineHandler } from '../src/schema/handler.js';
import { nativePattern } from '../src/schema/pattern-matcher.js';
import { Name, NetworkPolicy } from './shared-schemas.js';

const GATEWAY_NAMESPACE_DEFAULT = 'gateway-system';

const allowedHostnameWildcard = Type.Optional(Type.String({ description: 'wildcard hostnames may be drawn from, e.g. *.apps.example.com' }));

const Ingress = Type.Object(
  {
    controllerType: Type.Literal('ingress'),
    ingressClassName: Name('Kubernetes IngressClass name'),
    certManagerClusterIssuer: Type.Optional(Type.String({ description: 'cert-manager ClusterIssuer; turns on managed TLS' })),
    allowedHostnameWildcard,
    sslRedirect: Type.Optional(Type.Boolean({ description: 'redirect HTTP to HTTPS' })),
    forceSslRedirect: Type.Optional(Type.Boolean({ description: 'redirect HTTP to HTTPS even without TLS' })),
    authURL: Type.Optional(
      Type.String({ pattern: nativePattern('^[^?]*$'), 'x-expected': 'a base URL without a query (no ?)', description: 'external auth base URL' }),
    ),
    authSigninURL: Type.Optional(Type.String({ description: 'sign-in URL for external auth; needs authURL' })),
    authResponseHeaders: Type.Optional(Type.String({ description: 'headers passed from the auth response; needs authURL' })),
    networkPolicy: Type.Optional(NetworkPolicy),
  },
  {
    additionalProperties: false,
    dependentRequired: { authSigninURL: ['authURL'], authResponseHeaders: ['authURL'] },
  },
);

const Gateway = Type.Object(
  {
    controllerType: Type.Literal('gateway'),
    gatewayName: Name('Gateway API Gateway name'),
    gatewayNamespace: Type.Optional(Type.String({ default: GATEWAY_NAMESPACE_DEFAULT, description: 'namespace of the Gateway (default gateway-system)' })),
    allowedHostnameWildcard,
    networkPolicy: Type.Optional(NetworkPolicy),
  },
  { additionalProperties: false },
);

/** The rendering of `expose`: an ingress or a Gateway API binding, told apart by `controllerType`. */
export const ExposeRendering = Type.Union([Ingress, Gateway], {
  description: 'how the cluster exposes components: an ingress controller or a Gateway API gateway',
});

/** Routes traffic to a component through the cluster's ingress or Gateway API. */
export const expose = defineHandler({
  type: 'expose',
  version: '1.0.0',
  description: "Routes traffic to a component through the cluster's ingress or Gateway API",
  capabilityAware: true,
  capabilityRequired: true,
  renderingSchema: ExposeRendering,
  platformReserved: [
    'controllerType',
    'certManagerClusterIssuer',
    'allowedHostnameWildcard',
    'gatewayName',
    'gatewayNamespace',
    'authURL',
    'authResponseHeaders',
    'networkPolicy',
  ],
  validateAndApplyDefaults(rendering, context?) {
    const result = checkRendering(ExposeRendering, rendering, context);
    const out = result.rendering;
    // An empty gatewayNamespace means "use the default"; only ever for a gateway binding.
    if (result.issues.length === 0 && out['controllerType'] === 'gateway' && out['gatewayNamespace'] === '') {
      return { rendering: { ...out, gatewayNamespace: GATEWAY_NAMESPACE_DEFAULT }, issues: [] };
    }
    return result;
  },
});
