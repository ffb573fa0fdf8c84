import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { clusterProfileJsonSchema } from '../../src/operations/cluster-profile-schema.js';
import { lintInputs } from '../../src/operations/lint.js';
import { LIFECYCLE_ANNOTATION } from '../../src/schema/keywords.js';
import { comparePlatformVersions, type Platform } from '../../src/schema/platform-version.js';
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
  return new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).addKeyword(LIFECYCLE_ANNOTATION).compile(schema);
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

// docs/platform.md: a schema narrowed to a platform and `kurel lint --platform` agree on what exists
// there. Definitions are generated with lifecycles on properties, nested properties, enum
// values and the whole capability; profiles write a spread of keys and values; platforms give
// versions at, around and between the bounds (1.9 against 1.10 included), or none at all.

/** Versions in ascending order, so bounds picked in index order are in lifecycle order. */
const VERSIONS = ['1.9', '1.10', '1.20', '1.29', '1.30', '1.31', '1.33'] as const;
/** Versions a platform may run: every bound, and versions just around them. */
const RUNNING = ['1.8', '1.9', '1.9.9', '1.10', '1.10.0', '1.19', '1.20', '1.29.5', '1.30', '1.30.0', '1.31', '1.32', '1.33', '1.40'] as const;
const COMPONENTS = ['kubernetes', 'gateway-api'] as const;
/** The whole capability follows a component of its own, so no property has to lie inside its window. */
const CAPABILITY_COMPONENT = 'istio';

type Lifecycle = Record<string, string>;

/** One to three bounds of one component, in order: introducedIn < deprecatedIn < removedIn. */
function lifecycleOf(component: string): fc.Arbitrary<Lifecycle> {
  return fc.subarray(['introducedIn', 'deprecatedIn', 'removedIn'], { minLength: 1 }).chain((bounds) =>
    fc.uniqueArray(fc.integer({ min: 0, max: VERSIONS.length - 1 }), { minLength: bounds.length, maxLength: bounds.length }).map((indexes) => {
      const sorted = [...indexes].sort((x, y) => x - y);
      const out: Lifecycle = {};
      bounds.forEach((bound, i) => {
        const version = VERSIONS[sorted[i]!]!;
        out[bound] = component === 'kubernetes' ? version : `${component} ${version}`;
      });
      if (bounds.includes('deprecatedIn') || bounds.includes('removedIn')) out['deprecationNote'] = 'use something else';
      return out;
    }),
  );
}

const otherComponent = (component: string | undefined) => (component === 'kubernetes' ? 'gateway-api' : 'kubernetes');

/** A lifecycle of some component, or none; `avoid` is a component the enclosing declaration follows. */
function maybeLifecycle(avoid?: string): fc.Arbitrary<{ component: string | undefined; keywords: Lifecycle }> {
  const components = avoid ? [otherComponent(avoid)] : [...COMPONENTS];
  return fc.oneof(
    fc.constant({ component: undefined, keywords: {} }),
    fc.constantFrom(...components).chain((component) => lifecycleOf(component).map((keywords) => ({ component, keywords }))),
  );
}

interface Generated {
  definition: Record<string, unknown>;
  /** What a profile may write for each property: valid values only. */
  values: Record<string, fc.Arbitrary<unknown>>;
}

const leaf: fc.Arbitrary<{ declaration: Record<string, unknown>; value: fc.Arbitrary<unknown> }> = fc.oneof(
  fc.record({ declaration: fc.constant({ type: 'integer', minimum: 0 }), value: fc.constant(fc.nat(5)) }),
  fc.record({ declaration: fc.constant({ type: 'boolean', default: false }), value: fc.constant(fc.boolean()) }),
  fc.record({ declaration: fc.constant({ type: 'string' }), value: fc.constant(fc.constantFrom('a', 'zone')) }),
);

/** A string enum whose values after the first may have lifecycles of their own (the first is the default). */
function enumProperty(avoid: string | undefined): fc.Arbitrary<{ declaration: Record<string, unknown>; value: fc.Arbitrary<unknown> }> {
  const values = ['Close', 'SameZone', 'SameNode'];
  return fc.tuple(maybeLifecycle(avoid), maybeLifecycle(avoid)).map(([zone, node]) => {
    const enumLifecycle: Record<string, Lifecycle> = {};
    if (zone.component) enumLifecycle['SameZone'] = zone.keywords;
    if (node.component) enumLifecycle['SameNode'] = node.keywords;
    return {
      declaration: { type: 'string', enum: values, default: 'Close', ...(Object.keys(enumLifecycle).length > 0 ? { enumLifecycle } : {}) },
      value: fc.constantFrom(...values),
    };
  });
}

