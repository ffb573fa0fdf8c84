import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { lintInputs } from '../../src/operations/lint.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { propertyRuns } from '../helpers/property.js';
import { stringifyOptions, validProfile } from './arbitraries.js';

// Issue #7: a valid profile serialised back to YAML and linted again stays valid with the same
// resolved result; so does one whose renderings already hold their defaults.
const registry = createCatalogue();

// A pass-through built-in's non-empty rendering is an unvalidated-capability warning
// (docs/codes/unvalidated-capability.md): kept apart by path, since where the writer puts the
// binding is not the point here.
function lint(text: string) {
  const report = lintInputs([{ file: 'cluster.yaml', content: text, origin: 'argument' }], registry);
  const passThrough = (d: { code: string; severity: string }) => d.code === 'unvalidated-capability' && d.severity === 'warning';
  return {
    diagnostics: report.diagnostics.filter((d) => !passThrough(d)).map((d) => `${d.line}:${d.column} ${d.code} ${d.path} ${d.message}`),
    unvalidated: report.diagnostics
      .filter(passThrough)
      .map((d) => d.path)
      .sort(),
    resolved: report.files[0]?.resolved,
  };
}

describe('a valid profile', () => {
  it('lints clean however the yaml package writes it', () => {
    fc.assert(
      fc.property(validProfile, stringifyOptions, (profile, options) => {
        const first = lint(stringify(profile, options));
        expect(first.diagnostics).toEqual([]);
        expect(first.resolved).toBeDefined();
        // Exactly the non-empty renderings of the handlers that check nothing warn.
        const capabilities = (profile['spec'] as { capabilities: Record<string, { rendering?: Record<string, unknown> } | null> }).capabilities;
        const expected = Object.entries(capabilities)
          .filter(([key, binding]) => {
            const handler = registry.handler(key.split('.')[0]!)?.handler;
            return (
              handler !== undefined && !handler.capabilityAware && handler.renderingSchema === undefined && Object.keys(binding?.rendering ?? {}).length > 0
            );
          })
          .map(([key]) => `/spec/capabilities/${key}/rendering`)
          .sort();
        expect(first.unvalidated).toEqual(expected);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('read, written back to YAML and linted again, stays valid with the same resolved result', () => {
    fc.assert(
      fc.property(validProfile, stringifyOptions, stringifyOptions, (profile, writeOptions, rewriteOptions) => {
        const text = stringify(profile, writeOptions);
        const first = lint(text);
        const read = parseYamlStream(text, 'cluster.yaml').documents[0]!.data;
        const second = lint(stringify(read, rewriteOptions));
        expect(second).toEqual(first);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('written with its resolved renderings (defaults applied) resolves to the same result', () => {
    fc.assert(
      fc.property(validProfile, stringifyOptions, (profile, options) => {
        const first = lint(stringify(profile, options));
        const resolved = first.resolved!;
        const capabilities = Object.fromEntries(Object.entries(resolved.capabilities).map(([key, rendering]) => [key, { rendering }]));
        const again = { ...profile, spec: { gitopsEngine: resolved.gitopsEngine, capabilities } };
        expect(lint(stringify(again, options))).toEqual(first);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
