import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diagnose, err, lintText } from '../helpers/profile.js';
import { lintBounded } from './bounded-cli.js';

// Issue #7: __proto__, constructor and prototype are ordinary keys at every level (docs/profiles.md):
// unknown fields in closed maps, plain data in open ones, never able to reach a prototype.
const KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

// The key K written at every level of a profile; the comments give each one's line.
const everywhere = (k: string) => `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
${k}: {polluted: yes}
metadata:
  name: prod
  ${k}: {polluted: yes}
spec:
  ${k}: {polluted: yes}
  capabilities:
    expose:
      ${k}: {polluted: yes}
      rendering:
        controllerType: ingress
        ingressClassName: nginx
        ${k}: {polluted: yes}
        networkPolicy:
          ${k}: {polluted: yes}
          trafficSources:
          - namespace: apps
            ${k}: {polluted: yes}
            podSelector: {${k}: {polluted: yes}, matchLabels: {${k}: yes}}
    certificate:
      rendering:
        issuerRef: {name: letsencrypt, ${k}: {polluted: yes}}
    networkpolicy:
      rendering: {${k}: {polluted: yes}}
    ingress:
      rendering:
        ${k}: {polluted: yes}
        nested: {${k}: {polluted: yes}}
        <<: {merged: {${k}: {polluted: yes}}}
`;

const expectPrototypeUntouched = () => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
};

afterAll(expectPrototypeUntouched);

describe.each(KEYS)('the key %s', (k) => {
  it('is an unknown field in every closed map of a profile, at the key', () => {
    const rendering = '/spec/capabilities/expose/rendering';
    expect(diagnose(everywhere(k)).filter((d) => d.code === 'unknown-field')).toEqual([
      err('unknown-field', 3, 1, `/${k}`),
      err('unknown-field', 6, 3, `/metadata/${k}`),
      err('unknown-field', 8, 3, `/spec/${k}`),
      err('unknown-field', 11, 7, `/spec/capabilities/expose/${k}`),
      err('unknown-field', 15, 9, `${rendering}/${k}`),
      err('unknown-field', 17, 11, `${rendering}/networkPolicy/${k}`),
      err('unknown-field', 20, 13, `${rendering}/networkPolicy/trafficSources/0/${k}`),
      err('unknown-field', 24, 40, `/spec/capabilities/certificate/rendering/issuerRef/${k}`),
      err('unknown-field', 26, 19, `/spec/capabilities/networkpolicy/rendering/${k}`),
    ]);
  });

  it('leaves Object.prototype untouched after every level was read', () => {
    lintText(everywhere(k));
    expectPrototypeUntouched();
  });
});

describe.each(KEYS)('open maps keep %s as plain data', (k) => {
  const profile = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  capabilities:
    expose:
      rendering:
        controllerType: gateway
        gatewayName: public
        networkPolicy:
          trafficSources:
          - namespace: apps
            podSelector: {${k}: {polluted: yes}, matchLabels: {${k}: yes}}
    ingress:
      rendering:
        ${k}: {polluted: yes}
        <<: {merged: {${k}: {polluted: yes}}}
`;

  // The ingress rendering is validated by nothing: its warning (docs/codes/unvalidated-capability.md) is the only problem.
  const passThrough = (line: number) => ({
    code: 'unvalidated-capability',
    severity: 'warning',
    line,
    column: 7,
    path: '/spec/capabilities/ingress/rendering',
  });

  it('lints without errors', () => {
    expect(diagnose(profile)).toEqual([passThrough(16)]);
  });

  it('resolves the key as an own property holding the written value', () => {
    const capabilities = lintText(profile).files[0]?.resolved?.capabilities ?? {};
    const ingress = capabilities['ingress'] as Record<string, unknown>;
    const selector = (capabilities['expose'] as { networkPolicy: { trafficSources: Record<string, unknown>[] } }).networkPolicy.trafficSources[0]![
      'podSelector'
    ] as Record<string, unknown>;
    expect({
      ingress: [
        Object.hasOwn(ingress, k),
        Object.getPrototypeOf(ingress) === Object.prototype,
        JSON.stringify(Object.getOwnPropertyDescriptor(ingress, k)?.value),
      ],
      merged: JSON.stringify(Object.getOwnPropertyDescriptor(ingress['merged'] as object, k)?.value),
      selector: [Object.hasOwn(selector, k), Object.hasOwn(selector['matchLabels'] as object, k)],
    }).toEqual({
      ingress: [true, true, '{"polluted":"yes"}'],
      merged: '{"polluted":"yes"}',
      selector: [true, true],
    });
    expectPrototypeUntouched();
  });

  it('is a DNS-1123 capability key when it is one, and known to nothing', () => {
    const text = profile.replace('    ingress:\n', `    ${k}: {}\n    ingress:\n`);
    expect(diagnose(text)).toEqual(
      k === '__proto__'
        ? [err('invalid-key', 15, 5, `/spec/capabilities/${k}`), passThrough(17)]
        : [{ code: 'unknown-capability', severity: 'warning', line: 15, column: 5, path: `/spec/capabilities/${k}` }, passThrough(17)],
    );
  });

  describe('as a CapabilityDefinition property', () => {
    const definition = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: cache
  labels: {${k}: x}
spec:
  rendering:
    properties:
      ${k}: {type: string, default: memcached}
      size: {type: object, properties: {${k}: {type: integer, default: 3}}}
`;
    const withCache = (rendering: string) => profile.replace('    ingress:\n', `    cache:\n      rendering: ${rendering}\n    ingress:\n`);

    it('checks the type of a binding value under that name (line 16)', () => {
      const report = lintText(withCache(`{${k}: 42}`), { definitions: { 'cache.yaml': definition } });
      expect(report.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.path])).toEqual([
        ['wrong-type', 'cluster.yaml', 16, 19 + `${k}: `.length, `/spec/capabilities/cache/rendering/${k}`],
        ['unvalidated-capability', 'cluster.yaml', 18, 7, '/spec/capabilities/ingress/rendering'],
      ]);
    });

    it('applies its defaults as own properties of a plain map', () => {
      const report = lintText(withCache('{size: {}}'), { definitions: { 'cache.yaml': definition } });
      const rendering = report.files[0]?.resolved?.capabilities['cache'] as Record<string, unknown>;
      expect(JSON.stringify(rendering)).toBe(`{"size":{"${k}":3},"${k}":"memcached"}`);
      expect(Object.getPrototypeOf(rendering)).toBe(Object.prototype);
      expectPrototypeUntouched();
    });
  });
});

describe('the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kurel-proto-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints such keys of a pass-through rendering in the resolved JSON output', async () => {
    writeFileSync(
      join(dir, 'cluster.yaml'),
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    ingress:\n      rendering:\n        __proto__: {polluted: yes}\n        constructor: {prototype: {polluted: yes}}\n',
    );
    const run = await lintBounded(['cluster.yaml'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '"ingress": {\n            "__proto__": {\n              "polluted": "yes"\n            },\n            "constructor": {\n              "prototype": {\n                "polluted": "yes"\n              }\n            }\n          }',
    );
  });
});
