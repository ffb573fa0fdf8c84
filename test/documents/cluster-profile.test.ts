import { describe, expect, it } from 'vitest';
import { diagnose, err, lintText, resolve, withBindings } from '../helpers/profile.js';

const profile = (lines: string[]) => `${lines.join('\n')}\n`;
const HEAD = ['apiVersion: launcher.gokure.dev/v1alpha1', 'kind: ClusterProfile', 'metadata:', '  name: prod-eu-west'];

describe('the profile document', () => {
  it('accepts a profile with no spec, an empty spec, or empty capabilities', () => {
    for (const tail of [[], ['spec: {}'], ['spec:'], ['spec:', '  capabilities: {}'], ['spec:', '  capabilities:']]) {
      expect(lintText(profile([...HEAD, ...tail])).files[0]?.resolved).toEqual({ gitopsEngine: 'fluxcd', capabilities: {}, versions: {} });
    }
  });

  it.each([
    ['a wrong apiVersion', ['apiVersion: launcher.gokure.dev/v1', ...HEAD.slice(1)], 'invalid-value', 1, 13, '/apiVersion'],
    ['a kind in another case', [HEAD[0]!, 'kind: clusterprofile', ...HEAD.slice(2)], 'invalid-value', 2, 7, '/kind'],
    ['no apiVersion', HEAD.slice(1), 'missing-required', 1, 1, '/apiVersion'],
    ['no metadata', HEAD.slice(0, 2), 'missing-required', 1, 1, '/metadata'],
    ['no metadata.name', [...HEAD.slice(0, 2), 'metadata: {}'], 'missing-required', 3, 1, '/metadata/name'],
    ['metadata.name with no value', [...HEAD.slice(0, 3), '  name:'], 'missing-required', 4, 3, '/metadata/name'],
    ['an empty metadata.name', [...HEAD.slice(0, 3), '  name: ""'], 'invalid-value', 4, 9, '/metadata/name'],
    ['an uppercase metadata.name', [...HEAD.slice(0, 3), '  name: Prod'], 'invalid-value', 4, 9, '/metadata/name'],
    ['a metadata.name that is not a DNS name', [...HEAD.slice(0, 3), '  name: Not A Valid DNS Name!'], 'invalid-value', 4, 9, '/metadata/name'],
    ['a metadata.name ending in a dash', [...HEAD.slice(0, 3), '  name: prod-'], 'invalid-value', 4, 9, '/metadata/name'],
    [
      'a metadata.name of 254 characters',
      [...HEAD.slice(0, 3), `  name: ${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`],
      'invalid-value',
      4,
      9,
      '/metadata/name',
    ],
    ['metadata.labels', [...HEAD, '  labels: {team: platform}'], 'unknown-field', 5, 3, '/metadata/labels'],
    ['metadata.namespace', [...HEAD, '  namespace: flux-system'], 'unknown-field', 5, 3, '/metadata/namespace'],
    ['metadata.annotations', [...HEAD, '  annotations: {}'], 'unknown-field', 5, 3, '/metadata/annotations'],
    ['an unknown top-level key', [...HEAD, 'status: {}'], 'unknown-field', 5, 1, '/status'],
    ['spec.gitops', [...HEAD, 'spec:', '  gitops: {engine: fluxcd}'], 'unknown-field', 6, 3, '/spec/gitops'],
    ['a misspelled spec.capabilities', [...HEAD, 'spec:', '  capabilites: {}'], 'unknown-field', 6, 3, '/spec/capabilites'],
    ['gitopsEngine argocd', [...HEAD, 'spec:', '  gitopsEngine: argocd'], 'invalid-value', 6, 17, '/spec/gitopsEngine'],
    ['gitopsEngine FLUXCD', [...HEAD, 'spec:', '  gitopsEngine: FLUXCD'], 'invalid-value', 6, 17, '/spec/gitopsEngine'],
    ['capabilities that are a list', [...HEAD, 'spec:', '  capabilities: [expose]'], 'wrong-type', 6, 17, '/spec/capabilities'],
    ['a spec that is a string', [...HEAD, 'spec: prod'], 'wrong-type', 5, 7, '/spec'],
  ])('reports %s', (_name, lines, code, line, column, path) => {
    expect(diagnose(profile(lines))).toEqual([err(code, line, column, path)]);
  });

  it('accepts a metadata.name of 253 characters with dots', () => {
    expect(diagnose(profile([...HEAD.slice(0, 3), `  name: ${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`]))).toEqual([]);
  });

  it('hints at the right field for a misspelled capabilities key', () => {
    expect(lintText(profile([...HEAD, 'spec:', '  capabilites: {}'])).diagnostics[0]?.hint).toBe('did you mean capabilities?');
  });

  it('treats an absent gitopsEngine as fluxcd, and accepts fluxcd', () => {
    expect(lintText(profile([...HEAD, 'spec:', '  gitopsEngine: fluxcd'])).files[0]?.resolved?.gitopsEngine).toBe('fluxcd');
    expect(lintText(profile(HEAD)).files[0]?.resolved?.gitopsEngine).toBe('fluxcd');
  });
});

