import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { InputFile } from '../../src/core/input.js';
import { evaluateProfile } from '../../src/operations/evaluate-profile.js';
import { lintInputs } from '../../src/operations/lint.js';
import { propertyRuns } from '../helpers/property.js';
import { data, editedProfileText, mapOf, validProfile, yamlishText } from './arbitraries.js';

// Issue #7: kurel never throws, whatever text, bytes or data it is given (docs/profiles.md).
const registry = createCatalogue();
const lint = (content: string | Uint8Array, origin: InputFile['origin'] = 'argument') => lintInputs([{ file: 'cluster.yaml', content, origin }], registry);
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

describe('kurel never throws', () => {
  it('linting texts made of YAML syntax pieces', () => {
    fc.assert(
      fc.property(yamlishText, fc.constantFrom<InputFile['origin']>('argument', 'directory', 'definition'), (text, origin) => {
        lint(text, origin);
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  it('linting valid profiles after random edits', () => {
    fc.assert(
      fc.property(editedProfileText, (text) => {
        lint(text);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('linting arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        lint(bytes);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('evaluating arbitrary data as a profile', () => {
    fc.assert(
      fc.property(data, (value) => {
        evaluateProfile(value, registry, 'warning');
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('evaluating a valid profile whose spec, capabilities or a rendering is replaced by arbitrary data', () => {
    fc.assert(
      fc.property(validProfile, fc.constantFrom('spec', 'capabilities', 'rendering'), data, (profile, where, value) => {
        const spec = profile['spec'] as Record<string, unknown>;
        if (where === 'spec') profile['spec'] = value;
        else if (where === 'capabilities') spec['capabilities'] = value;
        else
          spec['capabilities'] = mapOf([
            ['expose', { rendering: value }],
            ['ingress', { rendering: value }],
          ]);
        evaluateProfile(profile, registry, 'error');
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it.each(BUILTIN_HANDLERS.map((h) => [h.type]))('checking arbitrary data as a %s rendering', (type) => {
    fc.assert(
      fc.property(data, (value) => {
        registry.validateRendering(type, value as Record<string, unknown>);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('and no input reached Object.prototype', () => {
    fc.assert(
      fc.property(editedProfileText, (text) => {
        lint(text);
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});
