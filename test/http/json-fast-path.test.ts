import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { validateJsonProfile, validateProfile } from '../../src/operations/validate-profile.js';
import { isYamlFaithfulJson } from '../../src/yaml/json-fidelity.js';
import { GATEWAY_DOCUMENT } from './support.js';

const registry = createCatalogue();

/** Both paths over the same JSON text: the fast one (JSON.parse first) and the YAML one. */
function bothPaths(text: string) {
  return {
    fast: validateJsonProfile('request', text, JSON.parse(text), registry),
    slow: validateProfile({ profile: { file: 'request', content: text } }, registry),
  };
}

const profileWith = (capabilities: string) =>
  `{"apiVersion": "launcher.gokure.dev/v1alpha1", "kind": "ClusterProfile", "metadata": {"name": "edge"},\n "spec": {"capabilities": ${capabilities}}}`;

describe('the JSON fast path of POST /v1/validate', () => {
  it.each([
    ['a repeated key', profileWith('{"expose": {"rendering": {"controllerType": "gateway", "gatewayName": "a", "gatewayName": "b"}}}'), 'duplicate-key'],
    ['a repeated key inside an open rendering', profileWith('{"ingress": {"rendering": {"a": 1, "a": 1}}}'), 'duplicate-key'],
    ['a key repeated in the document root', profileWith('{}').replace('"kind"', '"metadata": {"name": "x"}, "kind"'), 'duplicate-key'],
    ['a misspelled key', profileWith('{"expose": {"rendering": {"controllerType": "ingress", "ingresClassName": "a"}}}'), 'unknown-field'],
    ['a wrong type', profileWith('{"certificate": {"rendering": {"issuerRef": {"name": 7}}}}'), 'wrong-type'],
  ])('gives the YAML path its verdict and positions for %s', (_name, text, code) => {
    const { fast, slow } = bothPaths(text);
    expect(fast).toEqual(slow);
    expect(fast.diagnostics.map((d) => d.code)).toContain(code);
  });

  it.each([
    ['an integer beyond 2^53', '12345678901234567890'],
    ['minus zero', '-0'],
    ['a number beyond the double range', '1e400'],
    ['a string with escapes', '"tab\\t quote\\" slash\\/ u\\u00e9 \\ud83d\\ude00"'],
    ['a key with a colon and quotes in a string', '{"a:\\"b": "c:d"}'],
  ])('resolves %s in an open rendering exactly as the YAML path does', (_name, value) => {
    const text = profileWith(`{"ingress": {"rendering": {"value": ${value}}}}`);
    const { fast, slow } = bothPaths(text);
    expect(slow.valid).toBe(true);
    expect(fast).toEqual(slow);
  });

  it('keeps an integer beyond 2^53 exact, as the YAML path does', () => {
    const { fast } = bothPaths(profileWith('{"ingress": {"rendering": {"replicas": 12345678901234567890}}}'));
    expect(fast.resolved?.capabilities['ingress']).toEqual({ replicas: 12345678901234567890n });
  });

  it.each([
    { name: 'a valid profile', text: JSON.stringify(GATEWAY_DOCUMENT), faithful: true },
    { name: 'a repeated key', text: '{"a": 1, "a": 2}', faithful: false },
    { name: 'a repeated key in a nested object', text: '{"a": {"b": 1, "c": {"d": 1, "d": 2}}}', faithful: false },
    { name: 'colons inside strings', text: '{"a:b": "c:d:e", "f": "\\":"}', faithful: true },
    { name: 'an integer beyond 2^53', text: '{"a": 9007199254740993}', faithful: false },
    { name: 'the largest exact integer', text: '{"a": 9007199254740991}', faithful: true },
    { name: 'minus zero', text: '{"a": -0}', faithful: false },
    { name: 'nesting at the depth limit', text: `${'['.repeat(128)}${']'.repeat(128)}`, faithful: false },
    { name: 'nesting inside the depth limit', text: `${'['.repeat(100)}${']'.repeat(100)}`, faithful: true },
  ])('judges JSON with $name faithful to YAML: $faithful', ({ text, faithful }) => {
    expect(isYamlFaithfulJson(text, JSON.parse(text))).toBe(faithful);
  });

  it('gives the YAML path its too-deep diagnostic for a rendering nested beyond the limit', () => {
    const { fast, slow } = bothPaths(profileWith(`{"ingress": {"rendering": {"a": ${'['.repeat(130)}${']'.repeat(130)}}}}`));
    expect(fast).toEqual(slow);
    expect(fast.diagnostics.map((d) => d.code)).toEqual(['too-deep']);
  });

  it.each([
    ['an array', `${'['.repeat(5_000)}${']'.repeat(5_000)}`, 1, 129],
    ['a rendering', profileWith(`{"ingress": {"rendering": {"a": ${'{"b": '.repeat(5_000)}1${'}'.repeat(5_000)}}}}`), 2, 59 + 6 * 123],
    ['a string of brackets before the nesting', `["${'[{'.repeat(2_000)}", ${'['.repeat(5_000)}${']'.repeat(5_000)}]`, 1, 4_006 + 127],
  ])('refuses %s nested far beyond the limit where the YAML path does, without it', (_name, text, line, column) => {
    // Issue #10, item 10: the JSON path finds the nesting itself, at the same position.
    const { fast, slow } = bothPaths(text);
    expect(fast).toEqual(slow);
    expect(fast.diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([['too-deep', line, column, '']]);
  });

  it('gives the same verdict, diagnostics and resolved profile as the YAML path for generated profiles', () => {
    const key = fc.constantFrom('expose', 'expose.internal', 'certificate', 'external-secret', 'ingress', 'pvc', 'configmap', 'unknown-thing', 'Bad..key');
    const anyValue = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });
    const openMap = fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), anyValue, { maxKeys: 4 });
    const rendering = fc.oneof(
      fc.constant({ controllerType: 'ingress', ingressClassName: 'nginx' }),
      fc.constant({ controllerType: 'gateway', gatewayName: 'gw' }),
      fc.constant({ issuerRef: { name: 'letsencrypt' } }),
      fc.constant({ secretStoreRef: { name: 'vault' }, refreshInterval: '1h' }),
      openMap,
    );
    // Mostly coherent bindings (so many profiles are clean and the fast path answers them),
    // some random ones (so the fallback is exercised too).
    const binding = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.tuple(
          fc.constantFrom('expose', 'expose.internal'),
          fc.constantFrom({ controllerType: 'ingress', ingressClassName: 'nginx' }, { controllerType: 'gateway', gatewayName: 'gw' }),
        ),
      },
      { weight: 1, arbitrary: fc.tuple(fc.constant('certificate'), fc.constant({ issuerRef: { name: 'letsencrypt' } })) },
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom('ingress', 'httproute', 'scaler'), openMap) },
      { weight: 2, arbitrary: fc.tuple(key, fc.option(rendering)) },
    );
    const profile = fc.record({
      name: fc.oneof({ weight: 4, arbitrary: fc.constant('edge') }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }),
      capabilities: fc
        .array(binding, { maxLength: 4 })
        .map((entries) => Object.fromEntries(entries.map(([k, r]) => [k, r === null ? null : { rendering: r }]))),
      extra: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), anyValue, { maxKeys: 2 }) },
      ),
    });
    const layout = fc.record({
      indent: fc.constantFrom(undefined, 1, 2, '\t'),
      repeatFirstKey: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      // A big integer goes in a pass-through binding, which warns (unvalidated-capability): rarer, so that enough profiles stay clean.
      bigInteger: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    });
    let clean = 0;
    fc.assert(
      fc.property(profile, layout, (p, l) => {
        const document: Record<string, unknown> = {
          apiVersion: 'launcher.gokure.dev/v1alpha1',
          kind: 'ClusterProfile',
          metadata: { name: p.name },
          spec: { capabilities: { ...p.capabilities, ...(l.bigInteger ? { ingress: { rendering: { big: '__big__' } } } : {}) } },
          ...(p.extra ?? {}),
        };
        let text = JSON.stringify(document, null, l.indent);
        if (l.bigInteger) text = text.replace('"__big__"', '123456789012345678901');
        if (l.repeatFirstKey) text = text.replace('{', '{"apiVersion": "v0",');
        const { fast, slow } = bothPaths(text);
        expect(fast).toEqual(slow);
        if (slow.diagnostics.length === 0) clean += 1;
      }),
      { numRuns: 200 },
    );
    // Clean profiles are the ones the fast path answers alone; enough of them must be generated.
    expect(clean).toBeGreaterThan(20);
  });
});
