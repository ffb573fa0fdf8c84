import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { type AdmissionOptions, admitReview, readReviewIdentity, refuseReview } from '../../src/operations/admission.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { propertyRuns } from '../helpers/property.js';

const catalogue = createCatalogue();
const GROUP = { group: 'launcher.gokure.dev', version: 'v1alpha1' };

function review(request: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'b2c1e0a4', ...request } };
}

function profile(capabilities: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'staging' }): Record<string, unknown> {
  return { apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfile', metadata, spec: { capabilities } };
}

function definition(spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'redis-sidecar' }): Record<string, unknown> {
  return { apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'CapabilityDefinition', metadata, spec };
}

const createProfile = (object: Record<string, unknown>) => review({ operation: 'CREATE', kind: { ...GROUP, kind: 'ClusterProfile' }, object });
const updateDefinition = (oldObject: Record<string, unknown>, object: Record<string, unknown>) =>
  review({ operation: 'UPDATE', kind: { ...GROUP, kind: 'CapabilityDefinition' }, object, oldObject });

const INGRESS_MISSING_CLASS =
  '/spec/capabilities/expose/rendering/ingressClassName: capability "expose": ingressClassName is required when controllerType is ingress (missing-required)';

describe('readReviewIdentity', () => {
  it('reads the uid of a review', () => {
    expect(readReviewIdentity(review({}))).toEqual({ uid: 'b2c1e0a4' });
  });

  it('names what is not a review, so the route answers 400 without a uid', () => {
    expect(readReviewIdentity([])).toEqual({ problem: 'expected an admission.k8s.io/v1 AdmissionReview object' });
    expect(readReviewIdentity({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: { uid: 'x' } })).toEqual({
      problem: 'expected apiVersion admission.k8s.io/v1 and kind AdmissionReview; found "admission.k8s.io/v1beta1" and "AdmissionReview"',
    });
    expect(readReviewIdentity({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' })).toEqual({
      problem: 'the AdmissionReview has no request object',
    });
    expect(readReviewIdentity(review({ uid: 7 }))).toEqual({ problem: 'the AdmissionReview request has no uid' });
  });
});

describe('admitReview: ClusterProfile', () => {
  it('denies a profile with errors with 422, listing each as path: message (code), and returns warnings', () => {
    const object = profile({ expose: { rendering: { controllerType: 'ingress', gatewayName: 'main' } }, exposee: null });
    expect(admitReview(createProfile(object), catalogue)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: 'b2c1e0a4',
        allowed: false,
        status: {
          code: 422,
          reason: 'Invalid',
          message: `${INGRESS_MISSING_CLASS}; /spec/capabilities/expose/rendering/gatewayName: capability "expose": gatewayName is not allowed when controllerType is ingress (field-not-allowed)`,
        },
        warnings: [
          '/spec/capabilities/exposee: capability "exposee" is known to no handler or definition; its rendering is not validated (unknown-capability)',
        ],
      },
    });
  });

  it('checks only metadata.name of Kubernetes metadata, and ignores status', () => {
    const metadata = {
      name: 'staging',
      uid: '5f0c',
      resourceVersion: '812',
      generation: 3,
      creationTimestamp: '2026-11-25T09:00:00Z',
      managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
      labels: { team: 'platform' },
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      finalizers: ['kurel.gokure.dev/keep'],
    };
    const object = { ...profile({ expose: { rendering: { controllerType: 'ingress', ingressClassName: 'nginx' } } }, metadata), status: { ready: true } };
    expect(admitReview(createProfile(object), catalogue).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
    const badName = profile({}, { name: 'Staging_1', uid: '5f0c' });
    expect(admitReview(createProfile(badName), catalogue).response.status?.message).toMatch(/^\/metadata\/name: .* \(invalid-value\)$/);
  });

  it('lists the first 10 errors and counts the rest', () => {
    const capabilities: Record<string, unknown> = {};
    for (let i = 0; i < 12; i++) capabilities[`expose.s${String(i).padStart(2, '0')}`] = { rendering: { controllerType: 'ingress' } };
    const message = admitReview(createProfile(profile(capabilities)), catalogue).response.status?.message ?? '';
    const parts = message.split('; ');
    expect(parts).toHaveLength(11);
    expect(parts[0]).toBe(INGRESS_MISSING_CLASS.replace('/expose/', '/expose.s00/').replace('"expose"', '"expose.s00"'));
    expect(parts[10]).toBe('and 2 more errors');
  });

  it('returns at most 20 warnings, each cut to 255 characters', () => {
    const capabilities: Record<string, unknown> = {};
    const scope = `${'s'.repeat(60)}.${'t'.repeat(60)}.${'u'.repeat(60)}`;
    for (let i = 0; i < 25; i++) capabilities[`unknown${String(i).padStart(2, '0')}.${scope}`] = null;
    const warnings = admitReview(createProfile(profile(capabilities)), catalogue).response.warnings ?? [];
    expect(warnings).toHaveLength(16);
    for (const warning of warnings) expect(warning).toHaveLength(255);
    expect(warnings.join('').length).toBeLessThanOrEqual(4096);
    expect(warnings[0]).toBe(`/spec/capabilities/unknown00.${scope}: capability "unknown00" is known to no han…`);
  });

  it('stops before the 20th warning is exceeded when warnings are short', () => {
    const capabilities: Record<string, unknown> = {};
    for (let i = 0; i < 25; i++) capabilities[`unknown${String(i).padStart(2, '0')}`] = null;
    const warnings = admitReview(createProfile(profile(capabilities)), catalogue).response.warnings ?? [];
    expect(warnings).toHaveLength(20);
    expect(warnings[19]).toBe(
      '/spec/capabilities/unknown19: capability "unknown19" is known to no handler or definition; its rendering is not validated (unknown-capability)',
    );
  });

  it('lets the kurel.gokure.dev/disable annotation suppress a code, as a suppression comment does', () => {
    const metadata = { name: 'staging', annotations: { 'kurel.gokure.dev/disable': 'unknown-capability, missing-required' } };
    const object = profile({ exposee: null, expose: { rendering: { controllerType: 'ingress' } } }, metadata);
    expect(admitReview(createProfile(object), catalogue).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
  });

  it('warns at the annotation of a code that is unknown, cannot be silenced, or silences nothing', () => {
    const metadata = { name: 'staging', annotations: { 'kurel.gokure.dev/disable': 'unknown-capabilty, too-deep, field-not-allowed' } };
    const object = profile({ expose: { rendering: { controllerType: 'ingress', ingressClassName: 'nginx' } } }, metadata);
    expect(admitReview(createProfile(object), catalogue).response).toEqual({
      uid: 'b2c1e0a4',
      allowed: true,
      warnings: [
        '/metadata/annotations/kurel.gokure.dev~1disable: kurel.gokure.dev/disable names "unknown-capabilty", which is not a kurel diagnostic code (unused-suppression)',
        '/metadata/annotations/kurel.gokure.dev~1disable: kurel.gokure.dev/disable silences field-not-allowed, but the object has no field-not-allowed problem (unused-suppression)',
        '/metadata/annotations/kurel.gokure.dev~1disable: too-deep cannot be silenced: it decides whether a run can be trusted (unused-suppression)',
      ],
    });
  });

  it('never suppresses a code that decides whether the run can be trusted', () => {
    const metadata = { name: 'staging', annotations: { 'kurel.gokure.dev/disable': 'too-deep' } };
    let deep: unknown = 'x';
    for (let i = 0; i < 140; i++) deep = [deep];
    const object = profile({ expose: { rendering: { controllerType: 'ingress', ingressClassName: 'nginx', extra: deep } } }, metadata);
    const answer = admitReview(createProfile(object), catalogue).response;
    expect(answer.allowed).toBe(false);
    expect(answer.status?.message).toContain('(too-deep)');
  });
});

describe('admitReview: what is not kurel to judge is allowed', () => {
  const invalid = profile({ expose: { rendering: { controllerType: 'ingress' } } });
  const allowed = { uid: 'b2c1e0a4', allowed: true };

  it.each([
    ['DELETE', review({ operation: 'DELETE', kind: { ...GROUP, kind: 'ClusterProfile' }, oldObject: invalid })],
    ['CONNECT', review({ operation: 'CONNECT', kind: { group: '', version: 'v1', kind: 'Pod' } })],
    ['another group', review({ operation: 'CREATE', kind: { group: 'apps', version: 'v1', kind: 'ClusterProfile' }, object: invalid })],
    ['another version', review({ operation: 'CREATE', kind: { ...GROUP, version: 'v1beta1', kind: 'ClusterProfile' }, object: invalid })],
    ['another kind', review({ operation: 'CREATE', kind: { ...GROUP, kind: 'CapabilityLock' }, object: invalid })],
    ['a subresource', review({ operation: 'UPDATE', kind: { ...GROUP, kind: 'ClusterProfile' }, subResource: 'status', object: invalid, oldObject: invalid })],
    [
      'an object being deleted',
      review({
        operation: 'UPDATE',
        kind: { ...GROUP, kind: 'ClusterProfile' },
        object: { ...invalid, metadata: { name: 'staging', deletionTimestamp: '2026-11-25T09:00:00Z' } },
        oldObject: invalid,
      }),
    ],
    [
      'an UPDATE that keeps spec (a finalizer removed)',
      review({
        operation: 'UPDATE',
        kind: { ...GROUP, kind: 'ClusterProfile' },
        object: { ...invalid, metadata: { name: 'staging' } },
        oldObject: { ...invalid, metadata: { name: 'staging', finalizers: ['f'] } },
      }),
    ],
  ])('%s', (_name, body) => {
    expect(admitReview(body, catalogue).response).toEqual(allowed);
  });

  it('judges a dryRun request the same way', () => {
    const body = review({ operation: 'CREATE', kind: { ...GROUP, kind: 'ClusterProfile' }, object: invalid, dryRun: true });
    expect(admitReview(body, catalogue).response.status).toEqual({ code: 422, reason: 'Invalid', message: INGRESS_MISSING_CLASS });
  });
});

describe('admitReview: malformed requests', () => {
  it.each([
    [{ kind: { ...GROUP, kind: 'ClusterProfile' } }, 'request.operation must be CREATE, UPDATE, DELETE or CONNECT; found nothing'],
    [{ operation: 'PATCH', kind: { ...GROUP, kind: 'ClusterProfile' } }, 'request.operation must be CREATE, UPDATE, DELETE or CONNECT; found "PATCH"'],
    [{ operation: 'CREATE', kind: 'ClusterProfile' }, 'request.kind must be an object with group, version and kind strings'],
    [{ operation: 'CREATE', kind: { ...GROUP, kind: 'ClusterProfile' }, object: 'x' }, 'request.object must be an object on CREATE; found "x"'],
    [{ operation: 'UPDATE', kind: { ...GROUP, kind: 'ClusterProfile' }, object: {} }, 'request.oldObject must be an object on UPDATE; found nothing'],
  ])('%j is answered allowed: false with 400', (request, message) => {
    expect(admitReview(review(request), catalogue).response).toEqual({ uid: 'b2c1e0a4', allowed: false, status: { code: 400, reason: 'BadRequest', message } });
  });

  it('refuses what kurel could not judge with the uid and the status given', () => {
    expect(refuseReview('u', 503, 'the request took longer than 4s')).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'u', allowed: false, status: { code: 503, reason: 'ServiceUnavailable', message: 'the request took longer than 4s' } },
    });
  });
});

