import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FAST_READ_FALLBACKS, readFast } from '../../src/yaml/fast-read.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { editedProfileText, stringifyOptions, validProfile, yamlishText } from '../property/arbitraries.js';
import { editedYamlText, mutatedYamlText, subsetText, yamlText } from './yaml-text-arbitraries.js';

// docs/performance.md: whenever the fast path answers, its data is exactly the `yaml` reader's data for
// one clean document, and a text the `yaml` reader reports anything about never takes it.

type FullRead = { clean: true; data: unknown } | { clean: false; problems: string[] };

/** The `yaml` reader's verdict: the data of one clean document, or what it reported. */
function fullRead(text: string): FullRead {
  const stream = parseYamlStream(text, 'f.yaml');
  const diagnostics = [...stream.diagnostics, ...stream.documents.flatMap((d) => d.diagnostics)];
  const only = stream.documents[0];
  if (diagnostics.length === 0 && stream.documents.length === 1 && !only!.isEmpty) return { clean: true, data: only!.data };
  const problems = diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`);
  if (stream.documents.length !== 1) problems.push(`${stream.documents.length} documents`);
  else if (only!.isEmpty) problems.push('empty document');
  return { clean: false, problems };
}

/**
 * The first difference between two data trees, or undefined. Exact: types, -0 against 0, NaN,
 * bigints, key order, own `__proto__` keys, plain prototypes.
 */
function difference(a: unknown, b: unknown, at = ''): string | undefined {
  if (typeof a !== typeof b) return `${at || '/'}: ${typeof a} against ${typeof b}`;
  if (typeof a !== 'object' || a === null || b === null) return Object.is(a, b) ? undefined : `${at || '/'}: ${show(a)} against ${show(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${at || '/'}: list against map`;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${at || '/'}: prototypes differ`;
  const keysA = Reflect.ownKeys(a);
  const keysB = Reflect.ownKeys(b as object);
  if (keysA.join('\u0000') !== keysB.join('\u0000')) return `${at || '/'}: keys ${show(keysA.map(String))} against ${show(keysB.map(String))}`;
  for (const key of keysA) {
    const da = Object.getOwnPropertyDescriptor(a, key)!;
    const db = Object.getOwnPropertyDescriptor(b, key)!;
    if (da.enumerable !== db.enumerable) return `${at}/${String(key)}: enumerability differs`;
    const inner = difference(da.value, db.value, `${at}/${String(key)}`);
    if (inner) return inner;
  }
  return undefined;
}

function show(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (Object.is(value, -0)) return '-0';
  return JSON.stringify(value) ?? String(value);
}

/** Checks the differential rule on one text; true when the fast path was taken. */
function agrees(text: string): boolean {
  const fast = readFast(text);
  if (!fast.ok) return false;
  const full = fullRead(text);
  if (!full.clean) throw new Error(`the fast path read a text the yaml reader reports (${full.problems.join('; ')}): ${JSON.stringify(text)}`);
  const diff = difference(fast.data, full.data);
  if (diff !== undefined) throw new Error(`the fast path read different data (${diff}): ${JSON.stringify(text)}`);
  return true;
}

/** The value of `v` as the fast path reads `v: <source>`, checked against the yaml reader. */
function fastValue(source: string): unknown {
  const text = `v: ${source}\n`;
  const fast = readFast(text);
  if (!fast.ok) throw new Error(`expected the fast path for ${JSON.stringify(text)}`);
  expect(agrees(text)).toBe(true);
  return fast.data['v'];
}

describe('the fast path resolves plain scalars as the YAML 1.2 core schema', () => {
  const cases: [source: string, value: unknown][] = [
    // null
    ['~', null],
    ['null', null],
    ['Null', null],
    ['NULL', null],
    ['nULL', 'nULL'],
    ['', null],
    // bool: three spellings each, nothing of YAML 1.1
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['tRUE', 'tRUE'],
    ['false', false],
    ['False', false],
    ['FALSE', false],
    ['yes', 'yes'],
    ['no', 'no'],
    ['on', 'on'],
    ['off', 'off'],
    ['y', 'y'],
    ['n', 'n'],
    // int: decimal (leading zeros are decimal), 0o octal, 0x hex; -0 is 0
    ['0', 0],
    ['-0', 0],
    ['+12', 12],
    ['-12', -12],
    ['007', 7],
    ['0777', 777],
    ['0o17', 15],
    ['0o0', 0],
    ['0x1F', 31],
    ['0x1f', 31],
    ['0O17', '0O17'],
    ['0o18', '0o18'],
    ['0X1F', '0X1F'],
    ['-0x1F', '-0x1F'],
    ['+0o17', '+0o17'],
    ['0b1010', '0b1010'],
    ['1_000', '1_000'],
    // int beyond 2^53: exact bigint; within: number, however it is written
    ['9007199254740991', 9007199254740991],
    ['9007199254740992', 9007199254740992n],
    ['9007199254740993', 9007199254740993n],
    ['-9007199254740993', -9007199254740993n],
    ['0x20000000000001', 9007199254740993n],
    ['0o400000000000000001', 9007199254740993n],
    ['000000000000000000001', 1],
    ['-000000000000000000000', 0],
    ['123456789012345678901234567890', 123456789012345678901234567890n],
    // float
    ['1.5', 1.5],
    ['-1.5', -1.5],
    ['+1.5', 1.5],
    ['1.', 1],
    ['.5', 0.5],
    ['-.5', -0.5],
    ['-0.0', -0],
    ['0.0', 0],
    ['1.0', 1],
    ['1e3', 1000],
    ['1E3', 1000],
    ['1e+3', 1000],
    ['1e-3', 0.001],
    ['.5e3', 500],
    ['1.e3', 1000],
    ['1e400', Infinity],
    ['4.9e-324', 5e-324],
    ['e3', 'e3'],
    ['1e', '1e'],
    ['1.5.1', '1.5.1'],
    ['.inf', Infinity],
    ['.Inf', Infinity],
    ['.INF', Infinity],
    ['+.inf', Infinity],
    ['-.inf', -Infinity],
    ['-.Inf', -Infinity],
    ['.iNF', '.iNF'],
    ['.nan', NaN],
    ['.NaN', NaN],
    ['.NAN', NaN],
    ['-.nan', '-.nan'],
    ['nan', 'nan'],
    ['inf', 'inf'],
    // YAML 1.1 sexagesimals and timestamps stay strings
    ['1:20', '1:20'],
    ['1:20:30', '1:20:30'],
    ['2001-12-14', '2001-12-14'],
    ['2001-12-14t21:59:43.10-05:00', '2001-12-14t21:59:43.10-05:00'],
    // quoted and block scalars are strings whatever they hold
    ['"1"', '1'],
    ["'true'", 'true'],
    ['"~"', '~'],
    ["''", ''],
    ['"0x1F"', '0x1F'],
    ['|-\n  12', '12'],
    ['>\n  .inf', '.inf\n'],
  ];
  it.each(cases)('%j', (source, value) => {
    expect(difference(fastValue(source), value)).toBeUndefined();
  });
});

describe('the fast path builds data as the yaml reader does', () => {
  it('keeps __proto__, constructor and prototype as own keys, in order, touching no prototype', () => {
    const text = 'b: 1\n__proto__: {polluted: true}\nconstructor: x\nprototype: [1]\n';
    const fast = readFast(text);
    expect(fast.ok).toBe(true);
    const data = (fast as { data: Record<string, unknown> }).data;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Reflect.ownKeys(data)).toEqual(['b', '__proto__', 'constructor', 'prototype']);
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')!.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(agrees(text)).toBe(true);
  });

  it('reads CRLF line ends, a leading byte order mark, a leading --- and comments like the yaml reader', () => {
    const text = '\ufeff# head\n--- # start\nkind: ClusterProfile # end\nspec:\n  list:\n  - a\n  - |\n    two\n    lines\n  flow: {a: 1, b: [x, "y"]}\n';
    for (const variant of [text, text.replace(/\n/g, '\r\n')]) {
      expect(agrees(variant)).toBe(true);
      expect(readFast(variant)).toEqual({ ok: true, data: { kind: 'ClusterProfile', spec: { list: ['a', 'two\nlines\n'], flow: { a: 1, b: ['x', 'y'] } } } });
    }
  });

  // `&` and `!` after white space fall back even in quotes and comments (see the triggers below).
  it('reads aliases, backticks, @ and % inside quotes and comments, and anchors and tags inside words', () => {
    const text = [
      '# * a `b` c! *d @g %h R&D',
      'schedule: "30 2 * * *"',
      "host: '*.example.com'",
      'team: R&D',
      'shout: hi!',
      'url: https://example.com/a?b=c&d=e#top',
      'note: use `kurel` @ 50% * 2',
      'more: first line',
      '  @second *third `fourth',
      '',
    ].join('\n');
    expect(agrees(text)).toBe(true);
  });
});

// Each trigger: a text that must fall back, and its twin without the construct that reads fast.
const TRIGGERS: Record<string, [fallsBack: string, twin: string]> = {
  character: ['a: "x\ty"\n', 'a: "x y"\n'],
  'lone surrogate': ['a: x\ud800y\n', 'a: x\u{1F600}y\n'],
  'carriage return without line feed': ['a: 1\rb: 2\n', 'a: 1\r\nb: 2\n'],
  'anchor or tag': ['a: &x 1\nb: 2\n', 'a: 1\nb: 2\n'],
  directive: ['%YAML 1.2\n---\na: 1\n', '---\na: 1\n'],
  'complex key': ['? a\n: 1\n', 'a: 1\n'],
  'merge key': ['a: 1\n<<: {b: 2}\n', 'a: 1\nb: 2\n'],
  'flow collection as key': ['a: {[x]: 1}\n', 'a: {x: 1}\n'],
  'empty key': ['a: 1\n: 2\n', 'a: 1\nb: 2\n'],
  'block scalar indentation indicator or keep chomping': ['a: |+\n  x\n\nb: 1\n', 'a: |\n  x\n\nb: 1\n'],
  'empty sequence entry': ['a:\n  - x\n  -\n- y\n', 'a:\n  - x\n  - ~\nb: 1\n'],
  'block scalar with leading white-space lines': ['a: |\n   \n  x\n', 'a: |\n\n  x\n'],
  'block scalar header on its own line': ['a:\n  b:\n    |\n     x\n', 'a:\n  b: |\n     x\n'],
  'escaped line break': ['a: "x \\\n\n  y"\n', 'a: "x \n\n  y"\n'],
  'escape beyond Unicode': ['a: "\\U00110000"\n', 'a: "\\U0010FFFF"\n'],
  'comment without white space': ['a: "x"#c\n', 'a: "x" #c\n'],
  'document end marker': ['a: 1\n...\n', 'a: 1\n'],
  'suppression comment': ['# kurel-disable unknown-field\na: 1\n', '# kurel-enable\na: 1\n'],
};

// Constructs found after the scan or by the fast parser itself.
const PARSE_TRIGGERS: Record<string, [fallsBack: string, twin: string]> = {
  'plain scalar after a less indented comment': ['a:\n  b:\n #c\n    x\n  d: 1\n', 'a:\n  b:\n #c\n    "x"\n  d: 1\n'],
  'a tab in indentation': ['a:\n\tb: 1\n', 'a:\n  b: 1\n'],
  'a byte order mark after the start': ['a: 1\n\ufeffb: 2\n', '\ufeffa: 1\nb: 2\n'],
  'a second document': ['a: 1\n---\nb: 2\n', '---\na: 1\nb: 2\n'],
  'a trailing empty document': ['a: 1\n---\n', 'a: 1\n'],
  'content on the document start line': ['--- {a: 1}\n', '---\n{a: 1}\n'],
  'a document start marker after content': ['# c\na: 1\n---\n', '# c\n---\na: 1\n'],
  'a syntax error': ['a: b: c\n', 'a: b c\n'],
  'a duplicate key': ['a: 1\nb: 2\na: 3\n', 'a: 1\nb: 2\nc: 3\n'],
  'a duplicate __proto__ key': ['__proto__: 1\n__proto__: 2\n', '__proto__: 1\n'],
  'an integer key': ['1: a\n', '"1": a\n'],
  'a hex integer key in a flow map': ['a: {0x1F: b}\n', 'a: {"0x1F": b}\n'],
  'a float key': ['1.5: a\n', "'1.5': a\n"],
  'a boolean key': ['true: a\n', '"true": a\n'],
  'a null key': ['null: a\n', 'nul: a\n'],
  'a ~ key': ['~: a\n', '"~": a\n'],
  'a map as key without value': ['a: {x, {y: 1}}\n', 'a: {x, y: 1}\n'],
  'a list as key without value': ['a: {[y]}\n', 'a: {y}\n'],
  'a flow collection over several lines': ['a: [1,\n  2]\n', 'a: [1, 2]\n'],
  'a quoted flow item over several lines': ['a: ["x\n  y"]\n', 'a: ["x y"]\n'],
  'an alias (no anchor can exist)': ['a: *x\n', 'a: x\n'],
  'a reserved indicator': ['a: @x\n', 'a: x@y\n'],
  'a backtick': ['a: `x`\n', 'a: x`y`\n'],
  'a line over 1000 characters': [`a: ${'x'.repeat(1001)}\n`, `a: ${'x'.repeat(990)}\n`],
  'a key over 1024 characters': [`${'k'.repeat(1030)}: 1\n`, `${'k'.repeat(990)}: 1\n`],
  'a root that is a list': ['- a: 1\n', 'a: [1]\n'],
  'a root that is a scalar': ['a\n', 'a:\n'],
  'an empty document': ['# only a comment\n', '# only a comment\na:\n'],
  'nesting at the fast parser limit': [`${'{a: '.repeat(100)}1${'}'.repeat(100)}\n`, `${'{a: '.repeat(90)}1${'}'.repeat(90)}\n`],
};

describe('the fast path falls back', () => {
  it('has an example for every trigger of the scan, found by that trigger and absent from its twin', () => {
    expect(Object.keys(TRIGGERS).sort()).toEqual(FAST_READ_FALLBACKS.map((f) => f.name).sort());
    for (const { name, pattern } of FAST_READ_FALLBACKS) {
      const [fallsBack, twin] = TRIGGERS[name]!;
      expect({ name, found: pattern.test(fallsBack), inTwin: pattern.test(twin) }).toEqual({ name, found: true, inTwin: false });
    }
  });

  it.each(Object.entries({ ...TRIGGERS, ...PARSE_TRIGGERS }))('on %s', (_name, [fallsBack, twin]) => {
    expect(readFast(fallsBack)).toEqual({ ok: false });
    expect(readFast(twin).ok).toBe(true);
    expect(agrees(twin)).toBe(true);
  });

  it('on flow sequences nested as keys, which older js-yaml parsed in exponential time', () => {
    let key = 'x';
    for (let i = 0; i < 40; i++) key = `[${key}]: y`;
    expect(readFast(`a: [${key}]\n`)).toEqual({ ok: false });
  });

  // Each would take seconds to hours if a check backtracked over the lines (the test then times out).
  it('reads hostile runs of comment lines in linear time', () => {
    expect(readFast(`a:\r\n${'#c\r\n'.repeat(40)}  k: v\r\n`).ok).toBe(true);
    expect(readFast(`a:\n${'#c\n'.repeat(100_000)}  k: v\n`).ok).toBe(true);
    expect(readFast(`a:\n${'#c\n'.repeat(100_000)}  v\n`)).toEqual({ ok: false });
    expect(readFast(`${'#c\r\n'.repeat(40)}x\r\n---\r\n`)).toEqual({ ok: false });
    expect(readFast(`${'#c\r\n'.repeat(40)}---\r\na: 1\r\n`).ok).toBe(true);
  });

  it('on an empty text', () => {
    expect(readFast('')).toEqual({ ok: false });
    expect(readFast('\ufeff')).toEqual({ ok: false });
  });

  it('on nesting past kurel’s limit, which the yaml reader reports as too-deep', () => {
    const text = `${'['.repeat(130)}1${']'.repeat(130)}\n`;
    expect(readFast(`a: ${text}`)).toEqual({ ok: false });
    expect(fullRead(`a: ${text}`)).toMatchObject({ clean: false, problems: [expect.stringMatching(/^too-deep /)] });
  });
});

// A run takes the fast path often enough that the rule is really exercised. Measured shares
// of fast reads: about 5%, 2%, 2%, 12%, 9% and 10% of the runs; each floor sits at least four
// standard deviations below its mean, or at one where the share is small.
describe('the fast path agrees with the yaml reader on every text (property)', () => {
  const cases: [name: string, texts: fc.Arbitrary<string>, runs: number, atLeast: number][] = [
    ['generated YAML texts with every construct of docs/profiles.md', yamlText, 1000, 15],
    ['generated YAML texts after small edits', editedYamlText, 600, 1],
    ['generated YAML texts with characters inserted, deleted or replaced', mutatedYamlText, 1000, 1],
    ['texts made of YAML syntax pieces', yamlishText, 600, 20],
    ['valid profiles after small edits', editedProfileText, 500, 15],
    ['texts made of pieces the scan lets through', subsetText, 10000, 400],
  ];
  it.each(cases)('%s', (_name, texts, numRuns, atLeast) => {
    let fast = 0;
    fc.assert(
      fc.property(texts, (text) => {
        if (agrees(text)) fast += 1;
      }),
      { numRuns },
    );
    expect(fast).toBeGreaterThanOrEqual(atLeast);
  });

  it('valid profiles written by the yaml package in every style mostly take the fast path', () => {
    let fast = 0;
    const numRuns = 300;
    fc.assert(
      fc.property(validProfile, stringifyOptions, (profile, options) => {
        if (agrees(stringify(profile, options))) fast += 1;
      }),
      { numRuns },
    );
    // Measured: about 58%; the rest are mostly flow collections the package folds over lines.
    expect(fast).toBeGreaterThanOrEqual(numRuns * 0.4);
  });
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (!['node_modules', 'dist', '.git'].includes(entry)) yamlFiles(path, out);
    } else if (/\.ya?ml$/.test(entry)) {
      out.push(path);
    }
  }
  return out;
}

describe('the fast path agrees with the yaml reader on every YAML file of the repository', () => {
  // The repository's own files, the shared fixtures (test/fixtures/shared) among them.
  const files = yamlFiles(ROOT);

  it('on each file, and shipped profiles and definitions take it unless they use anchors or merge keys', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => relative(ROOT, f).startsWith('test/fixtures/shared/conformance/')).length).toBeGreaterThan(64);
    const slow: string[] = [];
    let fast = 0;
    for (const file of files) {
      if (agrees(readFileSync(file, 'utf8'))) fast += 1;
      else slow.push(relative(ROOT, file));
    }
    expect(fast).toBeGreaterThan(files.length / 2);
    // every-builtin.yaml shows an anchor and a merge key; the rest of profiles/ and definitions/ read fast.
    expect(slow.filter((f) => /^(profiles|definitions)\//.test(f))).toEqual(['profiles/every-builtin.yaml']);
  });
});