describe('capability bindings', () => {
  // Binding text line n is profile line 6 + n; column c is column 4 + c (see withBindings).
  it('reports a key written directly under the binding (a forgotten rendering:) as unknown-field', () => {
    const report = lintText(
      withBindings('expose:\n  controllerType: ingress\n  ingressClassName: nginx\n  rendering: {controllerType: ingress, ingressClassName: nginx}'),
    );
    expect(report.diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([
      ['unknown-field', 8, 7, '/spec/capabilities/expose/controllerType'],
      ['unknown-field', 9, 7, '/spec/capabilities/expose/ingressClassName'],
    ]);
    expect(report.diagnostics[0]!.message).toBe('unknown field "controllerType" in spec.capabilities.expose (allowed: rendering, version)');
  });

  it('recognises a forgotten rendering: level: one error at the first key, with the fix as hint (issue 16, defect 7)', () => {
    const report = lintText(withBindings('expose:\n  controllerType: ingress\n  ingressClassName: nginx\npvc:\n  storageClassName: gp3'));
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path, message: d.message, hint: d.hint }))).toEqual([
      {
        code: 'unknown-field',
        line: 8,
        column: 7,
        path: '/spec/capabilities/expose/controllerType',
        message: 'capability "expose": keys controllerType, ingressClassName are written directly under the binding, which holds only rendering and version',
        hint: 'indent these keys under rendering:',
      },
      {
        code: 'unknown-field',
        line: 11,
        column: 7,
        path: '/spec/capabilities/pvc/storageClassName',
        message: 'capability "pvc": key storageClassName is written directly under the binding, which holds only rendering and version',
        hint: 'indent this key under rendering:',
      },
    ]);
    expect(report.files[0]!.resolved).toBeUndefined();
  });

  it('keeps the did-you-mean of a misspelled rendering key', () => {
    expect(lintText(withBindings('pvc:\n  rendring: {storageClassName: gp3}')).diagnostics).toMatchObject([
      { code: 'unknown-field', line: 8, column: 7, hint: 'did you mean rendering?' },
    ]);
  });

  it('reports a rendering that is not a map as wrong-type', () => {
    expect(diagnose(withBindings('pvc:\n  rendering: gp3'))).toEqual([err('wrong-type', 8, 18, '/spec/capabilities/pvc/rendering')]);
  });

  it('reports a binding that is not a map as wrong-type', () => {
    expect(diagnose(withBindings('pvc: gp3'))).toEqual([err('wrong-type', 7, 10, '/spec/capabilities/pvc')]);
  });

  it.each(['expose.internal', 'expose.eu.public', 'expose.a-1.b-2', 'external-secret.vault', 'x'])('accepts the capability key %s', (key) => {
    expect(diagnose(withBindings(`${key}:\n  rendering: {controllerType: gateway, gatewayName: gw}`)).filter((d) => d.code === 'invalid-key')).toEqual([]);
  });

  it.each([
    '.expose',
    'expose.',
    'Expose',
    'expose..internal',
    'expose.Internal',
    'ex_pose',
    '-expose',
    'expose.-internal',
    'expose internal',
    `${'a'.repeat(64)}.scope`,
  ])('reports the capability key %j as invalid-key at the key, without validating its rendering', (key) => {
    const report = lintText(withBindings(`"${key}":\n  rendering: {anything: 1}`));
    expect(report.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['invalid-key', 7, 5]]);
    expect(report.diagnostics[0]!.message).toBe(
      `invalid key "${key}": expected <type> or <type>.<scope>: a DNS-1123 label, optionally followed by . and a DNS-1123 subdomain`,
    );
  });

  it('routes a scoped key to the handler of its type', () => {
    expect(resolve(withBindings('certificate.internal:\n  rendering:\n    issuerRef: {name: ca}'))).toEqual({
      'certificate.internal': { issuerRef: { name: 'ca', kind: 'ClusterIssuer' } },
    });
  });

  it('warns about a capability no handler or definition knows, with a hint for a near miss, or to load its definition (issue 16, defect 14)', () => {
    const report = lintText(withBindings('certificates:\n  rendering: {issuerRef: {name: ca}}\nredis-sidecar.cache:\n  rendering: {image: redis}'));
    expect(report.diagnostics.map((d) => [d.code, d.severity, d.line, d.column, d.path, d.hint])).toEqual([
      ['unknown-capability', 'warning', 7, 5, '/spec/capabilities/certificates', 'did you mean certificate?'],
      [
        'unknown-capability',
        'warning',
        9,
        5,
        '/spec/capabilities/redis-sidecar.cache',
        'if redis-sidecar is a custom capability, load its CapabilityDefinition: --definitions DIR, or definitions: in .kurel.yaml',
      ],
    ]);
    expect(report.files[0]?.resolved?.capabilities).toEqual({ certificates: { issuerRef: { name: 'ca' } }, 'redis-sidecar.cache': { image: 'redis' } });
  });

  it('makes an unknown capability an error with strict capabilities', () => {
    const report = lintText(withBindings('certificates: {}'), { strictCapabilities: true });
    expect(report.diagnostics.map((d) => [d.code, d.severity])).toEqual([['unknown-capability', 'error']]);
    expect(report.files[0]?.resolved).toBeUndefined();
  });
});
