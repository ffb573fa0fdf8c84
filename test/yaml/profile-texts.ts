import fc from 'fast-check';
import { stringify } from 'yaml';
import { stringifyOptions, validProfile } from '../property/arbitraries.js';

// Profile texts that are valid YAML but hold the mistakes people make (a misspelt key, a value
// of the wrong type or out of its set, a missing key), laid out as people and tools write them:
// block and flow collections, quoted and plain scalars, comments between and after entries,
// CRLF, a byte order mark, a document start marker. Most take the fast path and have
// diagnostics, the files whose positions are found by a scan of the text.

type Mistake = { at: number; kind: 'rename' | 'retype' | 'delete'; value: unknown };

const WRONG_VALUES: unknown[] = [5, 1.5, true, 'yes', '', 'x y', ['a'], { a: 1 }, null, [], {}, [{ b: 'c' }]];

const mistake: fc.Arbitrary<Mistake> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('rename', 'retype', 'delete'),
  value: fc.constantFrom(...WRONG_VALUES),
});

// Every (map, key) of the data, in document order.
function entries(data: unknown, out: [Record<string, unknown>, string][] = []): [Record<string, unknown>, string][] {
  if (Array.isArray(data)) for (const item of data) entries(item, out);
  else if (typeof data === 'object' && data !== null) {
    const map = data as Record<string, unknown>;
    for (const key of Object.keys(map)) {
      out.push([map, key]);
      entries(map[key], out);
    }
  }
  return out;
}

function applyMistake(profile: Record<string, unknown>, m: Mistake): Record<string, unknown> {
  const all = entries(profile);
  if (all.length === 0) return profile;
  const [map, key] = all[m.at % all.length]!;
  const value = map[key];
  if (m.kind === 'delete') delete map[key];
  else if (m.kind === 'retype') map[key] = structuredClone(m.value);
  else {
    delete map[key];
    Object.defineProperty(map, key.length > 3 ? key.slice(0, 2) + key.slice(3) : `${key}x`, { value, enumerable: true, writable: true, configurable: true });
  }
  return profile;
}

const COMMENTS = ['# a comment', '#', '  # indented', '    # deeper', '# é \u{1F600}'];

/** Comment lines between lines and comments at the end of lines. */
function withComments(text: string, at: readonly number[], trailing: readonly number[]): string {
  const lines = text.split('\n');
  for (const p of trailing) {
    const i = p % lines.length;
    if (lines[i] !== '' && !/[|>][-+]?$/.test(lines[i]!)) lines[i] += ' # note';
  }
  for (const [n, p] of at.entries()) lines.splice(p % (lines.length + 1), 0, COMMENTS[n % COMMENTS.length]!);
  return lines.join('\n');
}

/** A valid profile with one to three mistakes, serialised in any style, with comments and framing. */
export const profileWithMistakes: fc.Arbitrary<string> = fc
  .record({
    profile: validProfile,
    mistakes: fc.array(mistake, { minLength: 1, maxLength: 3 }),
    options: stringifyOptions,
    comments: fc.array(fc.nat(), { maxLength: 3 }),
    trailing: fc.array(fc.nat(), { maxLength: 3 }),
    start: fc.constantFrom('', '', '', '---\n', '# head\n---\n'),
    end: fc.constantFrom('', '', '\n', '\n# tail\n'),
    crlf: fc.constantFrom(false, false, false, true),
    bom: fc.constantFrom(false, false, false, false, true),
  })
  .map(({ profile, mistakes, options, comments, trailing, start, end, crlf, bom }) => {
    const data = mistakes.reduce(applyMistake, structuredClone(profile));
    let text = start + withComments(stringify(data, options).replace(/\n$/, ''), comments, trailing) + end;
    if (crlf) text = text.replace(/\n/g, '\r\n');
    return (bom ? '\ufeff' : '') + text;
  });
