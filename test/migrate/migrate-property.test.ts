import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { InputFile } from '../../src/core/input.js';
import { convertRendering, migrationChain } from '../../src/operations/convert-rendering.js';
import { lintInputs } from '../../src/operations/lint.js';
import { type MigrateReport, migrateInputs } from '../../src/operations/migrate.js';
import { propertyRuns } from '../helpers/property.js';
import { catalogueOf, chainOf } from './helpers.js';

// Generated definitions of `cache` with two to four versions (1.0.0 … 4.0.0): each version keeps,
// renames (renamedFrom) or removes each property of the one before, at the top and inside object
// properties, and may add new ones, with or without defaults. Generated profiles are valid at
// 1.0.0, written in block or flow style with comments above, on and after keys.

type PropertyType = 'string' | 'integer' | 'boolean' | 'object';
interface Property {
  name: string;
  type: PropertyType;
  fallback: unknown;
  renamedFrom: string | undefined;
  children: Property[];
}

const VALUES: Record<Exclude<PropertyType, 'object'>, readonly unknown[]> = { string: ['1Gi', 'redis:7', 'a b'], integer: [1, 6380], boolean: [true, false] };
const VERSIONS = ['1.0.0', '2.0.0', '3.0.0', '4.0.0'];

/** Choices read in order; generated as numbers so that fast-check can shrink them. */
class Choices {
  private at = 0;
  constructor(private readonly values: readonly number[]) {}
  next(range: number): number {
    const value = this.values[this.at % this.values.length]! % range;
    this.at += 1;
    return value;
  }
}

/** Fresh property names: never reused, so no rename can collide with another property. */
class Names {
  private count = 0;
  next(): string {
    this.count += 1;
    return `p${this.count}`;
  }
}

function newProperty(choices: Choices, names: Names, depth: number): Property {
  const types: PropertyType[] = depth === 0 ? ['string', 'integer', 'boolean', 'object'] : ['string', 'integer', 'boolean'];
  const type = types[choices.next(types.length)]!;
  const children = type === 'object' ? Array.from({ length: 1 + choices.next(3) }, () => newProperty(choices, names, depth + 1)) : [];
  const fallback = type !== 'object' && choices.next(2) === 0 ? VALUES[type][choices.next(VALUES[type].length)] : undefined;
  return { name: names.next(), type, fallback, renamedFrom: undefined, children };
}

/** The next version's properties: each one kept, renamed or removed, and maybe a new one. */
function evolve(properties: readonly Property[], choices: Choices, names: Names, depth: number): Property[] {
  const out: Property[] = [];
  for (const property of properties) {
    const fate = choices.next(10);
    const children = property.type === 'object' ? evolve(property.children, choices, names, depth + 1) : [];
    if (fate < 6) out.push({ ...property, renamedFrom: undefined, children });
    else if (fate < 9) out.push({ ...property, name: names.next(), renamedFrom: property.name, children });
    // else: removed
  }
  if (choices.next(3) === 0) out.push(newProperty(choices, names, depth));
  return out;
}

function declaration(property: Property): string {
  const parts = [`type: ${property.type}`];
  if (property.fallback !== undefined) parts.push(`default: ${JSON.stringify(property.fallback)}`);
  if (property.renamedFrom !== undefined) parts.push(`renamedFrom: ${property.renamedFrom}`);
  if (property.type === 'object') parts.push(`properties: {${property.children.map((c) => `${c.name}: ${declaration(c)}`).join(', ')}}`);
  return `{${parts.join(', ')}}`;
}

function definitionText(version: string, properties: readonly Property[]): string {
  return [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: CapabilityDefinition',
    'metadata:',
    '  name: cache',
    'spec:',
    `  version: ${version}`,
    '  rendering:',
    '    properties:',
    '      image: {type: string, required: true}',
    ...properties.map((p) => `      ${p.name}: ${declaration(p)}`),
    '',
  ].join('\n');
}

/** A value for each property the rendering sets (a subset of the first version's). */
interface Setting {
  name: string;
  value: unknown;
  children: Setting[];
  flow: boolean;
  comment: string | undefined;
  above: boolean;
}

