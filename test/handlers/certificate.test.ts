import { describe, expect, it } from 'vitest';
import { certificate } from '../../handlers/certificate.js';
import { diagnose, err, lintText, resolve, withBindings } from '../helpers/profile.js';

// Binding text line n is profile line 6 + n; column c is column 4 + c (see withBindings).
// issuerRef is on line 9 (key at column 9); its own lines follow from line 10 (keys at column 11).
const cert = (...issuerRef: string[]) => withBindings(['certificate:', '  rendering:', '    issuerRef:', ...issuerRef.map((l) => `      ${l}`)].join('\n'));
const REF = '/spec/capabilities/certificate/rendering/issuerRef';

describe('certificate', () => {
  it('defaults issuerRef.kind to ClusterIssuer when absent', () => {
    expect(resolve(cert('name: letsencrypt-prod'))).toEqual({ certificate: { issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' } } });
  });

  it.each(['Issuer', 'ClusterIssuer', 'VenafiIssuer'])('keeps issuerRef.kind %s as written', (kind) => {
    expect(resolve(cert('name: ca', `kind: ${kind}`))).toEqual({ certificate: { issuerRef: { name: 'ca', kind } } });
  });

  it.each([
    ['empty', 'kind: ""'],
    ['null', 'kind:'],
  ])('defaults issuerRef.kind when it is %s', (_name, line) => {
    expect(resolve(cert('name: ca', line))).toEqual({ certificate: { issuerRef: { name: 'ca', kind: 'ClusterIssuer' } } });
  });

  it('reports a missing issuerRef at the rendering key', () => {
    expect(diagnose(withBindings('certificate:\n  rendering: {}'))).toEqual([err('missing-required', 8, 7, REF)]);
  });

  it('reports a binding with no rendering as missing issuerRef at the binding key', () => {
    expect(diagnose(withBindings('certificate: {}'))).toEqual([err('missing-required', 7, 5, REF)]);
  });

  it('reports issuerRef written with no value once, at its key', () => {
    expect(diagnose(cert())).toEqual([err('missing-required', 9, 9, REF)]);
  });

  it('reports issuerRef that is not a map as wrong-type at the value', () => {
    expect(diagnose(withBindings('certificate:\n  rendering:\n    issuerRef: letsencrypt'))).toEqual([err('wrong-type', 9, 20, REF)]);
  });

  it('reports a missing issuerRef.name at the issuerRef key', () => {
    const report = lintText(cert('kind: Issuer'));
    expect(report.diagnostics).toMatchObject([{ code: 'missing-required', line: 9, column: 9, path: `${REF}/name` }]);
    expect(report.diagnostics[0]!.message).toBe('capability "certificate": issuerRef.name is required');
  });

  it('reports an empty issuerRef.name as invalid-value at the value', () => {
    expect(diagnose(cert('name: ""'))).toEqual([err('invalid-value', 10, 17, `${REF}/name`)]);
  });

  it('reports a non-string issuerRef.kind as wrong-type', () => {
    expect(diagnose(cert('name: ca', 'kind: 1'))).toEqual([err('wrong-type', 11, 17, `${REF}/kind`)]);
  });

  it('reports an unknown key inside issuerRef at the key, with a hint', () => {
    const [d] = lintText(cert('name: ca', 'group: cert-manager.io', 'knd: Issuer')).diagnostics;
    expect(diagnose(cert('name: ca', 'group: cert-manager.io', 'knd: Issuer'))).toEqual([
      err('unknown-field', 11, 11, `${REF}/group`),
      err('unknown-field', 12, 11, `${REF}/knd`),
    ]);
    expect(d!.message).toBe('capability "certificate": unknown field "group" in issuerRef (allowed: name, kind)');
  });

  it('reports an unknown key beside issuerRef at the key', () => {
    const [d] = lintText(withBindings('certificate:\n  rendering:\n    issuerRef: {name: ca}\n    duration: 2160h')).diagnostics;
    expect(d).toMatchObject({ code: 'unknown-field', line: 10, column: 9, path: '/spec/capabilities/certificate/rendering/duration' });
  });

  it('is capability-aware and required', () => {
    expect({ aware: certificate.capabilityAware, required: certificate.capabilityRequired }).toEqual({ aware: true, required: true });
  });

  it('returns a new map and never mutates its (deeply frozen) input', () => {
    const input = Object.freeze({ issuerRef: Object.freeze({ name: 'ca', kind: '' }) });
    const result = certificate.validateAndApplyDefaults(input);
    expect(result).toEqual({ rendering: { issuerRef: { name: 'ca', kind: 'ClusterIssuer' } }, issues: [] });
    expect(result.rendering['issuerRef']).not.toBe(input.issuerRef);
    expect(input.issuerRef.kind).toBe('');
  });

  it('returns every error, not only the first', () => {
    const { issues } = certificate.validateAndApplyDefaults(Object.freeze({ issuerRef: Object.freeze({ kind: 1, extra: true }), other: 1 }));
    expect(issues.map((i) => [i.code, i.path.join('/')]).sort()).toEqual([
      ['missing-required', 'issuerRef/name'],
      ['unknown-field', 'issuerRef/extra'],
      ['unknown-field', 'other'],
      ['wrong-type', 'issuerRef/kind'],
    ]);
  });
});
