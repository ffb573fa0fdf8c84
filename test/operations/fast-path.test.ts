import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Catalogue, createCatalogue } from '../../src/catalogue/catalogue.js';
import { readDefinitionInputs } from '../../src/catalogue/load-catalogue.js';
import type { InputFile, InputOrigin } from '../../src/core/input.js';
import { buildApplication } from '../../src/operations/build-application.js';
import { lintInputs } from '../../src/operations/lint.js';
import { validateProfile } from '../../src/operations/validate-profile.js';
import { readFast } from '../../src/yaml/fast-read.js';
import { readYaml, withoutFastPath } from '../../src/yaml/read-yaml.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { validProfile } from '../property/arbitraries.js';
import { bothWays, reportOf } from './fast-path-support.js';

// docs/performance.md: the fast path changes no verdict, code, message, position or resolved profile.
// Every corpus document of the repository and the shared fixtures is linted, validated, loaded
// as a definition and built with the fast path and without it, and the results must be equal.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The shared fixtures (documents written for the Go toolchain) are part of the repository's tree.
const SHARED = join(ROOT, 'test', 'fixtures', 'shared');

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

/** The repository's definitions, loaded with the fast path or without it. */
function repositoryCatalogue(): Catalogue {
  const inputs = yamlFiles(join(ROOT, 'definitions')).map(
    (path): InputFile => ({ file: relative(ROOT, path), content: readFileSync(path), origin: 'definition' }),
  );
  return createCatalogue().withDefinitions(readDefinitionInputs(inputs).documents).catalogue;
}

const corpus = yamlFiles(ROOT).map((path) => ({
  name: relative(ROOT, path),
  content: readFileSync(path),
}));

describe('the fast path changes no verdict, code or position on the corpus', () => {
  it('holds the conformance cases, the shared fixtures and the example profiles and definitions, and most take the fast path', () => {
    const names = corpus.map((c) => c.name);
    expect(names.filter((n) => n.startsWith('test/conformance/cases/')).length).toBeGreaterThan(64);
    expect(names.filter((n) => n.startsWith('profiles/')).length).toBeGreaterThan(3);
    expect(names.filter((n) => n.startsWith('definitions/')).length).toBeGreaterThan(0);
    expect(names.filter((n) => n.startsWith('test/fixtures/shared/conformance/')).length).toBeGreaterThan(64);
    const fast = corpus.filter((c) => readFast(c.content.toString('utf8')).ok).length;
    expect(fast).toBeGreaterThan(corpus.length / 2);
  });

  const origins: InputOrigin[] = ['argument', 'directory', 'profile', 'definition'];
  it.each(origins)('linting each document alone as %s input', (origin) => {
    const catalogue = bothWays(repositoryCatalogue);
    for (const { name, content } of corpus) {
      const inputs: InputFile[] = [{ file: name, content, origin }];
      const fast = reportOf(lintInputs(inputs, catalogue.fast));
      const full = reportOf(withoutFastPath(() => lintInputs(inputs, catalogue.full)));
      expect(fast, name).toEqual(full);
    }
  });

  it('validating each document as an HTTP body, as text and as bytes', () => {
    const catalogue = createCatalogue();
    for (const { name, content } of corpus) {
      for (const body of [content, content.toString('utf8')]) {
        const { fast, full } = bothWays(() => validateProfile({ profile: { file: 'request', content: body } }, catalogue));
        expect(fast, name).toEqual(full);
      }
    }
  });

  it('building each document as the application and as the profile', () => {
    const catalogue = createCatalogue();
    const app = corpus.find((c) => c.name === 'test/conformance/cases/114-build-expose-ingress-fixture/app.yaml')!;
    const profile = corpus.find((c) => c.name === 'profiles/minimal.yaml')!;
    for (const { name, content } of corpus) {
      for (const sources of [
        { application: { file: name, content }, profile: { file: profile.name, content: profile.content }, definitions: [] },
        { application: { file: app.name, content: app.content }, profile: { file: name, content }, definitions: [] },
      ]) {
        const { fast, full } = bothWays(() => buildApplication(sources, catalogue));
        expect(reportOf(fast), name).toEqual(reportOf(full));
        expect(fast.application, name).toEqual(full.application);
      }
    }
  });

  it('running each conformance case as the CLI does', () => {
    const dirs = [join(ROOT, 'test', 'conformance', 'cases'), join(SHARED, 'conformance')];
    let cases = 0;
    for (const dir of dirs) {
      for (const name of readdirSync(dir).filter((n) => existsSync(join(dir, n, 'expect.json')))) {
        const caseDir = join(dir, name);
        const read = (file: string) => readFileSync(join(caseDir, file));
        const definitions = existsSync(join(caseDir, 'definitions'))
          ? yamlFiles(join(caseDir, 'definitions')).map(
              (path): InputFile => ({ file: relative(caseDir, path), content: readFileSync(path), origin: 'definition' }),
            )
          : [];
        cases += 1;
        if (existsSync(join(caseDir, 'app.yaml'))) {
          const sources = {
            application: { file: 'app.yaml', content: read('app.yaml') },
            profile: { file: 'cluster.yaml', content: read('cluster.yaml') },
            definitions,
          };
          const { fast, full } = bothWays(() => buildApplication(sources, createCatalogue()));
          expect(reportOf(fast), name).toEqual(reportOf(full));
          expect(fast.application, name).toEqual(full.application);
        } else {
          const inputs: InputFile[] = [{ file: 'cluster.yaml', content: read('cluster.yaml'), origin: 'argument' }, ...definitions];
          const { fast, full } = bothWays(() => lintInputs(inputs, createCatalogue()));
          expect(reportOf(fast), name).toEqual(reportOf(full));
        }
      }
    }
    expect(cases).toBeGreaterThanOrEqual(64);
  });

  it('linting the whole corpus in one run, definitions and profiles together', () => {
    const inputs = corpus.map(({ name, content }): InputFile => ({ file: name, content, origin: 'directory' }));
    const { fast, full } = bothWays(() => lintInputs(inputs, createCatalogue()));
    expect(reportOf(fast)).toEqual(reportOf(full));
    expect(fast.diagnostics.length).toBeGreaterThan(0);
  });
});

