import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap } from '../../src/core/data.js';
import { error, type Part, type Path, toPointer } from '../../src/core/diagnostics.js';
import { ScannedDocument, UNSURE } from '../../src/yaml/locate-by-scan.js';
import { readYaml, withoutFastPath } from '../../src/yaml/read-yaml.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { editedProfileText } from '../property/arbitraries.js';
import { profileWithMistakes } from './profile-texts.js';
import { editedYamlText, mutatedYamlText, subsetText, yamlText } from './yaml-text-arbitraries.js';

// The scan of a fast-read text (docs/performance.md) must give exactly the positions the full
// reader gives, wherever it answers: for every path of the document's data, every missing key
// and index beside them, and each part (key, value, parent), the same span; for every path the
// same source text. Where it is not sure it says so and the full reader answers.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PARTS: readonly Part[] = ['key', 'value', 'parent'];

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (!['node_modules', 'dist', '.git', 'test-results'].includes(entry)) yamlFiles(path, out);
    } else if (/\.ya?ml$/.test(entry)) {
      out.push(path);
    }
  }
  return out;
}

/** Every path of the data, and beside each collection a missing key or index and a path under a scalar. */
function pathsOf(data: unknown): Path[] {
  const out: Path[] = [[]];
  const walk = (value: unknown, path: Path): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        out.push([...path, i]);
        walk(item, [...path, i]);
      });
      out.push([...path, value.length], [...path, 'x']);
    } else if (isMap(value)) {
      for (const key of Object.keys(value)) {
        out.push([...path, key]);
        walk(value[key], [...path, key]);
      }
      out.push([...path, 'no-such-key'], [...path, 'no-such-key', 'below'], [...path, 0]);
    } else {
      out.push([...path, 'below']);
    }
  };
  walk(data, []);
  return out;
}

interface Compared {
  /** True when the fast path read the text (only then is the scan used). */
  fast: boolean;
  /** True when the scan read the text's structure. */
  scanned: boolean;
  /** Lookups the scan answered, each equal to the full reader's. */
  answered: number;
  /** Lookups it left to the full reader. */
  unsure: number;
}

/** Compares the scan with the full reader on one text; any difference fails the test. */
function compare(text: string): Compared {
  let scanned: ScannedDocument | undefined;
  // On any text, read fast or not, the scan never throws.
  expect(() => {
    scanned = ScannedDocument.of('f.yaml', text);
  }).not.toThrow();
  const out: Compared = { fast: readYaml(text, 'f.yaml').isFast === true, scanned: scanned !== undefined, answered: 0, unsure: 0 };
  if (!out.fast || !scanned) return out;
  const stream = parseYamlStream(text, 'f.yaml');
  expect(stream.documents.length).toBe(1);
  const full = stream.documents[0]!;
  expect(scanned.source.text).toBe(stream.source.text);
  expect(scanned.source.lineCounter.lineStarts).toEqual(stream.source.lineCounter.lineStarts);
  for (const path of pathsOf(full.data)) {
    for (const part of PARTS) {
      const span = scanned.locate(path, part);
      if (span === UNSURE) out.unsure += 1;
      else {
        expect(span, `${part} of ${toPointer(path)} in ${JSON.stringify(text)}`).toEqual(full.locate(path, part));
        out.answered += 1;
      }
    }
    const written = scanned.sourceTextAt(path);
    if (written === UNSURE) out.unsure += 1;
    else expect(written, `text at ${toPointer(path)} in ${JSON.stringify(text)}`).toBe(full.sourceTextAt(path));
  }
  return out;
}