describe('admitReview: CapabilityDefinition', () => {
  const v1 = definition({ version: '1.0.0', rendering: { properties: { image: { type: 'string', required: true } } } });
  const createDefinition = (object: Record<string, unknown>) => review({ operation: 'CREATE', kind: { ...GROUP, kind: 'CapabilityDefinition' }, object });

  it('checks a definition as lint checks a definition file', () => {
    expect(admitReview(createDefinition(v1), catalogue).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
    const broken = definition({ version: '1.0.0', rendering: { properties: { size: { type: 'integer', minimum: 10, maximum: 1 } } } });
    expect(admitReview(createDefinition(broken), catalogue).response.status).toEqual({
      code: 422,
      reason: 'Invalid',
      message: '/spec/rendering/properties/size/minimum: size.minimum 10 is greater than maximum 1: no value could pass (definition-invalid)',
    });
  });

  it('denies a definition whose name and version the service serves with another schema, as lint does against --definitions', () => {
    const served = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: redis-sidecar
spec:
  version: 1.0.0
  description: served
  rendering:
    properties:
      image: {type: string, required: true}
`;
    const serving = catalogue.withDefinitions(parseYamlStream(served, 'definitions/redis-sidecar.yaml').documents).catalogue;
    // The same schema (another description) is allowed; another version is a new release.
    expect(admitReview(createDefinition(v1), serving).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
    const v2 = definition({ version: '2.0.0', rendering: { properties: { image: { type: 'string' } } } });
    expect(admitReview(createDefinition(v2), serving).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
    const other = definition({ version: '1.0.0', rendering: { properties: { image: { type: 'string', required: true }, port: { type: 'integer' } } } });
    expect(admitReview(createDefinition(other), serving).response).toEqual({
      uid: 'b2c1e0a4',
      allowed: false,
      status: {
        code: 422,
        reason: 'Invalid',
        message:
          '/spec/rendering/properties/port: definition "redis-sidecar" 1.0.0 conflicts with the one the service serves from definitions/redis-sidecar.yaml: they first differ at spec.rendering.properties.port ({"type":"integer"} here, absent in definitions/redis-sidecar.yaml); publish it as a new version (definition-conflict)',
      },
    });
  });

  it('denies an UPDATE that keeps the version and changes the schema: a published version is immutable', () => {
    const changed = definition({ version: '1.0.0', rendering: { properties: { image: { type: 'string' } } } });
    const answer = admitReview(updateDefinition(v1, changed), catalogue).response;
    expect(answer.allowed).toBe(false);
    expect(answer.status?.message).toMatch(
      /^\/spec: capability definition "redis-sidecar" version 1\.0\.0 is published and immutable: its schema changed \(sha256:[0-9a-f]{64} became sha256:[0-9a-f]{64}\); publish it as a new version \(definition-changed\)$/,
    );
  });

  it('allows an UPDATE that only sets spec.deprecation: the digest is kept', () => {
    const deprecated = definition({ ...(v1['spec'] as object), deprecation: 'use 2.0.0' });
    expect(admitReview(updateDefinition(v1, deprecated), catalogue).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
  });

  it('denies a version that moves backwards, and removing spec.version', () => {
    const v2 = definition({ version: '2.0.0', rendering: { properties: { image: { type: 'string', required: true } } } });
    expect(admitReview(updateDefinition(v2, v1), catalogue).response.status?.message).toBe(
      '/spec/version: capability definition "redis-sidecar" must move its version forward: 1.0.0 is lower than the version it replaces, 2.0.0 (invalid-value)',
    );
    const unversioned = definition({ rendering: { properties: { image: { type: 'string', required: true } } } });
    expect(admitReview(updateDefinition(v1, unversioned), catalogue).response.status?.message).toBe(
      '/spec: capability definition "redis-sidecar" is published as version 1.0.0; an update may not remove spec.version (invalid-value)',
    );
    expect(admitReview(updateDefinition(unversioned, v1), catalogue).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
  });

  it('hands a new version to the release check with both objects as files hold them, and denies on its errors', () => {
    const v11 = definition(
      { version: '1.1.0', rendering: { properties: { image: { type: 'integer', required: true } } } },
      { name: 'redis-sidecar', uid: 'k8s' },
    );
    const seen: unknown[] = [];
    const options: AdmissionOptions = {
      checkRelease: (before, after) => {
        seen.push(before, after);
        const problem: Diagnostic = {
          code: 'invalid-value',
          severity: 'error',
          message: 'a breaking change needs 2.0.0',
          file: 'object',
          line: 1,
          column: 1,
          endLine: 1,
          endColumn: 1,
          path: '/spec/version',
        };
        return [problem];
      },
    };
    expect(admitReview(updateDefinition(v1, v11), catalogue, options).response.status?.message).toBe(
      '/spec/version: a breaking change needs 2.0.0 (invalid-value)',
    );
    expect(seen).toEqual([v1, { ...v11, metadata: { name: 'redis-sidecar' } }]);
  });
});

describe('admitReview: for every review', () => {
  it('answers with the uid it was given and never throws', () => {
    const value = fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.constant(null))));
    const request = fc.record(
      {
        operation: fc.oneof(fc.constantFrom('CREATE', 'UPDATE', 'DELETE', 'CONNECT'), fc.string()),
        kind: fc.oneof(
          fc.record({
            group: fc.constantFrom('launcher.gokure.dev', ''),
            version: fc.constantFrom('v1alpha1', 'v1'),
            kind: fc.constantFrom('ClusterProfile', 'CapabilityDefinition', 'Pod'),
          }),
          value,
        ),
        object: fc.oneof(
          fc.record({
            apiVersion: value,
            kind: value,
            metadata: value,
            spec: fc.oneof(value, fc.record({ capabilities: value, version: value, rendering: value })),
          }),
          value,
        ),
        oldObject: fc.oneof(fc.record({ metadata: value, spec: value }), value),
        subResource: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(request, (r) => {
        const body = review(r);
        const identity = readReviewIdentity(body);
        expect(identity).toEqual({ uid: 'b2c1e0a4' });
        const answer = admitReview(body, catalogue);
        expect(answer.response.uid).toBe('b2c1e0a4');
        expect(typeof answer.response.allowed).toBe('boolean');
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('admitReview: a new definition version passes kurel compat', () => {
  const v1 = definition({ version: '1.0.0', rendering: { properties: { image: { type: 'string', required: true }, port: { type: 'integer' } } } });
  const tightened = (version: string) =>
    definition({ version, rendering: { properties: { image: { type: 'string', required: true }, port: { type: 'integer', maximum: 65535 } } } });

  it('denies a minor release that tightens validation, naming the change and the bump it needs', () => {
    expect(admitReview(updateDefinition(v1, tightened('1.1.0')), catalogue).response.status).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        '/spec/version: redis-sidecar 1.0.0 → 1.1.0 declares minor; needs major: port: maximum added (65535) at /spec/rendering/properties/port/maximum; release it as 2.0.0 (invalid-value)',
    });
  });

  it('allows the same change released as a new major version, and a prerelease', () => {
    expect(admitReview(updateDefinition(v1, tightened('2.0.0')), catalogue).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
    expect(admitReview(updateDefinition(v1, tightened('1.1.0-rc.1')), catalogue).response).toEqual({ uid: 'b2c1e0a4', allowed: true });
  });
});
