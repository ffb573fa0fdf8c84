import { describe, expect, it } from 'vitest';
import { expose } from '../../handlers/expose.js';
import { diagnose, err, lintText, resolve, withBindings } from '../helpers/profile.js';

// Binding text line n is profile line 6 + n; column c is column 4 + c (see withBindings).
const ingress = (...extra: string[]) =>
  withBindings(['expose:', '  rendering:', '    controllerType: ingress', '    ingressClassName: nginx', ...extra.map((l) => `    ${l}`)].join('\n'));
const gateway = (...extra: string[]) =>
  withBindings(['expose:', '  rendering:', '    controllerType: gateway', '    gatewayName: public-gw', ...extra.map((l) => `    ${l}`)].join('\n'));
const RENDERING = '/spec/capabilities/expose/rendering';

describe('expose: controllerType', () => {
  it('reports a missing controllerType at the rendering key', () => {
    expect(diagnose(withBindings('expose:\n  rendering:\n    ingressClassName: nginx'))).toEqual([
      err('missing-required', 8, 7, `${RENDERING}/controllerType`),
    ]);
  });

  it.each([
    ['no rendering key', 'expose: {}', 7, 5],
    ['a null binding', 'expose:', 7, 5],
    ['a null rendering', 'expose:\n  rendering:', 8, 7],
    ['an empty rendering', 'expose:\n  rendering: {}', 8, 7],
  ])('reports a binding with %s as missing controllerType', (_name, bindings, line, column) => {
    expect(diagnose(withBindings(bindings))).toEqual([err('missing-required', line, column, `${RENDERING}/controllerType`)]);
  });

  it('reports controllerType written with no value at its own key', () => {
    expect(diagnose(withBindings('expose:\n  rendering:\n    controllerType:\n    ingressClassName: nginx'))).toEqual([
      err('missing-required', 9, 9, `${RENDERING}/controllerType`),
    ]);
  });

  it('reports an unknown controllerType as invalid-value at the value, with a hint for a case slip', () => {
    const report = lintText(withBindings('expose:\n  rendering:\n    controllerType: Ingress\n    ingressClassName: nginx'));
    expect(report.diagnostics).toMatchObject([
      { code: 'invalid-value', line: 9, column: 25, endLine: 9, endColumn: 32, path: `${RENDERING}/controllerType`, hint: 'did you mean ingress?' },
    ]);
    expect(report.diagnostics[0]!.message).toBe('capability "expose": controllerType must be one of ingress, gateway, found string "Ingress"');
  });

  it('still judges every other key when controllerType names no branch (issue 16, defect 2)', () => {
    const bindings = [
      'expose:',
      '  rendering:',
      '    controllerType: ingres',
      '    ingressClassName: 5',
      '    sslRedirect: "yes"',
      '    authSigninURL: https://auth.example.com/start',
      '    gatewayNamespace: 7',
      '    hostnames: [a]',
    ].join('\n');
    expect(diagnose(withBindings(bindings))).toEqual([
      err('invalid-value', 9, 25, `${RENDERING}/controllerType`),
      err('wrong-type', 10, 27, `${RENDERING}/ingressClassName`),
      err('wrong-type', 11, 22, `${RENDERING}/sslRedirect`),
      err('missing-required', 12, 9, `${RENDERING}/authURL`),
      err('wrong-type', 13, 27, `${RENDERING}/gatewayNamespace`),
      err('unknown-field', 14, 9, `${RENDERING}/hostnames`),
    ]);
  });

  it('accepts a key without controllerType when some branch takes its value', () => {
    expect(diagnose(withBindings('expose:\n  rendering:\n    gatewayName: public-gw\n    allowedHostnameWildcard: "*.apps.example.com"'))).toEqual([
      err('missing-required', 8, 7, `${RENDERING}/controllerType`),
    ]);
  });

  it('reports a non-string controllerType as wrong-type', () => {
    expect(diagnose(withBindings('expose:\n  rendering:\n    controllerType: 123'))).toEqual([err('wrong-type', 9, 25, `${RENDERING}/controllerType`)]);
  });
});

