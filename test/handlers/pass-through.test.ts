import { describe, expect, it } from 'vitest';
import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { lintText, pin, resolve, resolvePassThrough, withBindings } from '../helpers/profile.js';

const PASS_THROUGH = ['ingress', 'httproute', 'scaler', 'rbac', 'fluxcd-patches', 'fluxcd-postbuild', 'prune-protection', 'security-context'];

describe('pass-through built-ins', () => {
  it.each(PASS_THROUGH)('registers %s as a known type without a rendering schema', (type) => {
    const registered = createCatalogue().handler(type);
    expect(registered?.source).toBe('builtin');
    expect({
      aware: registered?.handler.capabilityAware,
      schema: registered?.handler.renderingSchema,
      validate: registered?.handler.validateAndApplyDefaults,
    }).toEqual({ aware: false, schema: undefined, validate: undefined });
  });

  // A non-empty rendering of a pass-through built-in is checked by nothing: unvalidated-capability,
  // a warning (docs/codes/unvalidated-capability.md); an empty one says nothing.
  it.each(PASS_THROUGH)('passes the rendering of %s through unchanged, with an unvalidated-capability warning at its rendering', (type) => {
    const rendering = { anything: { nested: [1, 'two', null] }, count: 3, enabled: false };
    const text = withBindings(`${type}:\n  rendering: ${JSON.stringify(rendering)}`);
    expect(resolvePassThrough(text)).toEqual({ [type]: rendering });
    expect(lintText(text).diagnostics.map((d) => ({ ...pin(d), message: d.message }))).toEqual([
      {
        code: 'unvalidated-capability',
        severity: 'warning',
        line: 8,
        column: 7,
        path: `/spec/capabilities/${type}/rendering`,
        message: `capability "${type}" has a rendering that nothing validates: the built-in ${type} is a pass-through (not capability-aware), so a build merges these values into its traits unchecked`,
      },
    ]);
    expect(lintText(text, { strictCapabilities: true }).diagnostics.map((d) => d.severity)).toEqual(['error']);
  });

  it.each(PASS_THROUGH)('says nothing of an empty or absent rendering of %s', (type) => {
    expect(resolve(withBindings(`${type}:\n  rendering: {}\n${type}.second: {}\n${type}.third:`))).toEqual({
      [type]: {},
      [`${type}.second`]: {},
      [`${type}.third`]: {},
    });
  });

  it('checks a pass-through rendering is a map', () => {
    expect(lintText(withBindings('scaler:\n  rendering: 3')).diagnostics).toMatchObject([
      { code: 'wrong-type', line: 8, column: 18, path: '/spec/capabilities/scaler/rendering' },
    ]);
  });

  it('declares the platform-reserved keys of ingress and httproute', () => {
    const reserved = (type: string) => [...(createCatalogue().handler(type)?.handler.platformReserved ?? [])].sort();
    expect({ ingress: reserved('ingress'), httproute: reserved('httproute') }).toEqual({
      ingress: ['allowedHostnameWildcard', 'networkPolicy'],
      httproute: ['networkPolicy'],
    });
  });
});

describe('the built-in catalogue', () => {
  it('holds exactly the types of the reference, each once', () => {
    expect(BUILTIN_HANDLERS.map((h) => h.type).sort()).toEqual(
      [
        'certificate',
        'cilium-networkpolicy',
        'configmap',
        'expose',
        'external-secret',
        'fluxcd-patches',
        'fluxcd-postbuild',
        'httproute',
        'ingress',
        'networkpolicy',
        'prune-protection',
        'pvc',
        'rbac',
        'scaler',
        'security-context',
        'volsync',
      ].sort(),
    );
  });

  it('marks exactly expose, certificate and external-secret capability-aware, and the first two required', () => {
    const flags = Object.fromEntries(BUILTIN_HANDLERS.filter((h) => h.capabilityAware).map((h) => [h.type, h.capabilityRequired]));
    expect(flags).toEqual({ certificate: true, expose: true, 'external-secret': false });
  });
});
