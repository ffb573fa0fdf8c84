import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseYamlStream } from '../../src/yaml/source.js';
import { type JsonEnvelope, runKurel } from '../helpers/cli.js';

// The published schema and `kurel lint` must give the same verdict on every profile below.
// Each bad profile names what lint reports in its first lines, one `# expect: <code> <JSON
// Pointer>` line per mistake: most hold one mistake; those named `*-and-more` hold several, so
// that one mistake is seen not to hide the next (issue 16, defect 2). Each good profile is valid but sits on an edge the
// schema must get right (null for an optional key, empty bindings, scoped keys).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BAD_DIR = 'test/schema/bad-profiles';
const GOOD_DIR = 'test/schema/good-profiles';

/**
 * The rules JSON Schema cannot say, by bad profile, with the reason. They live in the YAML
 * text or in the reader's limits, never in the data a schema judges; the test checks that the
 * schema indeed accepts what the parser recovers (or that there is no document at all).
 */
const NOT_IN_SCHEMA: Record<string, string> = {
  'duplicate-key': 'a repeated key exists only in the YAML text; the parsed document holds one value for it',
  'second-document': 'a schema judges one document; a second document is a property of the file',
  'empty-file': 'an empty or comments-only file holds no document for a schema to judge',
  'yaml-syntax': 'text that is not YAML yields no data for a schema to judge',
  'non-string-key': 'JSON has only string keys: the YAML key 80 reaches a schema as the string "80"',
  'too-deep': 'the nesting limit protects the reader; JSON Schema has no keyword for depth',
  'alias-bomb': 'alias expansion is a limit of the YAML reader; JSON has no aliases',
  // file-too-large is a reader limit of the same kind; a 16 MiB case does not belong in the repository.
};

interface Case {
  name: string;
  file: string;
  text: string;
}

function casesIn(dir: string): Case[] {
  return readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ name: f.replace(/\.yaml$/, ''), file: `${dir}/${f}`, text: readFileSync(join(ROOT, dir, f), 'utf8') }));
}

interface Expectation {
  code: string;
  path: string;
}

function expectationsOf(c: Case): Expectation[] {
  const found: Expectation[] = [];
  const pattern = /# expect: (\S+) ?(\S*)\n/y;
  for (let match = pattern.exec(c.text); match; match = pattern.exec(c.text)) found.push({ code: match[1]!, path: match[2]! });
  if (found.length === 0) throw new Error(`${c.file} must start with "# expect: <code> <path>"`);
  return found;
}

function expectationOf(c: Case): Expectation {
  return expectationsOf(c)[0]!;
}

function dataOf(text: string, file: string): { hasDocument: boolean; data: unknown } {
  const document = parseYamlStream(text, file).documents[0];
  return document === undefined || document.data === undefined || document.isEmpty
    ? { hasDocument: false, data: undefined }
    : { hasDocument: true, data: document.data };
}

/** Where an ajv error points, as a JSON Pointer (a missing or extra key: that key's pointer). */
function locate(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const key = params['missingProperty'] ?? params['additionalProperty'] ?? params['propertyName'];
  return typeof key === 'string' ? `${error.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` : error.instancePath;
}

