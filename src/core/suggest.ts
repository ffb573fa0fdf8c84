/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/**
 * The known word closest to `word`, when it is close enough to be a likely typo:
 * same letters in another case, within a third of the word's length (at least 1, at most 3
 * edits), or the one known word that `word` is a prefix of (or that is a prefix of `word`).
 */
export function closest(word: string, known: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  const candidates = [...known];
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined && bestDistance <= limit) return best;
  // A clipped or padded name (`storageClass` for `storageClassName`): one candidate extends it.
  if (word.length < 4) return undefined;
  const extending = candidates.filter((k) => k !== word && k.length >= 4 && (k.toLowerCase().startsWith(lower) || lower.startsWith(k.toLowerCase())));
  return extending.length === 1 ? extending[0] : undefined;
}

/** The did-you-mean hint for `word` among `known`, if any. */
export function didYouMean(word: string, known: Iterable<string>): string | undefined {
  const match = closest(word, known);
  return match === undefined ? undefined : `did you mean ${match}?`;
}