describe('expose: ingress', () => {
  it('resolves an ingress binding without adding any gateway default', () => {
    expect(resolve(ingress())).toEqual({ expose: { controllerType: 'ingress', ingressClassName: 'nginx' } });
  });

  it('keeps every ingress key as written', () => {
    const rendering = {
      controllerType: 'ingress',
      ingressClassName: 'nginx',
      certManagerClusterIssuer: 'letsencrypt-prod',
      allowedHostnameWildcard: '*.apps.example.com',
      sslRedirect: true,
      forceSslRedirect: false,
      authURL: 'https://auth.example.com/oauth2/auth',
      authSigninURL: 'https://auth.example.com/oauth2/start?rd=/',
      authResponseHeaders: 'X-Auth-Request-User',
      networkPolicy: { trafficSources: [{ namespace: 'ingress-nginx', podSelector: { matchLabels: { app: 'nginx' } } }, { namespace: 'monitoring' }] },
    };
    expect(resolve(withBindings(`expose:\n  rendering: ${JSON.stringify(rendering)}`))).toEqual({ expose: rendering });
  });

  it('reports a missing ingressClassName at the rendering key, naming the branch', () => {
    const report = lintText(withBindings('expose:\n  rendering:\n    controllerType: ingress'));
    expect(report.diagnostics).toMatchObject([{ code: 'missing-required', line: 8, column: 7, path: `${RENDERING}/ingressClassName` }]);
    expect(report.diagnostics[0]!.message).toBe('capability "expose": ingressClassName is required when controllerType is ingress');
  });

  it('reports an empty ingressClassName as invalid-value at the value', () => {
    expect(diagnose(withBindings('expose:\n  rendering:\n    controllerType: ingress\n    ingressClassName: ""'))).toEqual([
      err('invalid-value', 10, 27, `${RENDERING}/ingressClassName`),
    ]);
  });

  it('reports a number for ingressClassName as wrong-type with a hint to quote it', () => {
    const report = lintText(withBindings('expose:\n  rendering:\n    controllerType: ingress\n    ingressClassName: 42'));
    expect(report.diagnostics).toMatchObject([{ code: 'wrong-type', line: 10, column: 27, path: `${RENDERING}/ingressClassName`, hint: 'quote it: "42"' }]);
  });

  it.each([
    ['gatewayName: gw', 'gatewayName'],
    ['gatewayNamespace: gateway-system', 'gatewayNamespace'],
  ])('reports %s under an ingress binding as field-not-allowed at the key', (line, key) => {
    const report = lintText(ingress(line));
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path }))).toEqual([
      { code: 'field-not-allowed', line: 11, column: 9, path: `${RENDERING}/${key}` },
    ]);
    expect(report.diagnostics[0]!.message).toBe(`capability "expose": ${key} is not allowed when controllerType is ingress`);
  });

  it.each([
    ['sslRedirect: "true"', 'sslRedirect', 22],
    ['forceSslRedirect: 1', 'forceSslRedirect', 27],
  ])('reports %s as wrong-type: booleans are never coerced', (line, key, column) => {
    expect(diagnose(ingress(line))).toEqual([err('wrong-type', 11, column, `${RENDERING}/${key}`)]);
  });

  it.each([
    ['"true"', 'remove the quotes: true'],
    ["'false'", 'remove the quotes: false'],
    ['"True"', 'remove the quotes: True'],
    ['"yes"', 'write true (YAML 1.2 reads "yes" as a string)'],
    ['off', 'write false (YAML 1.2 reads "off" as a string)'],
  ])('hints at the cause for sslRedirect: %s (issue 16, defect 6)', (written, hint) => {
    const [d] = lintText(ingress(`sslRedirect: ${written}`)).diagnostics;
    expect(d).toMatchObject({ code: 'wrong-type', line: 11, column: 22, hint });
  });

  it('reports sslRedirect: yes as a string with a hint to write true', () => {
    const [d] = lintText(ingress('sslRedirect: yes')).diagnostics;
    expect(d).toMatchObject({
      code: 'wrong-type',
      line: 11,
      column: 22,
      path: `${RENDERING}/sslRedirect`,
      hint: 'write true (YAML 1.2 reads "yes" as a string)',
    });
  });

  it('reports an authURL with a query as invalid-value at the value', () => {
    const [d] = lintText(ingress('authURL: https://auth.example.com/check?x=1')).diagnostics;
    expect(d).toMatchObject({ code: 'invalid-value', line: 11, column: 18, path: `${RENDERING}/authURL` });
    expect(d!.message).toBe('capability "expose": authURL must be a base URL without a query (no ?), found string "https://auth.example.com/check?x=1"');
  });

  it.each(['authSigninURL: https://auth.example.com/start', 'authResponseHeaders: X-User'])(
    'reports %s without authURL as missing authURL, positioned at the key that needs it',
    (line) => {
      const key = line.slice(0, line.indexOf(':'));
      const [d] = lintText(ingress(line)).diagnostics;
      expect(d).toMatchObject({ code: 'missing-required', line: 11, column: 9, endColumn: 9 + key.length, path: `${RENDERING}/authURL` });
      expect(d!.message).toBe(`capability "expose": authURL is required when ${key} is set`);
    },
  );

  it('accepts authSigninURL and authResponseHeaders once authURL is set', () => {
    expect(diagnose(ingress('authURL: https://a.example.com', 'authSigninURL: https://a.example.com/s', 'authResponseHeaders: X-User'))).toEqual([]);
  });

  it('reports every missing authURL, one per key that needs it', () => {
    expect(diagnose(ingress('authSigninURL: https://a.example.com/s', 'authResponseHeaders: X-User'))).toEqual([
      err('missing-required', 11, 9, `${RENDERING}/authURL`),
      err('missing-required', 12, 9, `${RENDERING}/authURL`),
    ]);
  });
});