/** The JSON texts of a YAML document's data, when it has data JSON can hold: indented, compact, with CRLF. */
function jsonTexts(content: Buffer): string[] {
  const stream = parseYamlStream(content, 'f.yaml');
  const data = stream.documents.length === 1 ? stream.documents[0]!.data : undefined;
  if (data === undefined) return [];
  let pretty: string;
  try {
    pretty = JSON.stringify(data, null, 2);
  } catch {
    return [];
  }
  return [pretty, JSON.stringify(data), pretty.replace(/\n/g, '\r\n'), `\n  ${pretty.replace(/\n/g, '\n  ')}\n`];
}

/** True when the JSON path read the text; its data must then be the full reader's, which must report nothing. */
function readsAsJson(text: string): boolean {
  const read = readYaml(text, 'f.json');
  if (read.documents[0]?.constructor.name !== 'FastDocument' || readFast(text).ok) return false;
  const full = parseYamlStream(text, 'f.json');
  expect(full.documents.flatMap((d) => d.diagnostics)).toEqual([]);
  expect(read.documents[0]!.data).toEqual(full.documents[0]!.data);
  return true;
}

describe('the fast path reads JSON files as the yaml reader does', () => {
  it('on the JSON form of every corpus document: the same data, verdicts, codes and positions', () => {
    const catalogue = createCatalogue();
    let json = 0;
    for (const { name, content } of corpus) {
      for (const text of jsonTexts(content)) {
        if (readsAsJson(text)) json += 1;
        const inputs: InputFile[] = [{ file: `${name}.json`, content: text, origin: 'argument' }];
        const { fast, full } = bothWays(() => lintInputs(inputs, catalogue));
        expect(reportOf(fast), name).toEqual(reportOf(full));
      }
    }
    expect(json).toBeGreaterThan(corpus.length);
  });

  // Written over several lines, which the YAML fast path leaves to the full reader.
  it.each([
    ['a repeated member', '{\n"a": 1,\n"a": 2\n}'],
    ['an escape', '{\n"a": "\\u0041"\n}'],
    ['a tab', '{\n\t"a": 1\n}'],
    ['an integer beyond 2^53', '{\n"a": 9007199254740993\n}'],
    ['a root list', '[\n{"a": 1}\n]'],
    ['a line over 1000 characters', `{\n"a": "${'x'.repeat(1000)}"\n}`],
    ['a syntax error', '{\n"a": 1,\n}'],
  ])('not on %s', (_name, text) => {
    expect(readFast(text).ok).toBe(false);
    expect(readYaml(text, 'f.json').documents[0]?.constructor.name ?? 'none').not.toBe('FastDocument');
  });

  it('on the same text without what sent it to the full reader', () => {
    expect(readsAsJson('{\n"a": 1,\n"b": "A"\n}')).toBe(true);
  });

  it('on generated profiles written as JSON (property)', () => {
    const catalogue = createCatalogue();
    let json = 0;
    fc.assert(
      fc.property(validProfile, fc.constantFrom(0, 1, 2, 4), (profile, indent) => {
        let text: string;
        try {
          text = JSON.stringify(profile, null, indent);
        } catch {
          return; // an integer beyond 2^53, which JSON cannot hold
        }
        if (readsAsJson(text)) json += 1;
        const inputs: InputFile[] = [{ file: 'cluster.json', content: text, origin: 'argument' }];
        const { fast, full } = bothWays(() => lintInputs(inputs, catalogue));
        expect(reportOf(fast)).toEqual(reportOf(full));
      }),
      { numRuns: 200 },
    );
    // Measured: about 45 of 200; indented texts span lines and take the JSON path unless they hold an escape, a tab or a big number.
    expect(json).toBeGreaterThanOrEqual(20);
  });
});
