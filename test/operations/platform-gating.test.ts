import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { InputFile } from '../../src/core/input.js';
import { type LintReport, lintInputs } from '../../src/operations/lint.js';
import type { PlatformOptions } from '../../src/operations/platform.js';
import { dedent } from '../helpers/profile.js';

// docs/platform.md: bindings are judged at the cluster's platform. The definition below follows one
// component per property; its lines are pinned by the profile texts, whose binding keys sit on
// line 9, column 5 (line 8 holds `capabilities:`).

const DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: edge-proxy
spec:
  rendering:
    properties:
      replicas: {type: integer, default: 2}
      tls:
        type: object
        introducedIn: "1.29"
        properties:
          mode:
            type: string
            enum: [simple, mutual, passthrough]
            default: simple
            enumLifecycle:
              mutual: {introducedIn: "1.31"}
              passthrough: {deprecatedIn: "1.30", removedIn: "1.32", deprecationNote: "terminate TLS at the proxy instead"}
          legacyCiphers:
            type: boolean
            deprecatedIn: "1.30"
            removedIn: "1.32"
            deprecationNote: "use mode: mutual"
          port: {type: integer, default: 443}
      sidecar:
        type: string
        default: envoy
        introducedIn: "gateway-api 1.1"
      hostNetwork: {type: boolean, introducedIn: "1.10"}
`;

const LEGACY = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: old-proxy
spec:
  introducedIn: "1.20"
  deprecatedIn: "1.29"
  removedIn: "1.31"
  deprecationNote: "use edge-proxy"
  rendering:
    properties:
      replicas: {type: integer, default: 1}
`;

/** A profile with `platform` (YAML lines under spec.platform, or none) and the bindings text. */
function profile(platform: string | undefined, bindings: string): string {
  const head = ['apiVersion: launcher.gokure.dev/v1alpha1', 'kind: ClusterProfile', 'metadata:', '  name: edge', 'spec:'];
  const platformLines = platform === undefined ? ['  gitopsEngine: fluxcd', ''] : ['  platform:', `    ${platform}`];
  const bindingLines = dedent(bindings).map((line) => `    ${line}`);
  return `${[...head, ...platformLines, '  capabilities:', ...bindingLines].join('\n')}\n`;
}

function lint(text: string, platform?: PlatformOptions): LintReport {
  const inputs: InputFile[] = [
    { file: 'cluster.yaml', content: text, origin: 'argument' },
    { file: 'defs/edge-proxy.yaml', content: DEFINITION, origin: 'definition' },
    { file: 'defs/old-proxy.yaml', content: LEGACY, origin: 'definition' },
  ];
  return lintInputs(inputs, createCatalogue(), platform ? { platform } : {});
}

interface Found {
  code: string;
  severity: string;
  line: number;
  column: number;
  path: string;
  message: string;
}

function found(report: LintReport): Found[] {
  return report.diagnostics.map((d: Diagnostic) => ({ code: d.code, severity: d.severity, line: d.line, column: d.column, path: d.path, message: d.message }));
}

function resolved(report: LintReport): Record<string, unknown> | undefined {
  return report.files[0]?.resolved?.capabilities;
}

const at = (kubernetes: string) => `kubernetes: "${kubernetes}"`;

