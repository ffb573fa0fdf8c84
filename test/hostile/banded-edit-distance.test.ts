import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closest, editDistanceWithin, MAX_SUGGESTION_LENGTH } from '../../src/core/suggest.js';

// Issue 25, rows 1 and 1b: the did-you-mean compared whole words cell by cell, (|a|+1)·(|b|+1)
// numbers for two 8,000-character strings, enough to abort the process. It now computes only
// the distances it can accept; these properties pin that it answers exactly as the plain
// algorithm did for every word it still compares.

/** The plain full-matrix optimal string alignment distance, as a reference. */
function referenceDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push(Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : 0)));
  for (let i = 0; i <= a.length; i++) d[i]![0] = i;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The suggestion rule as it was before the band, over the reference distance. */
function referenceClosest(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate === word) continue;
    const distance = candidate.toLowerCase() === lower ? 0 : referenceDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined && bestDistance <= limit) return best;
  if (word.length < 4) return undefined;
  const extending = known.filter((k) => k !== word && k.length >= 4 && (k.toLowerCase().startsWith(lower) || lower.startsWith(k.toLowerCase())));
  return extending.length === 1 ? extending[0] : undefined;
}

// A small alphabet (with case and a letter whose lower case is longer) so near misses are common.
const letters = fc.constantFrom('a', 'b', 'c', 'A', 'B', 'x', 'İ');
const word = fc.array(letters, { maxLength: 14 }).map((chars) => chars.join(''));

describe('the banded edit distance (issue 25)', () => {
  it('equals the full distance when that is within the limit, and limit + 1 otherwise', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        expect(editDistanceWithin(a, b, max)).toBe(Math.min(referenceDistance(a, b), max + 1));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers limit + 1 for words whose lengths alone differ by more than the limit', () => {
    expect(editDistanceWithin('a'.repeat(8000), 'a'.repeat(8004), 3)).toBe(4);
    expect(editDistanceWithin('a'.repeat(15_000_000), 'ingress', 3)).toBe(4);
  });

  it('compares two long words of equal length along the diagonal only', () => {
    const a = 'ab'.repeat(50_000);
    expect(editDistanceWithin(a, a.slice(0, -2) + 'ba', 3)).toBe(1);
    expect(editDistanceWithin('a'.repeat(100_000), 'b'.repeat(100_000), 3)).toBe(4);
  });
});

describe('the did-you-mean (issue 25)', () => {
  it('suggests what the plain algorithm suggested, for every word within the length cap', () => {
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 6 }), (typed, known) => {
        expect(closest(typed, known)).toBe(referenceClosest(typed, known));
      }),
      { numRuns: 3000 },
    );
  });

  it('suggests real fields as before', () => {
    expect(closest('storageClasName', ['storageClassName', 'size'])).toBe('storageClassName');
    expect(closest('storageClass', ['storageClassName', 'size'])).toBe('storageClassName');
    expect(closest('INGRESS', ['ingress', 'gateway'])).toBe('ingress');
    expect(closest('gatewya', ['ingress', 'gateway'])).toBe('gateway');
  });

  it('neither suggests for nor suggests a word over the length cap', () => {
    const long = 'b'.repeat(MAX_SUGGESTION_LENGTH + 1);
    expect(closest(long, [`${long}c`])).toBeUndefined();
    expect(closest('bbbb', [long])).toBeUndefined();
    expect(closest(long.slice(1), [long.slice(2)])).toBe(long.slice(2));
  });
});