function property(depth: number): fc.Arbitrary<{ declaration: Record<string, unknown>; value: fc.Arbitrary<unknown> }> {
  return maybeLifecycle().chain(({ component, keywords }) => {
    const inner = depth === 0 ? fc.oneof(leaf, enumProperty(component), objectProperty(component)) : fc.oneof(leaf, enumProperty(component));
    return inner.map(({ declaration, value }) => ({ declaration: { ...declaration, ...keywords }, value }));
  });
}

/** An object whose children follow the other component than their parent (so none has to lie inside its window). */
function objectProperty(component: string | undefined): fc.Arbitrary<{ declaration: Record<string, unknown>; value: fc.Arbitrary<unknown> }> {
  return fc.uniqueArray(fc.constantFrom('port', 'mode', 'ratio'), { minLength: 1, maxLength: 2 }).chain((names) =>
    fc.tuple(...names.map(() => maybeLifecycle(component ?? 'kubernetes').chain(({ keywords }) => leaf.map((l) => ({ ...l, keywords }))))).map((children) => {
      const properties: Record<string, unknown> = {};
      const values: Record<string, fc.Arbitrary<unknown>> = {};
      children.forEach((child, i) => {
        properties[names[i]!] = { ...child.declaration, ...child.keywords };
        values[names[i]!] = child.value;
      });
      return { declaration: { type: 'object', properties }, value: mapOfSome(values) };
    }),
  );
}

/** A map writing some of the keys given, each with one of its values (or null, which means absent). */
function mapOfSome(values: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(values).map(([key, value]) =>
    fc.option(fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) }), { nil: undefined }).map((v) => [key, v] as const),
  );
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)));
}

const generatedDefinition: fc.Arbitrary<Generated> = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom('tls', 'traffic', 'policy', 'proxy'), { minLength: 1, maxLength: 4 }),
    fc.option(lifecycleOf(CAPABILITY_COMPONENT), { nil: undefined }),
  )
  .chain(([names, capability]) =>
    fc.tuple(...names.map(() => property(0))).map((properties) => {
      const declared: Record<string, unknown> = { name: { type: 'string', required: true } };
      const values: Record<string, fc.Arbitrary<unknown>> = {};
      properties.forEach((p, i) => {
        declared[names[i]!] = p.declaration;
        values[names[i]!] = p.value;
      });
      return {
        definition: {
          apiVersion: 'launcher.gokure.dev/v1alpha1',
          kind: 'CapabilityDefinition',
          metadata: { name: 'generated' },
          spec: { ...(capability ?? {}), rendering: { properties: declared } },
        },
        values,
      };
    }),
  );

const generatedPlatform: fc.Arbitrary<Platform> = fc
  .record({ kubernetes: fc.constantFrom(...RUNNING), 'gateway-api': fc.constantFrom(...RUNNING), istio: fc.constantFrom(...RUNNING) }, { requiredKeys: [] })
  .map((platform) => platform as Platform);