describe('field-unavailable and field-deprecated for properties', () => {
  it('reports only the outermost unavailable key, at the key, naming the property, the component, the version run and the bound', () => {
    const report = lint(profile(at('1.28'), 'edge-proxy:\n  rendering:\n    tls:\n      mode: mutual\n      legacyCiphers: true'));
    expect(found(report)).toEqual([
      {
        code: 'field-unavailable',
        severity: 'error',
        line: 11,
        column: 9,
        path: '/spec/capabilities/edge-proxy/rendering/tls',
        message: 'capability "edge-proxy": tls needs kubernetes 1.29; this cluster runs 1.28',
      },
    ]);
  });

  it.each([
    ['just before introducedIn', '1.28.9', false],
    ['at introducedIn', '1.29', true],
    ['at introducedIn with a patch', '1.29.0', true],
    ['after introducedIn', '1.33', true],
  ])('judges tls %s (%s): available %s', (_when, version, available) => {
    const report = lint(profile(at(version), 'edge-proxy:\n  rendering:\n    tls: {port: 8443}'));
    expect(report.diagnostics.map((d) => d.code)).toEqual(available ? [] : ['field-unavailable']);
  });

  it.each([
    ['before deprecatedIn', '1.29', []],
    ['at deprecatedIn', '1.30', [['field-deprecated', 'warning']]],
    ['between deprecatedIn and removedIn', '1.31.4', [['field-deprecated', 'warning']]],
    ['at removedIn: unavailable only, never also deprecated', '1.32', [['field-unavailable', 'error']]],
    ['after removedIn', '1.40', [['field-unavailable', 'error']]],
  ])('judges tls.legacyCiphers %s', (_when, version, expected) => {
    const report = lint(profile(at(version), 'edge-proxy:\n  rendering:\n    tls:\n      legacyCiphers: true'));
    expect(report.diagnostics.map((d) => [d.code, d.severity])).toEqual(expected);
    for (const d of report.diagnostics)
      expect({ line: d.line, column: d.column, path: d.path }).toEqual({
        line: 12,
        column: 11,
        path: '/spec/capabilities/edge-proxy/rendering/tls/legacyCiphers',
      });
  });

  it('gives the note with a deprecation and with a removal', () => {
    const deprecated = lint(profile(at('1.30'), 'edge-proxy:\n  rendering:\n    tls:\n      legacyCiphers: true'));
    expect(deprecated.diagnostics[0]?.message).toBe(
      'capability "edge-proxy": tls.legacyCiphers is deprecated since kubernetes 1.30 (this cluster runs 1.30): use mode: mutual',
    );
    const removed = lint(profile(at('1.32'), 'edge-proxy:\n  rendering:\n    tls:\n      legacyCiphers: true'));
    expect(removed.diagnostics[0]?.message).toBe(
      'capability "edge-proxy": tls.legacyCiphers was removed in kubernetes 1.32 (this cluster runs 1.32): use mode: mutual',
    );
  });

  it('reports a key the platform lacks even written as null, as a closed map reports an unknown key', () => {
    expect(found(lint(profile(at('1.28'), 'edge-proxy:\n  rendering:\n    tls: null'))).map((d) => [d.code, d.line, d.column, d.path])).toEqual([
      ['field-unavailable', 11, 9, '/spec/capabilities/edge-proxy/rendering/tls'],
    ]);
    expect(lint(profile(at('1.30'), 'edge-proxy:\n  rendering:\n    tls:\n      legacyCiphers: null')).diagnostics.map((d) => d.code)).toEqual([
      'field-deprecated',
    ]);
  });

  it('compares versions numerically part by part: 1.9 is before 1.10', () => {
    expect(lint(profile(at('1.9'), 'edge-proxy:\n  rendering:\n    hostNetwork: true')).diagnostics.map((d) => d.code)).toEqual(['field-unavailable']);
    expect(lint(profile(at('1.10'), 'edge-proxy:\n  rendering:\n    hostNetwork: true')).diagnostics).toEqual([]);
    expect(lint(profile(at('1.10.0'), 'edge-proxy:\n  rendering:\n    hostNetwork: true')).diagnostics).toEqual([]);
  });

  it('gates nothing of a component the platform does not name: every property exists and every default applies', () => {
    const report = lint(profile(at('1.28'), 'edge-proxy:\n  rendering: {}'));
    expect(report.diagnostics).toEqual([]);
    expect(resolved(report)).toEqual({ 'edge-proxy': { replicas: 2, sidecar: 'envoy' } });
    const none = lint(profile(undefined, 'edge-proxy:\n  rendering:\n    tls: {mode: passthrough, legacyCiphers: true}\n    hostNetwork: true'));
    expect(none.diagnostics).toEqual([]);
  });

  it('applies a default only where its property exists', () => {
    const before = lint(profile('gateway-api: "1.0"', 'edge-proxy:\n  rendering: {}'));
    expect(resolved(before)).toEqual({ 'edge-proxy': { replicas: 2 } });
    const after = lint(profile('gateway-api: "1.1"', 'edge-proxy:\n  rendering: {}'));
    expect(resolved(after)).toEqual({ 'edge-proxy': { replicas: 2, sidecar: 'envoy' } });
  });

  it('names the other component in the message', () => {
    const report = lint(profile('gateway-api: "1.0.3"', 'edge-proxy:\n  rendering:\n    sidecar: linkerd'));
    expect(found(report)).toEqual([
      {
        code: 'field-unavailable',
        severity: 'error',
        line: 11,
        column: 9,
        path: '/spec/capabilities/edge-proxy/rendering/sidecar',
        message: 'capability "edge-proxy": sidecar needs gateway-api 1.1; this cluster runs 1.0.3',
      },
    ]);
  });

  it('applies the defaults inside an available object', () => {
    expect(resolved(lint(profile(at('1.29'), 'edge-proxy:\n  rendering:\n    tls: {}')))).toEqual({
      'edge-proxy': { replicas: 2, sidecar: 'envoy', tls: { mode: 'simple', port: 443 } },
    });
  });
});

