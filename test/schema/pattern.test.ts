import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPattern, PATTERN_MAX_LENGTH, PatternCache, publishPattern } from '../../src/schema/pattern.js';
import { propertyRuns } from '../helpers/property.js';

const LINEAR_TIME = 'which cannot be matched in linear time; Kubernetes, whose CRD patterns are RE2, would refuse it too';
const NOT_RE2 = 'is not RE2 syntax, which Kubernetes requires of CRD patterns:';
const NOT_ECMASCRIPT = 'does not compile as an ECMAScript regular expression with the u flag:';

// Runs first in this file (its own process): nothing above may check, match or publish a pattern.
describe('loading', () => {
  it('loads neither the RE2 engine nor the regex parser until a pattern is used', () => {
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((file) => /node_modules\/(re2js|regjsparser|regjsgen)\//.test(file));
    expect(loaded()).toEqual([]);
    checkPattern('^[a-z]+$');
    expect(loaded().some((file) => file.includes('/re2js/'))).toBe(true);
  });
});

describe('checkPattern', () => {
  it.each([
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
    '^[a-zA-Z0-9._-]{1,50}$',
    '^([0-9]{1,3}\\.){3}[0-9]{1,3}/([0-9]|[12][0-9]|3[0-2])$',
    '^[1-9][0-9]*(Mi|Gi|Ti)$',
    '^\\p{L}[\\p{L}\\p{N}_-]*$',
    '^\\P{Lu}+$',
    '^https?://\\S+$',
    '^(?<unit>ms|s|m|h)$',
    '^\\d+(?:\\.\\d+)?$',
    'a{1000}',
    'x'.repeat(PATTERN_MAX_LENGTH),
  ])('accepts %s', (pattern) => {
    expect(checkPattern(pattern)).toEqual({ ok: true, programSize: expect.any(Number) });
  });

  it.each([
    ['a lookahead', 'a(?=b)', `uses a lookahead (?=...), ${LINEAR_TIME}`],
    ['a negative lookahead', 'a(?!b)', `uses a negative lookahead (?!...), ${LINEAR_TIME}`],
    ['a lookbehind', '(?<=a)b', `uses a lookbehind (?<=...), ${LINEAR_TIME}`],
    ['a negative lookbehind', '(?<!a)b', `uses a negative lookbehind (?<!...), ${LINEAR_TIME}`],
    ['a numeric backreference', '(a)\\1', `uses a backreference \\1, ${LINEAR_TIME}`],
    ['a named backreference', '(?<x>a)\\k<x>', `uses a backreference \\k<...>, ${LINEAR_TIME}`],
    // RE2 reads \12 as the octal escape of a newline; with 12 groups ECMAScript reads a backreference.
    ['a backreference RE2 would read as octal', `${'(a)'.repeat(12)}\\12`, `uses a backreference \\12, ${LINEAR_TIME}`],
  ])('refuses %s with its reason', (_name, pattern, reason) => {
    expect(checkPattern(pattern)).toEqual({ ok: false, reason });
  });

  it.each([
    ['^[a-z]+$', 4],
    ['a|b|c', 5],
    ['(ab)+', 5],
    ['(?:a?){1000}', 2000],
    ['x{2,5}', 8],
    [`^(?:${'a?'.repeat(49)}){1000}$`, 98_002],
  ])('gives %s the program size RE2 counts, %i instructions', (pattern, programSize) => {
    expect(checkPattern(pattern)).toEqual({ ok: true, programSize });
  });

  it.each([
    [`^(?:${'a?'.repeat(50)}){1000}$`, 'compiles to 100002 instructions'],
    ['(?:a{1000}){101}', 'compiles to 101000 instructions'],
    ['((((a{1000}){1000}){1000}){1000})', 'compiles to more than 100000000 instructions'],
  ])('refuses %s past the program limit, as too complex', (pattern, size) => {
    expect(checkPattern(pattern)).toEqual({
      ok: false,
      reason: `${size}; the limit is 100000, as each counted repetition copies what it repeats`,
      tooComplex: true,
    });
  });

  it('reads \\12 as RE2 does when there are too few groups for a backreference', () => {
    expect(checkPattern('(a)\\12')).toEqual({ ok: false, reason: `${NOT_ECMASCRIPT} invalid escape` });
  });

  it.each([
    ['a Python named group', '(?P<n>x)', 'invalid group'],
    ['a flag group', '(?i)abc', 'invalid group'],
    ['a flag group with a body', '(?s:.)', 'invalid group'],
    ['a one-letter property', '\\pL', 'invalid property name'],
    ['a script without its key', '\\p{Greek}', 'invalid property name'],
    ['a braced hex escape', '\\x{41}', 'invalid escape'],
    ['a POSIX class', '[[:alpha:]]', 'lone quantifier brackets'],
    ['a quoted literal', '\\Q.\\E', 'invalid escape'],
    ['an end-of-text anchor', 'a\\z', 'invalid escape'],
    ['a punctuation escape', '\\@', 'invalid escape'],
    ['a repetition without a minimum', 'a{,5}', 'incomplete quantifier'],
  ])('refuses RE2-only syntax V8 refuses: %s', (_name, pattern, complaint) => {
    expect(checkPattern(pattern)).toEqual({ ok: false, reason: `${NOT_ECMASCRIPT} ${complaint}` });
  });

  it.each([
    ['a \\u escape', '\\u0041', String.raw`invalid escape sequence "\\u"`],
    ['a braced \\u escape', '\\u{1F600}', String.raw`invalid escape sequence "\\u"`],
    ['a control escape', '\\cJ', String.raw`invalid escape sequence "\\c"`],
    ['a backspace escape in a class', '[\\b]', String.raw`invalid escape sequence "\\b"`],
    ['an empty class', 'a[]', 'missing closing ] "[]"'],
    ['a script property with its key', '\\p{Script=Greek}', String.raw`invalid character class range "\\p{Script=Greek}"`],
    ['a long general category name', '\\p{Letter}', String.raw`invalid character class range "\\p{Letter}"`],
    ['a repetition over 1,000', 'a{1001}', 'invalid repeat count "{1001}"'],
    ['nested repetitions over 1,000 in all', '(a{100}){11}', 'invalid repeat count "{11}"'],
  ])('refuses V8-only syntax RE2 refuses: %s', (_name, pattern, complaint) => {
    expect(checkPattern(pattern)).toEqual({ ok: false, reason: `${NOT_RE2} ${complaint}` });
  });

  it.each([
    ['an unclosed group', '(a', 'missing closing ) "(a"'],
    ['an unopened group', 'a)', 'unexpected ) "a)"'],
    ['a trailing backslash', 'a\\', 'trailing backslash at end of expression'],
    ['a repeated repetition', 'a**', 'invalid nested repetition operator "**"'],
  ])('names RE2 complaint first for syntax both refuse: %s', (_name, pattern, complaint) => {
    expect(checkPattern(pattern)).toEqual({ ok: false, reason: `${NOT_RE2} ${complaint}` });
  });

  it('refuses a pattern over 1,000 characters before parsing it', () => {
    expect(checkPattern(`(${'a'.repeat(PATTERN_MAX_LENGTH)}`)).toEqual({ ok: false, reason: 'is 1001 characters long; the limit is 1000' });
  });

  // The patterns of the incident: each stalled V8's backtracking engine for seconds or more.
  it.each([
    ['(?=a*(?=a*(?=a*b)))', `uses a lookahead (?=...), ${LINEAR_TIME}`],
    ['(?=a*b)', `uses a lookahead (?=...), ${LINEAR_TIME}`],
    ['(?=.*x)', `uses a lookahead (?=...), ${LINEAR_TIME}`],
    ['(?<=a+)(?<=a+)b', `uses a lookbehind (?<=...), ${LINEAR_TIME}`],
  ])('refuses the hostile lookaround %s', (pattern, reason) => {
    expect(checkPattern(pattern)).toEqual({ ok: false, reason });
  });

  // Catastrophic for a backtracking engine, linear for RE2: accepted, and a 100,000-character
  // input built to defeat backtracking gets its verdict at once. Were matching exponential,
  // these would not finish within the test timeout.
  const long = 100_000;
  it.each([
    ['(a+)+$', `${'a'.repeat(long)}!`, false],
    ['(a|a)*b', 'a'.repeat(long), false],
    ['(x+x+)+y', 'x'.repeat(long), false],
    ['^(\\w+\\s?)*$', `${'a'.repeat(long)}!`, false],
    ['^(\\w+\\s?)*$', `${'ab '.repeat(long / 3)}`, true],
    ['(.*a){12}', `${'a'.repeat(11)}${'b'.repeat(long)}`, false],
    ['(.*a){12}', `${'ab'.repeat(long / 2)}`, true],
    // Literal U+0000 and U+FFFF, as a double-quoted YAML "\u0000" delivers them: RE2 has no \u escape.
    ['(?:[\u0000-\uffff]|[\u0000-\uffff])+$', `${'a'.repeat(long)}\u{1F600}`, false],
    ['(?:[\u0000-\uffff]|[\u0000-\uffff])+$', 'a'.repeat(long), true],
  ])('accepts %s and matches it in linear time', (pattern, input, matches) => {
    expect(checkPattern(pattern)).toEqual({ ok: true, programSize: expect.any(Number) });
    expect(new PatternCache().test(pattern, input)).toBe(matches);
  });
});

describe('PatternCache', () => {
  it('searches anywhere in the value, as JSON Schema pattern does', () => {
    const cache = new PatternCache();
    expect(cache.test('b+', 'abbbc')).toBe(true);
    expect(cache.test('^b', 'ab')).toBe(false);
    expect(cache.test('^a[0-9]*$', 'a123')).toBe(true);
    expect(cache.test('^a[0-9]*$', 'a12x')).toBe(false);
  });

  it.each([
    ['. matches a carriage return', 'a.c', 'a\rc', true],
    ['. matches a line separator', 'a.c', 'a\u2028c', true],
    ['. does not match a newline', 'a.c', 'a\nc', false],
    ['\\s does not match a vertical tab', '^\\s$', '\v', false],
    ['\\s does not match a no-break space', '^\\s$', '\u00a0', false],
    ['\\S matches a no-break space', '^\\S$', '\u00a0', true],
    ['$ does not match before a final newline', 'a$', 'a\n', false],
    ['. matches one astral code point', '^.$', '\u{1F600}', true],
  ])('matches with RE2 semantics: %s', (_name, pattern, value, matches) => {
    expect(new PatternCache().test(pattern, value)).toBe(matches);
  });

  it('compiles a pattern only when it first checks a value', () => {
    const cache = new PatternCache();
    expect(cache.size).toBe(0);
    expect(cache.has('^a$')).toBe(false);
    cache.test('^a$', 'a');
    cache.test('^a$', 'b');
    expect(cache.size).toBe(1);
    expect(cache.has('^a$')).toBe(true);
  });

  it('stays at its bound after many distinct patterns', () => {
    const cache = new PatternCache(3);
    for (let i = 0; i < 50; i++) expect(cache.test(`^p${i}$`, `p${i}`)).toBe(true);
    expect(cache.size).toBe(3);
    expect(['^p47$', '^p48$', '^p49$'].every((p) => cache.has(p))).toBe(true);
    expect(cache.has('^p0$')).toBe(false);
  });

  it('evicts the least recently used pattern', () => {
    const cache = new PatternCache(2);
    cache.test('a', 'a');
    cache.test('b', 'b');
    cache.test('a', 'x');
    cache.test('c', 'c');
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
  });

  it('holds 1,000 patterns unless told otherwise', () => {
    expect(new PatternCache().maxSize).toBe(1000);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a bound of %s', (bound) => {
    expect(() => new PatternCache(bound)).toThrow(`a pattern cache holds at least 1 pattern, not ${bound}`);
  });

  it('throws on a pattern checkPattern refuses, and keeps nothing', () => {
    const cache = new PatternCache();
    expect(() => cache.test('(?=a)', 'a')).toThrow(/invalid or unsupported Perl syntax/);
    expect(cache.size).toBe(0);
  });
});

describe('publishPattern', () => {
  it.each([
    ['.', String.raw`[^\n]`],
    ['^a.*b$', String.raw`^a[^\n]*b$`],
    ['(?<n>.)', String.raw`(?<n>[^\n])`],
    // Once something is rewritten, the rest is regenerated: same meaning, generator's spelling.
    ['x{0,1}.', String.raw`x?[^\n]`],
    [String.raw`\s`, String.raw`[\t\n\f\r ]`],
    [String.raw`\S+`, String.raw`[^\t\n\f\r ]+`],
    [String.raw`[\s,]`, String.raw`[\t\n\f\r ,]`],
    [String.raw`[^\s]`, String.raw`[^\t\n\f\r ]`],
    [String.raw`[\S]`, String.raw`[^\t\n\f\r ]`],
    [String.raw`[^\S]`, String.raw`[\t\n\f\r ]`],
    // \S with other members: everything but the whitespace the others leave out.
    [String.raw`[\S\d]`, String.raw`[^\t\n\f\r ]`],
    [String.raw`[\S\n]`, String.raw`[^\t\f\r ]`],
    [String.raw`[\S\t-\r]`, '[^ ]'],
    [String.raw`[a^\S]`, String.raw`[^\t\n\f\r ]`],
    // Negated: only the whitespace the others leave out.
    [String.raw`[^\S\n]`, String.raw`[\t\f\r ]`],
    [String.raw`[^\S\p{Cc}]`, '[ ]'],
    // Everything, or nothing, spelled so that RE2 accepts it too.
    [String.raw`[\s\S]`, String.raw`[\d\D]`],
    [String.raw`[^\s\S]`, String.raw`[^\d\D]`],
  ])('publishes %s as %s', (pattern, published) => {
    expect(publishPattern(pattern)).toBe(published);
  });

  it.each([
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
    String.raw`^\p{L}[\p{L}\p{N}_-]{0,62}$`,
    String.raw`^\d+\.\d+$`,
    '[.]',
    // An escaped backslash before s, and an escaped dot: no whitespace class, no wildcard.
    String.raw`\\s\.`,
    String.raw`[\\s]`,
    // Written as the author wrote it, though a generator would respell it `x?y{2,}`.
    'x{0,1}y{2,}',
  ])('keeps %s as it is', (pattern) => {
    expect(publishPattern(pattern)).toBe(pattern);
  });

  it('throws on a pattern that is not an ECMAScript regular expression with the u flag', () => {
    expect(() => publishPattern('(?i)a')).toThrow();
  });
});

// The patterns whose published form must say what RE2 says: every rewrite, in and out of
// classes, negated or not, beside anchors, word boundaries and Unicode properties.
const AGREEMENT_PATTERNS = [
  '.',
  '^.$',
  'a.b',
  '^.*$',
  '.+x',
  String.raw`\s`,
  String.raw`^\s+$`,
  String.raw`\S`,
  String.raw`^\S*$`,
  String.raw`[\s]`,
  String.raw`[^\s]`,
  String.raw`[\S]`,
  String.raw`[^\S]`,
  String.raw`[\S\d]`,
  String.raw`[^\S\d]`,
  String.raw`[\S\n]`,
  String.raw`[^\S\n]`,
  String.raw`[\s\S]`,
  String.raw`^[^\s\S]$`,
  String.raw`[\s\w]`,
  String.raw`[^\s\w]+$`,
  String.raw`[\S\t-\r]`,
  String.raw`[^\S\t-\r]`,
  String.raw`[\S\p{Zs}]`,
  String.raw`[^\S\p{Cc}]`,
  String.raw`^[.\s]+$`,
  String.raw`\bx\b`,
  String.raw`^\w+\s?\w*$`,
  String.raw`^\p{L}+$`,
  String.raw`[\p{L}\s]+$`,
  String.raw`\d\D`,
  '^a$',
];
const ALPHABET = [
  'a',
  'b',
  'x',
  '0',
  '_',
  '.',
  ' ',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u3000',
  '\ufeff',
  'é',
  '中',
  '\u{1F600}',
  '\uD800',
  '\uDC00',
];

describe('published patterns agree with RE2', () => {
  it.each(AGREEMENT_PATTERNS)('%s matches the same strings in RE2 and, published, in ECMAScript', (pattern) => {
    const published = new RegExp(publishPattern(pattern), 'u');
    const cache = new PatternCache();
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 6 }), (value) => {
        expect(published.test(value)).toBe(cache.test(pattern, value));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it.each(AGREEMENT_PATTERNS)('%s published is itself accepted and means the same in RE2', (pattern) => {
    const published = publishPattern(pattern);
    expect(checkPattern(published)).toEqual({ ok: true, programSize: expect.any(Number) });
    const cache = new PatternCache();
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 6 }), (value) => {
        expect(cache.test(published, value)).toBe(cache.test(pattern, value));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('needs the rewrite: unpublished, . and \\s disagree with RE2', () => {
    const cache = new PatternCache();
    expect([cache.test('^.$', '\r'), /^.$/u.test('\r')]).toEqual([true, false]);
    expect([cache.test('^\\s$', '\v'), /^\s$/u.test('\v')]).toEqual([false, true]);
  });
});