function ancestorsOrSelf(pointer: string): string[] {
  const parts = pointer.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

function compile(schema: object): ValidateFunction {
  // strict: the published schema must also be clean for ajv's strictest reading.
  return new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
}

async function schemaOf(args: readonly string[]): Promise<object> {
  const run = await runKurel(['schema', ...args], { cwd: ROOT });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as object;
}

async function lintEach(files: readonly string[], args: readonly string[] = []): Promise<Map<string, JsonEnvelope['diagnostics']>> {
  const run = await runKurel(['lint', '--format', 'json', ...args, ...files], { cwd: ROOT });
  const envelope = JSON.parse(run.stdout) as JsonEnvelope;
  const byFile = new Map<string, JsonEnvelope['diagnostics']>(files.map((f) => [f, []]));
  for (const d of envelope.diagnostics) byFile.get(d.file)?.push(d);
  return byFile;
}

const bad = casesIn(BAD_DIR);
const good = casesIn(GOOD_DIR);
const profiles = readdirSync(join(ROOT, 'profiles'))
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()
  .map((f) => `profiles/${f}`);

let builtinValidator: ValidateFunction;
let withDefinitionsValidator: ValidateFunction;
let lintOfCorpus: Map<string, JsonEnvelope['diagnostics']>;
let lintOfProfiles: Map<string, JsonEnvelope['diagnostics']>;

beforeAll(async () => {
  const [builtin, withDefinitions, corpus, shipped] = await Promise.all([
    schemaOf([]),
    schemaOf(['--definitions', 'definitions']),
    lintEach([...bad, ...good].map((c) => c.file)),
    lintEach(profiles, ['--definitions', 'definitions']),
  ]);
  builtinValidator = compile(builtin);
  withDefinitionsValidator = compile(withDefinitions);
  lintOfCorpus = corpus;
  lintOfProfiles = shipped;
});

describe('the bad-profile corpus', () => {
  it('holds at least 40 profiles, each with one mistake, covering every rule of the profile and every built-in with rules', () => {
    expect(bad.length).toBeGreaterThanOrEqual(40);
    const paths = bad.map((c) => expectationOf(c).path);
    for (const capability of ['expose', 'certificate', 'external-secret', 'pvc', 'volsync', 'configmap', 'networkpolicy', 'cilium-networkpolicy']) {
      expect(
        paths.some((p) => p.startsWith(`/spec/capabilities/${capability}`)),
        capability,
      ).toBe(true);
    }
    const codes = new Set(bad.map((c) => expectationOf(c).code));
    for (const code of ['unknown-field', 'missing-required', 'wrong-type', 'invalid-value', 'invalid-key', 'field-not-allowed']) {
      expect(codes.has(code), code).toBe(true);
    }
  });

  it('lists only rules that have a bad profile here', () => {
    expect(Object.keys(NOT_IN_SCHEMA).filter((name) => !bad.some((c) => c.name === name))).toEqual([]);
  });
});

describe('kurel lint and the published schema agree', () => {
  const sayable = bad.filter((c) => !(c.name in NOT_IN_SCHEMA));
  const unsayable = bad.filter((c) => c.name in NOT_IN_SCHEMA);

  it.each(sayable.map((c) => [c.name, c] as const))('both reject %s, for the same mistakes', (_name, c) => {
    const expected = expectationsOf(c);
    const errors = lintOfCorpus.get(c.file)!.filter((d) => d.severity === 'error');
    expect(errors.map((d) => ({ code: d.code, path: d.path }))).toEqual(expected);

    const { hasDocument, data } = dataOf(c.text, c.file);
    expect(hasDocument).toBe(true);
    expect(builtinValidator(data)).toBe(false);
    // The schema refuses it at each mistake (or at a node holding it), not for some other reason.
    const located = (builtinValidator.errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'if').map(locate);
    for (const { path } of expected) {
      const allowed = new Set(ancestorsOrSelf(path).filter((p) => p !== '' || path === ''));
      expect(
        located.some((p) => allowed.has(p)),
        `${path}: ajv errors at ${located.join(', ')}`,
      ).toBe(true);
    }
  });

  it('holds profiles with several mistakes behind a discriminator that names no branch', () => {
    const several = bad.filter((c) => expectationsOf(c).length > 1).map((c) => c.name);
    expect(several).toEqual(expect.arrayContaining(['expose-controller-type-missing-and-more', 'expose-controller-type-unknown-and-more']));
  });

  it.each(unsayable.map((c) => [c.name, c] as const))('lint rejects %s, which the schema cannot see', (name, c) => {
    const expected = expectationOf(c);
    const errors = lintOfCorpus.get(c.file)!.filter((d) => d.severity === 'error');
    expect(errors.map((d) => ({ code: d.code, path: d.path }))).toEqual([expected]);
    expect(NOT_IN_SCHEMA[name]).toMatch(/\S/);

    const { hasDocument, data } = dataOf(c.text, c.file);
    if (hasDocument) expect(builtinValidator(data), JSON.stringify(builtinValidator.errors)).toBe(true);
  });

  it.each(good.map((c) => [c.name, c] as const))('both accept %s', (_name, c) => {
    expect(lintOfCorpus.get(c.file)!.filter((d) => d.severity === 'error')).toEqual([]);
    const { data } = dataOf(c.text, c.file);
    expect(builtinValidator(data), JSON.stringify(builtinValidator.errors)).toBe(true);
  });
});

describe('the profiles kurel ships', () => {
  it('are there to check', () => {
    expect(profiles.length).toBeGreaterThan(0);
  });

  it.each(profiles)('%s lints clean and validates against both published schemas', (file) => {
    expect(lintOfProfiles.get(file)!.filter((d) => d.severity === 'error')).toEqual([]);
    const { data } = dataOf(readFileSync(join(ROOT, file), 'utf8'), file);
    expect(builtinValidator(data), JSON.stringify(builtinValidator.errors)).toBe(true);
    expect(withDefinitionsValidator(data), JSON.stringify(withDefinitionsValidator.errors)).toBe(true);
  });
});