describe('expose: gateway', () => {
  it.each([
    ['absent', []],
    ['empty', ['gatewayNamespace: ""']],
    ['null', ['gatewayNamespace:']],
  ])('defaults gatewayNamespace to gateway-system when it is %s', (_name, extra) => {
    expect(resolve(gateway(...extra))).toEqual({ expose: { controllerType: 'gateway', gatewayName: 'public-gw', gatewayNamespace: 'gateway-system' } });
  });

  it('keeps a gatewayNamespace that is set', () => {
    expect(resolve(gateway('gatewayNamespace: edge'))).toEqual({ expose: { controllerType: 'gateway', gatewayName: 'public-gw', gatewayNamespace: 'edge' } });
  });

  it('keeps allowedHostnameWildcard and networkPolicy, which both branches take', () => {
    expect(resolve(gateway('allowedHostnameWildcard: "*.example.com"', 'networkPolicy: {trafficSources: [{namespace: gw}]}'))).toEqual({
      expose: {
        controllerType: 'gateway',
        gatewayName: 'public-gw',
        gatewayNamespace: 'gateway-system',
        allowedHostnameWildcard: '*.example.com',
        networkPolicy: { trafficSources: [{ namespace: 'gw' }] },
      },
    });
  });

  it('reports a missing gatewayName at the rendering key, naming the branch', () => {
    const report = lintText(withBindings('expose:\n  rendering:\n    controllerType: gateway'));
    expect(report.diagnostics).toMatchObject([{ code: 'missing-required', line: 8, column: 7, path: `${RENDERING}/gatewayName` }]);
    expect(report.diagnostics[0]!.message).toBe('capability "expose": gatewayName is required when controllerType is gateway');
  });

  it('reports an empty gatewayName as invalid-value at the value', () => {
    expect(diagnose(withBindings('expose:\n  rendering:\n    controllerType: gateway\n    gatewayName: ""'))).toEqual([
      err('invalid-value', 10, 22, `${RENDERING}/gatewayName`),
    ]);
  });

  it.each([
    'ingressClassName: nginx',
    'certManagerClusterIssuer: letsencrypt-prod',
    'sslRedirect: false',
    'forceSslRedirect: false',
    'authURL: https://auth.example.com',
    'authSigninURL: https://auth.example.com/start',
    'authResponseHeaders: X-User',
  ])('reports the ingress-only %s under a gateway binding as field-not-allowed at the key', (line) => {
    const key = line.slice(0, line.indexOf(':'));
    expect(diagnose(gateway(line))).toEqual([err('field-not-allowed', 11, 9, `${RENDERING}/${key}`)]);
  });

  it('reports a gatewayNamespace of the wrong type instead of defaulting it', () => {
    expect(diagnose(gateway('gatewayNamespace: 7'))).toEqual([err('wrong-type', 11, 27, `${RENDERING}/gatewayNamespace`)]);
  });
});

