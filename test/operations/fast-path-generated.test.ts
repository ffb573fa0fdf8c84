import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { InputFile } from '../../src/core/input.js';
import { lintInputs } from '../../src/operations/lint.js';
import { validateProfile } from '../../src/operations/validate-profile.js';
import { readFast } from '../../src/yaml/fast-read.js';
import { ScannedDocument } from '../../src/yaml/locate-by-scan.js';
import { readYaml } from '../../src/yaml/read-yaml.js';
import { propertyRuns } from '../helpers/property.js';
import { editedProfileText } from '../property/arbitraries.js';
import { profileWithMistakes } from '../yaml/profile-texts.js';
import { editedYamlText, subsetText, yamlText } from '../yaml/yaml-text-arbitraries.js';
import { bothWays, reportOf } from './fast-path-support.js';

// docs/performance.md: the fast path changes no verdict, code, message, position or resolved
// profile. The corpus of the repository is compared in fast-path.test.ts; here, generated texts.

describe('the fast path changes no verdict, code or position on generated profiles (property)', () => {
  it('valid profiles after small edits, linted and validated', () => {
    const catalogue = createCatalogue();
    let fast = 0;
    fc.assert(
      fc.property(editedProfileText, (text) => {
        if (readFast(text).ok) fast += 1;
        const inputs: InputFile[] = [{ file: 'cluster.yaml', content: text, origin: 'argument' }];
        const lint = bothWays(() => lintInputs(inputs, catalogue));
        expect(reportOf(lint.fast)).toEqual(reportOf(lint.full));
        const validation = bothWays(() => validateProfile({ profile: { file: 'request', content: text } }, catalogue));
        expect(validation.fast).toEqual(validation.full);
      }),
      { numRuns: 300 },
    );
    // Measured: about 12% of the edited texts read fast; the floor keeps the rule exercised.
    expect(fast).toBeGreaterThanOrEqual(10);
  });
});

// A fast-read file with diagnostics is positioned by a scan of its text (docs/performance.md),
// the full reader kept for what the scan is not sure of: the diagnostics must be those of the
// full reader, on files with mistakes in every layout and on texts in and outside the subset.
describe('positions found without a second parse are the full reader positions (property)', () => {
  it('profiles with mistakes, linted and validated', () => {
    const catalogue = createCatalogue();
    let scanned = 0;
    fc.assert(
      fc.property(profileWithMistakes, (text) => {
        const inputs: InputFile[] = [{ file: 'cluster.yaml', content: text, origin: 'argument' }];
        const lint = bothWays(() => lintInputs(inputs, catalogue));
        expect(reportOf(lint.fast)).toEqual(reportOf(lint.full));
        const validation = bothWays(() => validateProfile({ profile: { file: 'request', content: text } }, catalogue));
        expect(validation.fast).toEqual(validation.full);
        if (readYaml(text, 'f').isFast && lint.fast.diagnostics.length > 0 && ScannedDocument.of('f', text)) scanned += 1;
      }),
      { numRuns: 300 },
    );
    // Measured: about half of the texts are read fast, have diagnostics and are positioned by the scan.
    expect(scanned).toBeGreaterThanOrEqual(60);
  });

  it.each([
    ['texts of pieces the fast path lets through', subsetText],
    ['generated YAML texts', yamlText],
    ['edited YAML texts', editedYamlText],
  ])('%s, linted', (_name, texts) => {
    const catalogue = createCatalogue();
    fc.assert(
      fc.property(texts, (text) => {
        const inputs: InputFile[] = [{ file: 'cluster.yaml', content: text, origin: 'argument' }];
        const lint = bothWays(() => lintInputs(inputs, catalogue));
        expect(reportOf(lint.fast)).toEqual(reportOf(lint.full));
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