describe('kurel lint --platform and the schema narrowed to the platform agree', () => {
  it('on every generated profile, for generated definitions with lifecycles, at a spread of versions', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).addKeyword(LIFECYCLE_ANNOTATION);
    const cases = generatedDefinition.chain((generated) =>
      fc.record({
        generated: fc.constant(generated),
        rendering: mapOfSome(generated.values).map((r) => ({ name: 'x', ...r })),
        platform: generatedPlatform,
      }),
    );
    let unavailableSeen = 0;
    let deprecatedSeen = 0;
    fc.assert(
      fc.property(cases, ({ generated, rendering, platform }) => {
        const loaded = lintInputs(
          [{ file: 'generated.yaml', content: JSON.stringify(generated.definition), origin: 'definition' }],
          createCatalogue({ builtins: false }),
        );
        expect(loaded.diagnostics).toEqual([]);
        const profile = {
          apiVersion: 'launcher.gokure.dev/v1alpha1',
          kind: 'ClusterProfile',
          metadata: { name: 'generated' },
          spec: { capabilities: { generated: { rendering } } },
        };
        const lint = lintInputs([{ file: 'cluster.yaml', content: JSON.stringify(profile, null, 2), origin: 'argument' }], loaded.catalogue, {
          platform: { overrides: platform },
        });
        const errors = lint.diagnostics.filter((d) => d.severity === 'error');
        // Generated values are valid; only the platform can make one fail.
        expect(errors.every((d) => d.code === 'field-unavailable')).toBe(true);
        const validate = ajv.compile(clusterProfileJsonSchema(loaded.catalogue, { platform }));
        const accepted = validate(profile);
        expect(accepted, `lint: ${JSON.stringify(errors)}; ajv: ${JSON.stringify(validate.errors)}`).toBe(errors.length === 0);
        if (errors.length > 0) unavailableSeen += 1;
        // A deprecated key lint warns about is marked deprecated in the narrowed schema.
        const schema = clusterProfileJsonSchema(loaded.catalogue, { platform });
        for (const warning of lint.diagnostics.filter((d) => d.code === 'field-deprecated')) {
          deprecatedSeen += 1;
          const marked = deprecatedAt(schema, warning.path.split('/').slice(5));
          if (marked !== 'value') expect(marked, warning.path).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
    // The generator reaches both verdicts and deprecations, so the agreement is not vacuous.
    expect(unavailableSeen).toBeGreaterThan(50);
    expect(deprecatedSeen).toBeGreaterThan(20);
  });
});

describe('kurel lint --platform and kurel schema --platform agree on the shipped example profiles', () => {
  const VERSIONS_RUN = ['1.21', '1.26', '1.27', '1.29', '1.30', '1.32', '1.33'];
  const EXAMPLES = profiles.filter((file) => file.includes('service-routing'));
  const verdicts = new Map<string, { lint: boolean; schema: boolean }>();

  beforeAll(async () => {
    await Promise.all(
      VERSIONS_RUN.map(async (version) => {
        const args = ['--definitions', 'definitions', '--platform', `kubernetes=${version}`];
        const [schema, lint] = await Promise.all([schemaOf(args), lintEach(EXAMPLES, args)]);
        const validate = compile(schema);
        for (const file of EXAMPLES) {
          const { data } = dataOf(readFileSync(join(ROOT, file), 'utf8'), file);
          verdicts.set(`${file} ${version}`, { lint: lint.get(file)!.every((d) => d.severity !== 'error'), schema: validate(data) });
        }
      }),
    );
  });

  it('holds the two example profiles', () => {
    expect(EXAMPLES).toEqual(['profiles/service-routing-1.28.yaml', 'profiles/service-routing-1.33.yaml']);
  });

  it.each(VERSIONS_RUN)('at kubernetes %s', (version) => {
    const at = (file: string) => verdicts.get(`${file} ${version}`)!;
    for (const file of EXAMPLES) expect(at(file).schema, file).toBe(at(file).lint);
    // 1.28's profile uses topologyMode (1.27); 1.33's uses trafficDistribution: PreferSameZone (1.33).
    expect(EXAMPLES.map((file) => at(file).lint)).toEqual([comparePlatformVersions(version, '1.27') >= 0, comparePlatformVersions(version, '1.33') >= 0]);
  });
});

/**
 * Whether the narrowed schema marks the rendering key at `keys` deprecated; `value` when the
 * warning is about an enum value (JSON Schema has no per-value mark; the description says it).
 * An empty path is the binding itself.
 */
function deprecatedAt(schema: object, keys: readonly string[]): boolean | 'value' {
  const defs = (schema as { $defs: Record<string, Record<string, unknown>> }).$defs;
  if (keys.length === 0) return defs['generated-binding']?.['deprecated'] === true;
  let node = defs['generated-rendering'] as Record<string, unknown> | undefined;
  for (const key of keys) {
    const properties = (node?.['properties'] ?? {}) as Record<string, Record<string, unknown>>;
    node = properties[key] ?? (node?.['anyOf'] as Record<string, unknown>[] | undefined)?.[0];
  }
  if (node && Array.isArray(node['enum'])) return node['deprecated'] === true ? true : 'value';
  return node?.['deprecated'] === true;
}
