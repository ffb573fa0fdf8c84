import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type JsonEnvelope, runKurelJson } from './helpers/cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROFILES = readdirSync(new URL('../profiles/', import.meta.url))
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const DEFINITIONS = readdirSync(new URL('../definitions/', import.meta.url))
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();

const nginx = { controllerType: 'ingress', ingressClassName: 'nginx' };
const ingressEverything = {
  controllerType: 'ingress',
  ingressClassName: 'nginx',
  certManagerClusterIssuer: 'letsencrypt-prod',
  allowedHostnameWildcard: '*.staging.example.com',
  sslRedirect: true,
  forceSslRedirect: false,
  authURL: 'https://auth.staging.example.com/oauth2/auth',
  authSigninURL: 'https://auth.staging.example.com/oauth2/start?rd=$escaped_request_uri',
  authResponseHeaders: 'X-Auth-Request-User,X-Auth-Request-Email',
  networkPolicy: { trafficSources: [{ namespace: 'ingress-nginx' }] },
};

/** The resolved capabilities (defaults applied) of the example profiles, exactly. */
const RESOLVED: Record<string, Record<string, unknown>> = {
  'minimal.yaml': { expose: { controllerType: 'ingress', ingressClassName: 'traefik' } },
  'nginx-certmanager-vault.yaml': {
    expose: nginx,
    certificate: { issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' } },
    'external-secret': { secretStoreRef: { name: 'vault-backend', kind: 'ClusterSecretStore' } },
  },
  'gateway-certmanager-aws.yaml': {
    expose: { controllerType: 'gateway', gatewayName: 'prod-gateway', gatewayNamespace: 'gateway-system' },
    'expose.internal': { controllerType: 'gateway', gatewayName: 'internal-gateway', gatewayNamespace: 'gateway-system' },
    certificate: { issuerRef: { name: 'internal-ca', kind: 'ClusterIssuer' } },
    'external-secret': { secretStoreRef: { name: 'aws-secretsmanager', kind: 'ClusterSecretStore' }, refreshInterval: '1h' },
  },
  'custom-capability.yaml': {
    expose: nginx,
    'redis-sidecar': { image: 'redis:7-alpine', maxMemory: '512Mi', port: 6379 },
  },
  'gateway-minimal.yaml': { expose: { controllerType: 'gateway', gatewayName: 'shared-gateway', gatewayNamespace: 'gateway-system' } },
  'gateway-multi-scope.yaml': {
    expose: { controllerType: 'gateway', gatewayName: 'public-gateway', gatewayNamespace: 'gateway-system', allowedHostnameWildcard: '*.apps.example.com' },
    'expose.internal': {
      controllerType: 'gateway',
      gatewayName: 'internal-gateway',
      gatewayNamespace: 'gateway-internal',
      allowedHostnameWildcard: '*.internal.example.com',
      networkPolicy: {
        trafficSources: [{ namespace: 'gateway-internal', podSelector: { matchLabels: { 'app.kubernetes.io/name': 'envoy' } } }, { namespace: 'monitoring' }],
      },
    },
    'expose.eu.public': {
      controllerType: 'gateway',
      gatewayName: 'eu-public-gateway',
      gatewayNamespace: 'gateway-system',
      allowedHostnameWildcard: '*.eu.example.com',
    },
    certificate: { issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' } },
    'certificate.internal': { issuerRef: { name: 'internal-ca', kind: 'Issuer' } },
    'external-secret': { secretStoreRef: { name: 'aws-secretsmanager', kind: 'ClusterSecretStore' }, refreshInterval: '1h30m' },
  },
  // definitions/service-routing.yaml at two Kubernetes versions (docs/platform.md): the default of
  // internalTrafficPolicy applies on both, trafficDistribution exists only on the newer one.
  'service-routing-1.28.yaml': {
    expose: nginx,
    'service-routing': { topologyMode: 'Auto', internalTrafficPolicy: 'Cluster' },
  },
  'service-routing-1.33.yaml': {
    expose: { controllerType: 'gateway', gatewayName: 'public-gw', gatewayNamespace: 'gateway-system' },
    'service-routing': { trafficDistribution: 'PreferSameZone', internalTrafficPolicy: 'Local' },
  },
  'every-builtin.yaml': {
    expose: ingressEverything,
    'expose.public': { ...ingressEverything, ingressClassName: 'nginx-public' },
    certificate: { issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' } },
    'external-secret': { secretStoreRef: { name: 'vault-backend', kind: 'ClusterSecretStore' }, refreshInterval: '15m' },
    pvc: { storageClassName: 'gp3' },
    volsync: { storageClassName: 'gp3', volumeSnapshotClassName: 'ebs-csi-snapclass' },
    configmap: {},
    networkpolicy: {},
    'cilium-networkpolicy': {},
    ingress: { annotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': '16m' } },
    httproute: { parentRefs: [{ name: 'shared-gateway', namespace: 'gateway-system' }] },
    scaler: { minReplicas: 2, maxReplicas: 10 },
    rbac: { clusterWide: false },
    'fluxcd-patches': { patches: [] },
    'fluxcd-postbuild': { substitute: { cluster_name: 'staging' } },
    'prune-protection': { enabled: true },
    'security-context': { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  },
};

let run: { code: number; json: JsonEnvelope; stdout: string };

beforeAll(async () => {
  run = await runKurelJson(['lint', 'profiles', '--definitions', 'definitions'], { cwd: ROOT });
});

describe('the example profiles', () => {
  // every-builtin.yaml binds each pass-through built-in with a rendering, which nothing validates:
  // a warning each (docs/codes/unvalidated-capability.md); every other profile lints clean.
  it('lint without errors together with the definitions folder, warning only of the pass-through renderings', () => {
    expect({ code: run.code, valid: run.json.valid }).toEqual({ code: 0, valid: true });
    expect(run.json.diagnostics.map((d) => [d.file, d.code, d.severity, d.path])).toEqual(
      ['ingress', 'httproute', 'scaler', 'rbac', 'fluxcd-patches', 'fluxcd-postbuild', 'prune-protection', 'security-context'].map((type) => [
        'profiles/every-builtin.yaml',
        'unvalidated-capability',
        'warning',
        `/spec/capabilities/${type}/rendering`,
      ]),
    );
  });

  it('hold the four shared fixtures and at least three more', () => {
    expect(PROFILES).toEqual(
      expect.arrayContaining(['minimal.yaml', 'nginx-certmanager-vault.yaml', 'gateway-certmanager-aws.yaml', 'custom-capability.yaml']),
    );
    expect(PROFILES.length).toBeGreaterThanOrEqual(7);
  });

  it.each(PROFILES)('%s is a checked ClusterProfile with resolved capabilities', (name) => {
    const report = run.json.files.find((f) => f.path === `profiles/${name}`);
    expect({ kind: report?.kind, status: report?.status, resolved: report?.resolved !== undefined }).toEqual({
      kind: 'ClusterProfile',
      status: 'checked',
      resolved: true,
    });
  });

  it.each(Object.keys(RESOLVED))('%s resolves to exactly its capabilities with defaults applied', (name) => {
    const report = run.json.files.find((f) => f.path === `profiles/${name}`);
    expect(report?.resolved).toEqual({ gitopsEngine: 'fluxcd', capabilities: RESOLVED[name], versions: {} });
  });

  it.each(DEFINITIONS)('definitions/%s loads as a CapabilityDefinition', (name) => {
    expect(run.json.files.find((f) => f.path === `definitions/${name}`)).toEqual({
      path: `definitions/${name}`,
      kind: 'CapabilityDefinition',
      status: 'checked',
    });
  });

  it('custom-capability.yaml needs its definition: without it redis-sidecar is an unknown capability', async () => {
    const alone = await runKurelJson(['lint', 'profiles/custom-capability.yaml'], { cwd: ROOT });
    expect({ code: alone.code, diagnostics: alone.json.diagnostics.map((d) => [d.code, d.severity, d.path]) }).toEqual({
      code: 0,
      diagnostics: [['unknown-capability', 'warning', '/spec/capabilities/redis-sidecar']],
    });
  });
});