function settingsOf(properties: readonly Property[], choices: Choices): Setting[] {
  const out: Setting[] = [];
  for (const property of properties) {
    if (choices.next(4) === 0) continue;
    const values = property.type === 'object' ? [] : VALUES[property.type];
    out.push({
      name: property.name,
      value: property.type === 'object' ? undefined : values[choices.next(values.length)],
      children: property.type === 'object' ? settingsOf(property.children, choices) : [],
      flow: choices.next(3) === 0,
      comment: choices.next(2) === 0 ? `about ${property.name}` : undefined,
      above: choices.next(3) === 0,
    });
  }
  return out;
}

function scalar(value: unknown): string {
  if (typeof value !== 'string') return String(value);
  return value.includes(' ') ? `"${value}"` : value;
}

function flowMap(settings: readonly Setting[]): string {
  return `{${settings.map((s) => `${s.name}: ${s.value === undefined ? flowMap(s.children) : scalar(s.value)}`).join(', ')}}`;
}

function blockLines(settings: readonly Setting[], indent: string, out: string[]): void {
  for (const s of settings) {
    if (s.above) out.push(`${indent}# set by the platform team`);
    const trailing = s.comment === undefined ? '' : `   # ${s.comment}`;
    if (s.value !== undefined) out.push(`${indent}${s.name}: ${scalar(s.value)}${trailing}`);
    else if (s.flow || s.children.length === 0) out.push(`${indent}${s.name}: ${flowMap(s.children)}${trailing}`);
    else {
      out.push(`${indent}${s.name}:${trailing}`);
      blockLines(s.children, `${indent}  `, out);
    }
  }
}

function profileText(settings: readonly Setting[], flow: boolean): string {
  const rendering = [{ name: 'image', value: 'redis:7', children: [], flow: false, comment: 'pinned for a CVE', above: false }, ...settings];
  const lines = [
    '# the cache of prod',
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: ClusterProfile',
    'metadata:',
    '  name: prod',
    'spec:',
    '  capabilities:',
    '    cache:',
  ];
  lines.push('      version: "1.0.0"   # the version we tested');
  if (flow) lines.push(`      rendering: ${flowMap(rendering)}`);
  else {
    lines.push('      rendering:');
    blockLines(rendering, '        ', lines);
  }
  lines.push('    expose: {rendering: {controllerType: ingress, ingressClassName: nginx}}   # after the cache', '');
  return lines.join('\n');
}

interface Case {
  definitions: Record<string, string>;
  versions: string[];
  profile: string;
  /** Names of every property some version renames or removes (their lines may change). */
  moving: Set<string>;
}

const cases: fc.Arbitrary<Case> = fc
  .record({ versions: fc.integer({ min: 2, max: 4 }), choices: fc.array(fc.nat(1000), { minLength: 40, maxLength: 120 }), flow: fc.boolean() })
  .map(({ versions, choices: values, flow }) => {
    const choices = new Choices(values);
    const names = new Names();
    const history: Property[][] = [Array.from({ length: 1 + choices.next(4) }, () => newProperty(choices, names, 0))];
    for (let i = 1; i < versions; i++) history.push(evolve(history[i - 1]!, choices, names, 0));
    const definitions = Object.fromEntries(history.map((properties, i) => [`defs/cache-${VERSIONS[i]}.yaml`, definitionText(VERSIONS[i]!, properties)]));
    const present = (properties: readonly Property[]): string[] => properties.flatMap((p) => [p.name, ...present(p.children)]);
    const everyName = new Set(history.flatMap(present));
    const lastNames = new Set(present(history[history.length - 1]!));
    const moving = new Set([...everyName].filter((name) => !lastNames.has(name) || history.some((h) => !present(h).includes(name))));
    return { definitions, versions: VERSIONS.slice(0, versions), profile: profileText(settingsOf(history[0]!, choices), flow), moving };
  });

function run(profile: string, definitions: Record<string, string>, version: string, lossy = false): MigrateReport {
  const inputs: InputFile[] = [
    { file: 'prod.yaml', content: profile, origin: 'argument' },
    ...Object.entries(definitions).map(([file, content]): InputFile => ({ file, content, origin: 'definition' })),
  ];
  return migrateInputs(inputs, createCatalogue(), [{ name: 'cache', version }], { lossy });
}

