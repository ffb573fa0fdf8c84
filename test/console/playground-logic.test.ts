import { Text } from '@codemirror/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offsetOf, rangeOf } from '../../console/playground/positions.js';
import { MAX_SHARED_BYTES, packText, ShareError, unpackText } from '../../console/playground/share.js';
import { propertyRuns } from '../helpers/property.js';

/** The 1-based line and column (in UTF-16 code units) of an offset, counted the way the service counts. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

describe('rangeOf', () => {
  it('maps every position of every text back to its offset, counting columns in UTF-16 code units', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { minLength: 1, maxLength: 6 }).map((lines) => lines.join('\n')),
        fc.nat(),
        fc.nat(),
        (text, a, b) => {
          const doc = Text.of(text.split('\n'));
          const [from, to] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y) as [number, number];
          const start = positionOf(text, from);
          const end = positionOf(text, to);
          expect(rangeOf(doc, { line: start.line, column: start.column, endLine: end.line, endColumn: end.column })).toEqual({ from, to });
        },
      ),
    );
  });

  it('puts a column after an astral character two code units on', () => {
    const doc = Text.of(['a: {b: "🌍", c: x}']);
    // Counted in code points, x would be column 16; in UTF-16 code units (as the service and CodeMirror count) it is 17.
    expect(rangeOf(doc, { line: 1, column: 17, endLine: 1, endColumn: 18 })).toEqual({ from: 16, to: 17 });
    expect(doc.sliceString(16, 17)).toBe('x');
  });

  it('clamps positions past the end of a line or of the text, and never ends before it starts', () => {
    const doc = Text.of(['abc', 'de']);
    expect(offsetOf(doc, 1, 99)).toBe(3);
    expect(offsetOf(doc, 9, 1)).toBe(6);
    expect(offsetOf(doc, 0, 5)).toBe(0);
    expect(rangeOf(doc, { line: 2, column: 2, endLine: 1, endColumn: 1 })).toEqual({ from: 5, to: 5 });
  });
});

describe('packText and unpackText', () => {
  it('give back every text they packed, in base64url', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 300 }), async (text) => {
        const packed = await packText(text);
        expect(packed).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(await unpackText(packed)).toBe(text);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('make a typical profile shorter than its text', async () => {
    const profile =
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: edge\nspec:\n  capabilities:\n    expose:\n      rendering:\n        controllerType: gateway\n        gatewayName: public-gw\n';
    expect((await packText(profile)).length).toBeLessThan(profile.length);
  });

  it.each([
    ['characters outside base64url', 'abc+/='],
    ['a cut-short encoding', 'a'],
    ['bytes that are not DEFLATE', 'AAECAwQFBgcICQ'],
  ])('refuse %s with a ShareError', async (_what, packed) => {
    await expect(unpackText(packed)).rejects.toThrow(ShareError);
  });

  it('refuse a link that unpacks to more than the service accepts, without unpacking it all', async () => {
    const packed = await packText('a'.repeat(MAX_SHARED_BYTES * 4));
    expect(packed.length).toBeLessThan(10_000);
    await expect(unpackText(packed)).rejects.toThrow(`the shared profile is larger than ${MAX_SHARED_BYTES} bytes`);
  });
});