describe('field-unavailable and field-deprecated for enum values', () => {
  it('reports an enum value the platform lacks at the value', () => {
    const report = lint(profile(at('1.30'), 'edge-proxy:\n  rendering:\n    tls:\n      mode: mutual'));
    expect(found(report)).toEqual([
      {
        code: 'field-unavailable',
        severity: 'error',
        line: 12,
        column: 17,
        path: '/spec/capabilities/edge-proxy/rendering/tls/mode',
        message: 'capability "edge-proxy": tls.mode value "mutual" needs kubernetes 1.31; this cluster runs 1.30',
      },
    ]);
    expect(lint(profile(at('1.31'), 'edge-proxy:\n  rendering:\n    tls:\n      mode: mutual')).diagnostics).toEqual([]);
  });

  it.each([
    ['1.29', []],
    ['1.30', ['field-deprecated']],
    ['1.32', ['field-unavailable']],
  ])('judges a deprecated and removed enum value at %s', (version, codes) => {
    const report = lint(profile(at(version), 'edge-proxy:\n  rendering:\n    tls:\n      mode: passthrough'));
    expect(report.diagnostics.map((d) => d.code)).toEqual(codes);
    for (const d of report.diagnostics) expect([d.line, d.column]).toEqual([12, 17]);
  });

  it('keeps a value the enum refuses an invalid-value, whatever the platform', () => {
    expect(lint(profile(at('1.30'), 'edge-proxy:\n  rendering:\n    tls:\n      mode: strict')).diagnostics.map((d) => d.code)).toEqual(['invalid-value']);
  });
});

describe('field-unavailable and field-deprecated for a whole capability', () => {
  it.each([
    ['1.19', 'field-unavailable', 'error', 'capability "old-proxy" needs kubernetes 1.20; this cluster runs 1.19'],
    ['1.29', 'field-deprecated', 'warning', 'capability "old-proxy" is deprecated since kubernetes 1.29 (this cluster runs 1.29): use edge-proxy'],
    ['1.31', 'field-unavailable', 'error', 'capability "old-proxy" was removed in kubernetes 1.31 (this cluster runs 1.31): use edge-proxy'],
  ])('reports it at %s at the binding key', (version, code, severity, message) => {
    const report = lint(profile(at(version), 'old-proxy:\n  rendering:\n    replicas: "two"'));
    const binding = found(report).filter((d) => d.path === '/spec/capabilities/old-proxy');
    expect(binding).toEqual([{ code, severity, line: 9, column: 5, path: '/spec/capabilities/old-proxy', message }]);
  });

  it('does not look into the rendering of a capability the platform lacks', () => {
    expect(lint(profile(at('1.31'), 'old-proxy:\n  rendering:\n    replicas: "two"')).diagnostics.map((d) => d.code)).toEqual(['field-unavailable']);
    expect(lint(profile(at('1.29'), 'old-proxy:\n  rendering:\n    replicas: "two"')).diagnostics.map((d) => d.code)).toEqual([
      'field-deprecated',
      'wrong-type',
    ]);
  });

  it('applies to scoped keys too', () => {
    expect(found(lint(profile(at('1.31'), 'old-proxy.internal: {}')))).toEqual([
      {
        code: 'field-unavailable',
        severity: 'error',
        line: 9,
        column: 5,
        path: '/spec/capabilities/old-proxy.internal',
        message: 'capability "old-proxy.internal" was removed in kubernetes 1.31 (this cluster runs 1.31): use edge-proxy',
      },
    ]);
  });
});

describe('where the platform comes from', () => {
  const tls = 'edge-proxy:\n  rendering:\n    tls: {}';

  it('lets --platform override the profile and supply components it lacks', () => {
    expect(lint(profile(at('1.30'), tls), { overrides: { kubernetes: '1.28' } }).diagnostics.map((d) => d.code)).toEqual(['field-unavailable']);
    expect(lint(profile(at('1.28'), tls), { overrides: { kubernetes: '1.30' } }).diagnostics).toEqual([]);
    expect(lint(profile(undefined, tls), { overrides: { kubernetes: '1.28' } }).diagnostics.map((d) => d.code)).toEqual(['field-unavailable']);
  });

  it('lets a repository default supply a component the profile does not name, and the profile win over it', () => {
    expect(lint(profile(undefined, tls), { repositoryDefault: { kubernetes: '1.28' } }).diagnostics.map((d) => d.code)).toEqual(['field-unavailable']);
    expect(lint(profile(at('1.30'), tls), { repositoryDefault: { kubernetes: '1.28' } }).diagnostics).toEqual([]);
    expect(
      lint(profile(at('1.30'), tls), { repositoryDefault: { kubernetes: '1.30' }, overrides: { kubernetes: '1.28' } }).diagnostics.map((d) => d.code),
    ).toEqual(['field-unavailable']);
  });

  it('gates nothing by a malformed profile version (its own error explains it), unless an override supplies one', () => {
    const malformed = profile('kubernetes: "v1.28"', tls);
    expect(lint(malformed).diagnostics.map((d) => d.code)).toEqual(['invalid-value']);
    expect(lint(malformed, { overrides: { kubernetes: '1.28' } }).diagnostics.map((d) => d.code)).toEqual(['invalid-value', 'field-unavailable']);
  });
});
