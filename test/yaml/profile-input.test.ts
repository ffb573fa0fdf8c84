import { describe, expect, it } from 'vitest';
import { diagnose, err, lintText, resolve, resolvePassThrough, withBindings } from '../helpers/profile.js';

const PROFILE = withBindings('expose:\n  rendering:\n    controllerType: ingress\n    ingressClassName: nginx');

describe('reading a profile file', () => {
  it.each([
    ['empty', ''],
    ['only whitespace', '\n  \n'],
    ['only comments', '# cluster.yaml\n# nothing here yet\n'],
    ['only a document marker', '---\n'],
  ])('reports an %s file as empty-document at line 1 column 1', (_name, text) => {
    expect(diagnose(text)).toEqual([err('empty-document', 1, 1, '')]);
  });

  it('reports a second document as multiple-documents at its ---, and still checks the first', () => {
    const text = `${PROFILE}---\nkind: ClusterProfile\n`;
    const report = lintText(text);
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, endColumn: d.endColumn }))).toEqual([
      { code: 'multiple-documents', line: 11, column: 1, endColumn: 4 },
    ]);
    expect(report.files).toEqual([{ path: 'cluster.yaml', kind: 'ClusterProfile', status: 'checked' }]);
  });

  it('reports a second document as multiple-documents together with the errors of the first', () => {
    const text = `${withBindings('expose:\n  rendering:\n    controllerType: ingress')}---\nmetadata: {}\n`;
    expect(diagnose(text)).toEqual([
      err('missing-required', 8, 7, '/spec/capabilities/expose/rendering/ingressClassName'),
      err('multiple-documents', 10, 1, ''),
    ]);
  });

  it.each(['---\n', '---\n---\n', '---\n# the end\n'])('ignores trailing empty documents (%j)', (tail) => {
    expect(resolve(PROFILE + tail)).toEqual({ expose: { controllerType: 'ingress', ingressClassName: 'nginx' } });
  });

  it('accepts a leading --- and a document end marker', () => {
    expect(diagnose(`---\n${PROFILE}...\n`)).toEqual([]);
  });

  it('accepts a UTF-8 byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(PROFILE)]);
    expect(diagnose(bytes)).toEqual([]);
  });

  it('reports binary content at the first NUL byte', () => {
    const bytes = new TextEncoder().encode('apiVersion: x\nkind: \u0000\u0001\u0002\n');
    const report = lintText(bytes);
    expect(report.diagnostics).toMatchObject([{ code: 'yaml-syntax', line: 2, column: 7, message: 'the file holds binary data (a NUL byte), not YAML text' }]);
    expect(report.files).toEqual([{ path: 'cluster.yaml', kind: 'unknown', status: 'checked' }]);
  });

  it('reports invalid UTF-8 at the first bad byte', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('kind: ClusterProfile\nname: caf'), 0xc3, 0x28, 0x0a]);
    expect(lintText(bytes).diagnostics).toMatchObject([{ code: 'yaml-syntax', line: 2, column: 10, message: 'the file is not valid UTF-8 text (byte 30)' }]);
  });

  it('reports a syntax error and nothing else', () => {
    expect(diagnose('apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: a\n')).toEqual([err('yaml-syntax', 3, 11, '')]);
  });

  it('reports a duplicate key at its second occurrence and still evaluates the rest', () => {
    const text = withBindings(
      'expose:\n  rendering:\n    controllerType: ingress\n    ingressClassName: nginx\n    ingressClassName: traefik\n    sslRedirect: "no"',
    );
    expect(diagnose(text)).toEqual([
      err('duplicate-key', 11, 9, '/spec/capabilities/expose/rendering/ingressClassName'),
      err('wrong-type', 12, 22, '/spec/capabilities/expose/rendering/sslRedirect'),
    ]);
  });

  it('gives no resolved capabilities for a profile with a duplicate key', () => {
    const report = lintText(PROFILE.replace('  name: test\n', '  name: test\n  name: again\n'));
    expect(report.diagnostics.map((d) => d.code)).toEqual(['duplicate-key']);
    expect(report.files[0]).toEqual({ path: 'cluster.yaml', kind: 'ClusterProfile', status: 'checked' });
  });

  it('reports a non-string key as invalid-key at the key', () => {
    expect(diagnose(PROFILE.replace('metadata:\n', '123: x\nmetadata:\n'))).toEqual([err('invalid-key', 3, 1, '/123')]);
  });

  it('reports a value reached through an alias at the alias, naming the line of the anchor', () => {
    const text = withBindings(
      ['expose:', '  rendering: &nginx', '    controllerType: ingress', '    ingressClassName: 42', 'expose.internal:', '  rendering: *nginx'].join('\n'),
    );
    const report = lintText(text);
    expect(report.diagnostics.map((d) => ({ line: d.line, column: d.column, path: d.path, message: d.message }))).toEqual([
      {
        line: 10,
        column: 27,
        path: '/spec/capabilities/expose/rendering/ingressClassName',
        message: 'capability "expose": ingressClassName must be a string, found integer 42',
      },
      {
        line: 12,
        column: 18,
        path: '/spec/capabilities/expose.internal/rendering/ingressClassName',
        message: 'capability "expose.internal": ingressClassName must be a string, found integer 42 (value from the anchor on line 8)',
      },
    ]);
  });

  it('merges <<: *anchor into a binding; an error in a merged key points at the *anchor', () => {
    const text = withBindings(
      [
        'expose:',
        '  rendering: &nginx',
        '    controllerType: ingress',
        '    ingressClassName: nginx',
        '    sslRedirect: yes',
        'expose.internal:',
        '  rendering:',
        '    <<: *nginx',
        '    ingressClassName: internal',
      ].join('\n'),
    );
    const report = lintText(text);
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, message: d.message }))).toEqual([
      { code: 'wrong-type', line: 11, column: 22, message: 'capability "expose": sslRedirect must be a boolean (true or false), found string "yes"' },
      {
        code: 'wrong-type',
        line: 14,
        column: 13,
        message: 'capability "expose.internal": sslRedirect must be a boolean (true or false), found string "yes" (value from the anchor on line 8)',
      },
    ]);
  });

  it('resolves a merged binding with its own keys winning', () => {
    const text = withBindings(
      [
        'expose:',
        '  rendering: &gw',
        '    controllerType: gateway',
        '    gatewayName: public',
        'expose.internal:',
        '  rendering:',
        '    <<: *gw',
        '    gatewayName: internal',
      ].join('\n'),
    );
    expect(resolve(text)).toEqual({
      expose: { controllerType: 'gateway', gatewayName: 'public', gatewayNamespace: 'gateway-system' },
      'expose.internal': { controllerType: 'gateway', gatewayName: 'internal', gatewayNamespace: 'gateway-system' },
    });
  });

  it('reports an alias bomb as alias-limit and evaluates nothing further', () => {
    const text = withBindings(
      [
        'scaler:',
        '  rendering:',
        '    a: &a [x, x, x, x, x, x, x, x, x]',
        '    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
        '    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
        '    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      ].join('\n'),
    );
    const report = lintText(text);
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path }))).toEqual([
      { code: 'alias-limit', line: 12, column: 20, path: '/spec/capabilities/scaler/rendering/d/1' },
    ]);
    expect(report.files).toEqual([{ path: 'cluster.yaml', kind: 'unknown', status: 'checked' }]);
  });

  it('reports nesting deeper than 128 levels as too-deep', () => {
    let rendering = '1';
    for (let i = 0; i < 130; i++) rendering = `{k: ${rendering}}`;
    const report = lintText(withBindings(`scaler:\n  rendering: ${rendering}`));
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line }))).toEqual([{ code: 'too-deep', line: 8 }]);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('reports %s in a closed map as unknown-field and keeps it as data in a pass-through rendering', (key) => {
    const text = withBindings(
      [
        'expose:',
        '  rendering:',
        '    controllerType: ingress',
        '    ingressClassName: nginx',
        `    ${key}: {polluted: true}`,
        'scaler:',
        '  rendering:',
        `    ${key}: {polluted: true}`,
      ].join('\n'),
    );
    const report = lintText(text);
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path }))).toEqual([
      { code: 'unknown-field', line: 11, column: 9, path: `/spec/capabilities/expose/rendering/${key}` },
      // A pass-through rendering is validated by nothing (docs/codes/unvalidated-capability.md).
      { code: 'unvalidated-capability', line: 13, column: 7, path: '/spec/capabilities/scaler/rendering' },
    ]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('keeps a __proto__ key of a pass-through rendering as own data in the resolved profile', () => {
    const capabilities = resolvePassThrough(withBindings('scaler:\n  rendering:\n    __proto__: {polluted: true}'));
    const scaler = capabilities['scaler'] as object;
    expect(Object.getPrototypeOf(scaler)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(scaler, '__proto__')?.value).toEqual({ polluted: true });
  });
});

describe('integers beyond 2^53', () => {
  const DEFINITION = [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: CapabilityDefinition',
    'metadata:',
    '  name: cache',
    'spec:',
    '  rendering:',
    '    properties:',
    '      size: {type: integer}',
  ].join('\n');

  it('reports one as invalid-value where an integer is expected', () => {
    const report = lintText(withBindings('cache:\n  rendering:\n    size: 9007199254740993'), { definitions: { 'definitions/cache.yaml': DEFINITION } });
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path }))).toEqual([
      { code: 'invalid-value', line: 9, column: 15, path: '/spec/capabilities/cache/rendering/size' },
    ]);
  });

  it('accepts 2^53 - 1 where an integer is expected', () => {
    expect(diagnose(withBindings('cache:\n  rendering:\n    size: 9007199254740991'), { definitions: { 'definitions/cache.yaml': DEFINITION } })).toEqual([]);
  });

  it('keeps one exact as data in a pass-through rendering', () => {
    expect(resolvePassThrough(withBindings('scaler:\n  rendering:\n    budget: 123456789012345678901234567890'))).toEqual({
      scaler: { budget: 123456789012345678901234567890n },
    });
  });
});
