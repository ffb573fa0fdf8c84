import { describe, expect, it } from 'vitest';
import { externalSecret } from '../../handlers/external-secret.js';
import { diagnose, err, lintText, resolve, withBindings } from '../helpers/profile.js';

// Binding text line n is profile line 6 + n; column c is column 4 + c (see withBindings).
// secretStoreRef.name is on line 10; `ref` lines follow inside secretStoreRef (keys at column 11), then
// `extra` lines inside the rendering (keys at column 9).
const secret = (extra: string[] = [], ref: string[] = []) =>
  withBindings(
    ['external-secret:', '  rendering:', '    secretStoreRef:', '      name: vault', ...ref.map((l) => `      ${l}`), ...extra.map((l) => `    ${l}`)].join(
      '\n',
    ),
  );
const RENDERING = '/spec/capabilities/external-secret/rendering';

describe('external-secret', () => {
  it('defaults secretStoreRef.kind to ClusterSecretStore and adds no refreshInterval', () => {
    expect(resolve(secret())).toEqual({ 'external-secret': { secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' } } });
  });

  it('keeps a secretStoreRef.kind that is set', () => {
    expect(resolve(secret(['refreshInterval: 1h'], ['kind: SecretStore']))).toEqual({
      'external-secret': { secretStoreRef: { name: 'vault', kind: 'SecretStore' }, refreshInterval: '1h' },
    });
  });

  it('reports a secretStoreRef.kind other than SecretStore or ClusterSecretStore as invalid-value with did-you-mean (issue 16, defect 12)', () => {
    const report = lintText(secret([], ['kind: SecretStor']));
    expect(report.diagnostics).toMatchObject([
      { code: 'invalid-value', severity: 'error', line: 11, column: 17, path: `${RENDERING}/secretStoreRef/kind`, hint: 'did you mean SecretStore?' },
    ]);
    expect(report.diagnostics[0]!.message).toBe(
      'capability "external-secret": secretStoreRef.kind must be one of SecretStore, ClusterSecretStore, "", found string "SecretStor"',
    );
  });

  it('defaults an empty secretStoreRef.kind', () => {
    expect(resolve(secret([], ['kind: ""']))).toEqual({
      'external-secret': { secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' } },
    });
  });

  it.each(['1h', '30m', '90s', '1h30m', '1.5h', '.5h', '300ms', '10us', '10µs', '15ns', '0s', '0', '2h45m30.5s'])(
    'accepts refreshInterval %s (Go duration syntax)',
    (interval) => {
      expect(diagnose(secret([`refreshInterval: "${interval}"`]))).toEqual([]);
    },
  );

  it.each(['1d', '1w', '30', '', 'h', '1 h', '1h 30m', '1.h.5', 'one hour', '1H'])('reports refreshInterval %j as invalid-value at the value', (interval) => {
    expect(diagnose(secret([`refreshInterval: "${interval}"`]))).toEqual([err('invalid-value', 11, 26, `${RENDERING}/refreshInterval`)]);
  });

  it('names the expected duration syntax in the message', () => {
    const [d] = lintText(secret(['refreshInterval: 1d'])).diagnostics;
    expect(d!.message).toBe(
      'capability "external-secret": refreshInterval must be a duration such as 1h, 30m, 90s or 1h30m (units ns, us, ms, s, m, h), found string "1d"',
    );
  });

  it('reports a numeric refreshInterval as wrong-type', () => {
    expect(diagnose(secret(['refreshInterval: 3600']))).toEqual([err('wrong-type', 11, 26, `${RENDERING}/refreshInterval`)]);
  });

  it.each([
    ['90', '"90s"'],
    ['1.50', '"1.50s"'],
  ])('hints a duration with a unit for refreshInterval: %s, so the quoted value passes (issue 16, defect 5)', (written, quoted) => {
    const [d] = lintText(secret([`refreshInterval: ${written}`])).diagnostics;
    expect(d!.hint).toBe(`quote it with a unit: ${quoted}`);
    expect(diagnose(secret([`refreshInterval: ${quoted}`]))).toEqual([]);
  });

  it('reports a missing secretStoreRef at the rendering key', () => {
    expect(diagnose(withBindings('external-secret:\n  rendering:\n    refreshInterval: 1h'))).toEqual([
      err('missing-required', 8, 7, `${RENDERING}/secretStoreRef`),
    ]);
  });

  it('reports a missing secretStoreRef.name at the secretStoreRef key', () => {
    expect(diagnose(withBindings('external-secret:\n  rendering:\n    secretStoreRef: {kind: ClusterSecretStore}'))).toEqual([
      err('missing-required', 9, 9, `${RENDERING}/secretStoreRef/name`),
    ]);
  });

  it('reports an empty secretStoreRef.name as invalid-value', () => {
    expect(diagnose(withBindings('external-secret:\n  rendering:\n    secretStoreRef:\n      name: ""'))).toEqual([
      err('invalid-value', 10, 17, `${RENDERING}/secretStoreRef/name`),
    ]);
  });

  it('reports an unknown key in secretStoreRef and in the rendering, each with a hint', () => {
    const report = lintText(secret(['refreshIntervall: 1h'], ['knid: x']));
    expect(report.diagnostics).toMatchObject([
      { code: 'unknown-field', line: 11, column: 11, path: `${RENDERING}/secretStoreRef/knid`, hint: 'did you mean kind?' },
      { code: 'unknown-field', line: 12, column: 9, path: `${RENDERING}/refreshIntervall`, hint: 'did you mean refreshInterval?' },
    ]);
  });

  it('is capability-aware but not required', () => {
    expect({ aware: externalSecret.capabilityAware, required: externalSecret.capabilityRequired }).toEqual({ aware: true, required: false });
  });

  it('returns a new map and never mutates its (deeply frozen) input', () => {
    const input = Object.freeze({ secretStoreRef: Object.freeze({ name: 'vault' }), refreshInterval: '1h' });
    const result = externalSecret.validateAndApplyDefaults(input);
    expect(result).toEqual({ rendering: { secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' }, refreshInterval: '1h' }, issues: [] });
    expect(input.secretStoreRef).toEqual({ name: 'vault' });
  });

  it('returns every error, not only the first', () => {
    const { issues } = externalSecret.validateAndApplyDefaults(Object.freeze({ secretStoreRef: Object.freeze({ name: '' }), refreshInterval: '1d', x: 1 }));
    expect(issues.map((i) => [i.code, i.path.join('/')]).sort()).toEqual([
      ['invalid-value', 'refreshInterval'],
      ['invalid-value', 'secretStoreRef/name'],
      ['unknown-field', 'x'],
    ]);
  });
});