function errorsOf(report: { diagnostics: readonly { severity: string }[] }) {
  return report.diagnostics.filter((d) => d.severity === 'error');
}

function lint(profile: string, definitions: Record<string, string>) {
  return lintInputs(
    [
      { file: 'prod.yaml', content: profile, origin: 'argument' },
      ...Object.entries(definitions).map(([file, content]): InputFile => ({ file, content, origin: 'definition' })),
    ],
    createCatalogue(),
  );
}

function renderingOf(text: string): unknown {
  return (parse(text) as { spec: { capabilities: { cache: { rendering: unknown } } } }).spec.capabilities.cache.rendering;
}

/** True when `lines` holds `wanted` in order, other lines between allowed. */
function isSubsequence(wanted: readonly string[], lines: readonly string[]): boolean {
  let at = 0;
  for (const line of lines) if (at < wanted.length && line === wanted[at]) at += 1;
  return at === wanted.length;
}

const RUNS = { numRuns: propertyRuns(30) };

describe('kurel migrate, for generated definitions and profiles valid at their first version', () => {
  it('writes a file that lints clean at the target whenever it reports no error, and reads as the migrated data', () => {
    fc.assert(
      fc.property(cases, fc.nat(3), fc.boolean(), ({ definitions, versions, profile }, pick, lossy) => {
        expect(errorsOf(lint(profile, definitions))).toEqual([]);
        const target = versions[pick % versions.length]!;
        const report = run(profile, definitions, target, lossy);
        const after = report.files[0]!.after;
        const catalogue = catalogueOf(definitions);
        const converted = convertRendering(
          renderingOf(profile) as Record<string, unknown>,
          chainOf(catalogue, migrationChain(versions, '1.0.0', target), 'cache'),
        );
        expect(renderingOf(after)).toEqual(converted.rendering);
        if (errorsOf(report).length === 0) expect(errorsOf(lint(after, definitions))).toEqual([]);
        else expect(lossy).toBe(false);
      }),
      RUNS,
    );
  });

  it('changes nothing when a file is migrated to the version it is at, or a migrated file again to the same version', () => {
    fc.assert(
      fc.property(cases, fc.nat(3), ({ definitions, versions, profile }, pick) => {
        expect(run(profile, definitions, '1.0.0').files[0]!).toMatchObject({ changed: false, after: profile });
        const target = versions[pick % versions.length]!;
        const once = run(profile, definitions, target, true).files[0]!.after;
        const twice = run(once, definitions, target, true);
        expect(twice.files[0]!).toMatchObject({ changed: false, after: once });
      }),
      RUNS,
    );
  });

  it('gives back the exact text when migrated there and back without a loss', () => {
    fc.assert(
      fc.property(cases, fc.nat(3), ({ definitions, versions, profile }, pick) => {
        const target = versions[1 + (pick % (versions.length - 1))]!;
        const there = run(profile, definitions, target);
        fc.pre(!there.diagnostics.some((d) => d.code === 'migration-lossy'));
        const back = run(there.files[0]!.after, definitions, '1.0.0');
        fc.pre(!back.diagnostics.some((d) => d.code === 'migration-lossy'));
        expect(back.files[0]!.after).toBe(profile);
      }),
      RUNS,
    );
  });

  it('leaves every line that holds no renamed or removed key, and no version, as it was', () => {
    fc.assert(
      fc.property(cases, fc.nat(3), ({ definitions, versions, profile, moving }, pick) => {
        const target = versions[pick % versions.length]!;
        // A block map that loses every key is written `{}` after its key (text-edits.ts): its line differs by that alone.
        const withoutEmptyMap = (line: string) => line.replace(/^(\s*[\w-]+:) \{\}(?=\s|$)/, '$1');
        const after = run(profile, definitions, target, true).files[0]!.after.split('\n').map(withoutEmptyMap);
        const mentions = (line: string) =>
          line.includes('version:') || line.trimStart().startsWith('#') || [...moving].some((name) => new RegExp(`\\b${name}\\b`).test(line));
        expect(
          isSubsequence(
            profile
              .split('\n')
              .filter((line) => !mentions(line))
              .map(withoutEmptyMap),
            after,
          ),
        ).toBe(true);
      }),
      RUNS,
    );
  });
});