const corpus = yamlFiles(ROOT).map((path) => ({ name: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

describe('positions found by a scan of the text are the full reader positions', () => {
  it('on every corpus document of the repository, and the scan reads most of those read fast', () => {
    const dirs = ['test/conformance/', 'test/schema/bad-profiles/', 'test/fixtures/', 'profiles/', 'definitions/'];
    for (const dir of dirs)
      expect(
        corpus.some((c) => c.name.startsWith(dir)),
        dir,
      ).toBe(true);
    let fast = 0;
    let scanned = 0;
    let answered = 0;
    for (const { name, text } of corpus) {
      const result = compare(text);
      if (result.fast) fast += 1;
      if (result.fast && result.scanned) scanned += 1;
      answered += result.answered;
      expect(name).toBeTruthy();
    }
    expect(fast).toBeGreaterThan(100);
    // Measured: the scan reads nearly every document the fast path reads; the rest hold multi-line scalars or trailing comments.
    expect(scanned).toBeGreaterThan(fast * 0.8);
    expect(answered).toBeGreaterThan(1000);
  });

  const generated: [string, fc.Arbitrary<string>, number][] = [
    ['profiles with mistakes', profileWithMistakes, 300],
    ['edited profiles', editedProfileText, 300],
    ['texts of pieces the fast path lets through', subsetText, 500],
    ['generated YAML texts', yamlText, 300],
    ['edited YAML texts', editedYamlText, 300],
    ['mutated YAML texts', mutatedYamlText, 300],
  ];
  it.each(generated)('on %s (property)', (_name, texts, numRuns) => {
    let answered = 0;
    fc.assert(
      fc.property(texts, (text) => {
        answered += compare(text).answered;
      }),
      { numRuns },
    );
    expect(answered).toBeGreaterThan(0);
  });

  it('reads most profiles with mistakes that the fast path reads', () => {
    let scanned = 0;
    let fast = 0;
    fc.assert(
      fc.property(profileWithMistakes, (text) => {
        const result = compare(text);
        if (result.fast) fast += 1;
        if (result.fast && result.scanned) scanned += 1;
      }),
      { numRuns: 200 },
    );
    // Measured: the scan reads about nine in ten of the fast-read profiles; a floor keeps it so.
    expect(fast).toBeGreaterThan(50);
    expect(scanned).toBeGreaterThan(fast * 0.6);
  });
});

describe('what the scan answers and what it leaves to the full reader', () => {
  const profile = [
    '# a profile',
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: ClusterProfile',
    'metadata:',
    '  name: édge  # the name',
    'spec:',
    '  capabilities:',
    '    expose:',
    '      rendering: {controllerType: gatway, tls: [{host: a}]}',
    '    certificate:',
    '      rendering:',
    '        issuerRef:',
    '          kind: x',
    '    list:',
    '    - "quoted"',
    '    - a: 1',
    '      b: |',
    '        text',
    '',
  ].join('\n');

  it('positions keys, values, flow contents, list items and missing keys exactly', () => {
    const scanned = ScannedDocument.of('f.yaml', profile)!;
    expect(scanned).toBeDefined();
    const at = (path: Path, part: Part) => scanned.locate(path, part);
    expect(at(['metadata', 'name'], 'value')).toEqual({ line: 5, column: 9, endLine: 5, endColumn: 13 });
    expect(at(['spec', 'capabilities', 'expose', 'rendering', 'controllerType'], 'value')).toEqual({ line: 9, column: 35, endLine: 9, endColumn: 41 });
    expect(at(['spec', 'capabilities', 'expose', 'rendering', 'tls', 0, 'host'], 'key')).toEqual({ line: 9, column: 50, endLine: 9, endColumn: 54 });
    expect(at(['spec', 'capabilities', 'expose', 'rendering', 'tls', 0, 'hosts'], 'parent')).toEqual({ line: 9, column: 49, endLine: 9, endColumn: 58 });
    expect(at(['spec', 'capabilities', 'certificate', 'rendering', 'issuerRef', 'name'], 'parent')).toEqual({
      line: 12,
      column: 9,
      endLine: 12,
      endColumn: 18,
    });
    expect(at(['spec', 'capabilities', 'list', 1], 'key')).toEqual({ line: 16, column: 7, endLine: 16, endColumn: 11 });
    expect(at(['spec', 'capabilities', 'list', 1, 'b'], 'value')).toEqual({ line: 17, column: 10, endLine: 19, endColumn: 1 });
    expect(at(['spec', 'capabilities', 'list'], 'value')).toEqual({ line: 15, column: 5, endLine: 19, endColumn: 1 });
    expect(scanned.sourceTextAt(['spec', 'capabilities', 'list', 0])).toBe('"quoted"');
    expect(scanned.sourceTextAt(['spec', 'capabilities', 'list', 1])).toBeUndefined();
    expect(scanned.sourceTextAt(['spec', 'capabilities', 'list', 1, 'b'])).toBe('|\n        text\n');
  });

  it.each([
    ['a multi-line plain scalar', 'a: one\n  two\nb: 1\n'],
    ['a multi-line quoted scalar', 'a: "one\n  two"\nb: 1\n'],
    ['an escape in a key', '"a\\u0062": 1\n'],
    ['a flow map entry without a value', 'a: {b, c: 1}\n'],
    ['a pair in a flow sequence', 'a: [b: 1]\n'],
    ['a block scalar with an indentation indicator', 'a: |2\n   x\n'],
    ['a block scalar holding a line of spaces', 'a: |\n  x\n   \n  y\n'],
  ])('is not sure of %s', (_name, text) => {
    expect(ScannedDocument.of('f.yaml', text)).toBeUndefined();
  });

  it.each([
    ['a root flow map', '{a: 1, b: [x, "y"]}\n'],
    ['a scalar on the line after its key', 'a:\n  one\nb:\n  {c: 1}\n'],
    ['a list at its key indentation', 'a:\n- x\n- y: 1\n  z: 2\nb: 3\n'],
    ['CRLF line ends and a byte order mark', '\ufeffa: 1\r\nb:\r\n  c: "d"\r\n'],
  ])('reads %s as the full reader does', (_name, text) => {
    const result = compare(text);
    expect(result).toMatchObject({ fast: true, scanned: true, unsure: 0 });
    expect(result.answered).toBeGreaterThan(10);
  });

  it('leaves one lookup to the full reader when comments end a collection it spans', () => {
    const text = 'a:\n  b: 1\n  # trailing\n';
    const scanned = ScannedDocument.of('f.yaml', text)!;
    expect(scanned.locate(['a'], 'value')).toBe(UNSURE);
    expect(scanned.locate(['a', 'b'], 'value')).toEqual({ line: 2, column: 6, endLine: 2, endColumn: 7 });
    expect(compare(text).answered).toBeGreaterThan(0);
  });
});

describe('positioning many diagnostics by the scan', () => {
  // Linear in the size of the document (docs/profiles.md#limits): one scan for all of them, each
  // lookup a walk down its path. A rescan per diagnostic would run for minutes here.
  it('positions 60,000 diagnostics in a fast-read map of 60,000 keys as the full reader does', () => {
    const text = `map:\n${Array.from({ length: 60_000 }, (_, i) => `  k${i}: v${i}\n`).join('')}`;
    const positions = (read: ReturnType<typeof readYaml>) =>
      Array.from({ length: 60_000 }, (_, i) => read.documents[0]!.toDiagnostic(error('wrong-type', ['map', `k${i}`], 'bad')));
    const fast = readYaml(text, 'f.yaml');
    expect(fast.isFast).toBe(true);
    const scanned = positions(fast);
    expect([scanned[0]!, scanned[59_999]!].map((d) => [d.line, d.column, d.endLine, d.endColumn, d.path])).toEqual([
      [2, 7, 2, 9, '/map/k0'],
      [60_001, 11, 60_001, 17, '/map/k59999'],
    ]);
    expect(scanned).toEqual(withoutFastPath(() => positions(readYaml(text, 'f.yaml'))));
  });
});
