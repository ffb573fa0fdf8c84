import { describe, expect, it } from 'vitest';
import { ciliumNetworkpolicy } from '../../handlers/cilium-networkpolicy.js';
import { configmap } from '../../handlers/configmap.js';
import { networkpolicy } from '../../handlers/networkpolicy.js';
import { diagnose, err, lintText, resolve, withBindings } from '../helpers/profile.js';

const TYPES = ['configmap', 'networkpolicy', 'cilium-networkpolicy'] as const;

// Binding text line n is profile line 6 + n; column c is column 4 + c (see withBindings).
describe.each(TYPES)('%s (takes no rendering keys)', (type) => {
  it.each([
    ['no rendering', `${type}: {}`],
    ['a null binding', `${type}:`],
    ['a null rendering', `${type}:\n  rendering:`],
    ['an empty rendering', `${type}:\n  rendering: {}`],
  ])('accepts %s', (_name, bindings) => {
    expect(resolve(withBindings(bindings))).toEqual({ [type]: {} });
  });

  it('reports any key as unknown-field at the key, saying no fields are allowed', () => {
    const report = lintText(withBindings(`${type}:\n  rendering:\n    enabled: true\n    name: x`));
    expect(report.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path }))).toEqual([
      { code: 'unknown-field', line: 9, column: 9, path: `/spec/capabilities/${type}/rendering/enabled` },
      { code: 'unknown-field', line: 10, column: 9, path: `/spec/capabilities/${type}/rendering/name` },
    ]);
    expect(report.diagnostics[0]!.message).toBe(`capability "${type}": unknown field "enabled" (no fields are allowed here)`);
  });

  it('reports a rendering that is not a map as wrong-type at the value', () => {
    expect(diagnose(withBindings(`${type}:\n  rendering: [a]`))).toEqual([err('wrong-type', 8, 18, `/spec/capabilities/${type}/rendering`)]);
  });
});

describe('handlers without rendering keys', () => {
  it('declare an empty closed schema and are not capability-aware', () => {
    for (const handler of [configmap, networkpolicy, ciliumNetworkpolicy]) {
      expect({ type: handler.type, aware: handler.capabilityAware, schema: JSON.parse(JSON.stringify(handler.renderingSchema)) as unknown }).toEqual({
        type: handler.type,
        aware: false,
        schema: { type: 'object', properties: {}, additionalProperties: false },
      });
    }
  });
});