describe('expose: networkPolicy', () => {
  const policy = (...lines: string[]) => ingress('networkPolicy:', ...lines.map((l) => `  ${l}`));
  const NP = `${RENDERING}/networkPolicy`;

  it('reports an unknown key in networkPolicy at the key, with a hint', () => {
    const [d] = lintText(policy('trafficSource: []')).diagnostics;
    expect(d).toMatchObject({ code: 'unknown-field', line: 12, column: 11, path: `${NP}/trafficSource`, hint: 'did you mean trafficSources?' });
  });

  it('reports trafficSources that is not a list as wrong-type', () => {
    expect(diagnose(policy('trafficSources: {namespace: a}'))).toEqual([err('wrong-type', 12, 27, `${NP}/trafficSources`)]);
  });

  it('reports a source without namespace at the first line of the list item', () => {
    expect(diagnose(policy('trafficSources:', '  - podSelector: {}'))).toEqual([err('missing-required', 13, 15, `${NP}/trafficSources/0/namespace`)]);
  });

  it('reports an empty namespace as invalid-value', () => {
    expect(diagnose(policy('trafficSources:', '  - namespace: ""'))).toEqual([err('invalid-value', 13, 26, `${NP}/trafficSources/0/namespace`)]);
  });

  it('reports an unknown key in a traffic source at the key', () => {
    expect(diagnose(policy('trafficSources:', '  - namespace: a', '    ports: [80]'))).toEqual([err('unknown-field', 14, 15, `${NP}/trafficSources/0/ports`)]);
  });

  it('reports a podSelector that is not a map as wrong-type', () => {
    expect(diagnose(policy('trafficSources:', '  - namespace: a', '    podSelector: app'))).toEqual([
      err('wrong-type', 14, 28, `${NP}/trafficSources/0/podSelector`),
    ]);
  });

  it('accepts an empty networkPolicy and keeps podSelector contents as data', () => {
    expect(resolve(policy('trafficSources:', '  - namespace: a', '    podSelector: {matchLabels: {x: "1"}}')).expose).toEqual({
      controllerType: 'ingress',
      ingressClassName: 'nginx',
      networkPolicy: { trafficSources: [{ namespace: 'a', podSelector: { matchLabels: { x: '1' } } }] },
    });
    expect(diagnose(ingress('networkPolicy: {}'))).toEqual([]);
  });
});

describe('expose: unknown keys', () => {
  it('reports a misspelled key at the key with a did-you-mean hint', () => {
    const [d] = lintText(ingress('ingresClassName: x')).diagnostics;
    expect(d).toMatchObject({
      code: 'unknown-field',
      line: 11,
      column: 9,
      endColumn: 24,
      path: `${RENDERING}/ingresClassName`,
      hint: 'did you mean ingressClassName?',
    });
  });

  it('names keys no branch knows even when controllerType is wrong, so one mistake does not hide the next', () => {
    expect(diagnose(withBindings('expose:\n  rendering:\n    controllerType: traefik\n    ingressClassName: nginx\n    colour: blue'))).toEqual([
      err('invalid-value', 9, 25, `${RENDERING}/controllerType`),
      err('unknown-field', 11, 9, `${RENDERING}/colour`),
    ]);
  });

  it('applies to scoped keys, naming the key in the message', () => {
    const report = lintText(withBindings('expose.eu.public:\n  rendering:\n    controllerType: gateway'));
    expect(report.diagnostics).toMatchObject([
      { code: 'missing-required', line: 8, column: 7, path: '/spec/capabilities/expose.eu.public/rendering/gatewayName' },
    ]);
    expect(report.diagnostics[0]!.message).toBe('capability "expose.eu.public": gatewayName is required when controllerType is gateway');
  });
});

describe('expose handler', () => {
  it('declares the platform-reserved keys an application may not author inline', () => {
    expect([...(expose.platformReserved ?? [])].sort()).toEqual(
      [
        'allowedHostnameWildcard',
        'authResponseHeaders',
        'authURL',
        'certManagerClusterIssuer',
        'controllerType',
        'gatewayName',
        'gatewayNamespace',
        'networkPolicy',
      ].sort(),
    );
  });

  it('is capability-aware and required', () => {
    expect({ aware: expose.capabilityAware, required: expose.capabilityRequired }).toEqual({ aware: true, required: true });
  });

  it('returns a new map and never mutates its (deeply frozen) input', () => {
    const input = deepFreeze({ controllerType: 'gateway', gatewayName: 'gw', gatewayNamespace: '', networkPolicy: { trafficSources: [{ namespace: 'a' }] } });
    const result = expose.validateAndApplyDefaults(input);
    expect(result.issues).toEqual([]);
    expect(result.rendering).not.toBe(input);
    expect(result.rendering['networkPolicy']).not.toBe(input.networkPolicy);
    expect(result.rendering).toEqual({
      controllerType: 'gateway',
      gatewayName: 'gw',
      gatewayNamespace: 'gateway-system',
      networkPolicy: { trafficSources: [{ namespace: 'a' }] },
    });
    expect(input.gatewayNamespace).toBe('');
  });

  it('returns every error, not only the first', () => {
    const input = deepFreeze({ controllerType: 'ingress', ingressClassName: '', sslRedirect: 'yes', gatewayName: 'gw', authSigninURL: 'x', extra: 1 });
    const { issues } = expose.validateAndApplyDefaults(input);
    expect(issues.map((i) => [i.code, i.path.join('/')]).sort()).toEqual(
      [
        ['field-not-allowed', 'gatewayName'],
        ['invalid-value', 'ingressClassName'],
        ['missing-required', 'authURL'],
        ['unknown-field', 'extra'],
        ['wrong-type', 'sslRedirect'],
      ].sort(),
    );
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
