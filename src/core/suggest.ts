/**
 * The most edits a did-you-mean accepts. Only distances up to it are ever computed, so the
 * cost of comparing two words is linear in their length (README.md, "Limits").
 */
export const MAX_SUGGESTION_EDITS = 3;

/**
 * Words longer than this are neither suggested nor given a suggestion: no field, type or enum
 * value worth suggesting is that long, and a huge value is then never copied or compared.
 */
export const MAX_SUGGESTION_LENGTH = 256;

/**
 * The most known words one did-you-mean looks at (the first ones given): a value failing an
 * enum of 100,000 options is compared with 500 of them, so each mistake costs the same
 * however large the enum (README.md, "Limits").
 */
export const MAX_SUGGESTION_CANDIDATES = 500;

// The rows of the distance computation, grown when a longer word comes.
let buffer = new Int32Array(3 * (MAX_SUGGESTION_LENGTH + 2));

/**
 * Edit distance with adjacent transpositions (optimal string alignment) when it is at most
 * `max`; `max + 1` when it is larger. Only the band of cells within `max` of the diagonal is
 * computed, in three rows: O(length · max) time and O(length) memory, and O(1) when the
 * lengths alone differ by more than `max`.
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  const over = max + 1;
  if (Math.abs(a.length - b.length) > max) return over;
  if (a === b) return 0;
  const cols = b.length + 1;
  // Three rows (the one two back is needed for a transposition), in buffers reused across calls:
  // a did-you-mean makes hundreds of comparisons per mistake.
  if (buffer.length < 3 * cols) buffer = new Int32Array(3 * cols);
  let back2 = buffer.subarray(0, cols).fill(over);
  let back1 = buffer.subarray(cols, 2 * cols).fill(over);
  let row = buffer.subarray(2 * cols, 3 * cols).fill(over);
  for (let j = 0; j <= Math.min(max, b.length); j++) back1[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    // The arrays are reused: only the cells just outside the band can hold a stale value.
    row[from - 1] = from === 1 && i <= max ? i : over;
    if (to < b.length) row[to + 1] = over;
    let rowBest = row[from - 1]!;
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(back1[j]! + 1, row[j - 1]! + 1, back1[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, back2[j - 2]! + 1);
      row[j] = Math.min(best, over);
      if (row[j]! < rowBest) rowBest = row[j]!;
    }
    // Every path to the last cell crosses this row: once all of it is over the limit, so is the end.
    if (rowBest > max) return over;
    const free = back2;
    back2 = back1;
    back1 = row;
    row = free;
  }
  return Math.min(back1[b.length]!, over);
}

/**
 * The known word closest to `word`, when it is close enough to be a likely typo:
 * same letters in another case, within a third of the word's length (at least 1, at most 3
 * edits), or the one known word that `word` is a prefix of (or that is a prefix of `word`).
 * Words over {@link MAX_SUGGESTION_LENGTH} characters take part in neither role.
 */
export function closest(word: string, known: Iterable<string>): string | undefined {
  if (word.length > MAX_SUGGESTION_LENGTH) return undefined;
  const lower = word.toLowerCase();
  const limit = Math.min(MAX_SUGGESTION_EDITS, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  const candidates = prepared(known);
  for (const candidate of candidates) {
    if (candidate.word === word) continue;
    const distance = candidate.lower === lower ? 0 : editDistanceWithin(lower, candidate.lower, limit);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate.word < best)) {
      best = candidate.word;
      bestDistance = distance;
    }
  }
  if (best !== undefined && bestDistance <= limit) return best;
  // A clipped or padded name (`storageClass` for `storageClassName`): one candidate extends it.
  if (word.length < 4) return undefined;
  const extending = candidates.filter((k) => k.word !== word && k.word.length >= 4 && (k.lower.startsWith(lower) || lower.startsWith(k.lower)));
  return extending.length === 1 ? extending[0]!.word : undefined;
}

interface Candidate {
  word: string;
  lower: string;
}

// A list of known words is prepared once however many mistakes are looked up in it.
const preparedLists = new WeakMap<readonly string[], readonly Candidate[]>();

// The first candidates (up to the cap) that are short enough to suggest, with their lower case.
function prepared(known: Iterable<string>): readonly Candidate[] {
  const cached = Array.isArray(known) ? preparedLists.get(known) : undefined;
  if (cached) return cached;
  const out: Candidate[] = [];
  let seen = 0;
  for (const candidate of known) {
    if (++seen > MAX_SUGGESTION_CANDIDATES) break;
    if (candidate.length <= MAX_SUGGESTION_LENGTH) out.push({ word: candidate, lower: candidate.toLowerCase() });
  }
  if (Array.isArray(known)) preparedLists.set(known, out);
  return out;
}

/** The did-you-mean hint for `word` among `known`, if any. */
export function didYouMean(word: string, known: Iterable<string>): string | undefined {
  const match = closest(word, known);
  return match === undefined ? undefined : `did you mean ${match}?`;
}
