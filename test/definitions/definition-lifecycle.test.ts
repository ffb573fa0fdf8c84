import { describe, expect, it } from 'vitest';
import { definition, errorAt, load, pinned, prop, warningAt } from './helpers.js';

// docs/platform.md: the load-time rules of lifecycle keywords. Property text line
// n lands on definition line 7 + n, column c on column 6 + c (see definition()).
const FILE = 'defs/cap.yaml';
const loadOne = (properties: string, name?: string) => load({ [FILE]: definition(properties, name) });
const messages = (properties: string) => loadOne(properties).report.diagnostics.map((d) => d.message);
const hints = (properties: string) => loadOne(properties).report.diagnostics.map((d) => d.hint);

/** A definition with lifecycle keywords in `spec` (lines 6 on) and one property `tls` (line 11 on). */
function withSpec(specLines: string, tls = '{type: boolean}'): string {
  return `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: my-trait
spec:
${specLines}
  rendering:
    properties:
      tls: ${tls}
`;
}

describe('lifecycle keywords that load', () => {
  it('loads lifecycles on properties at any depth, on enum values and on the whole capability, into the compiled schema', () => {
    const loaded = load({
      [FILE]: withSpec(
        '  introducedIn: "1.20"\n  deprecatedIn: "1.40"\n  deprecationNote: use other-trait',
        `
        type: object
        introducedIn: "1.29"
        properties:
          mode:
            type: string
            enum: [a, b]
            enumLifecycle: {b: {introducedIn: "1.31", deprecatedIn: "1.33", removedIn: "1.35", deprecationNote: use a}}
            removedIn: "1.36"
          proxy: {type: string, introducedIn: "gateway-api 1.1"}`,
      ),
    });
    expect(pinned(loaded)).toEqual([]);
    const schema = loaded.registry.definition('my-trait')!.schema;
    expect({ introducedIn: schema['introducedIn'], deprecatedIn: schema['deprecatedIn'], deprecationNote: schema['deprecationNote'] }).toEqual({
      introducedIn: '1.20',
      deprecatedIn: '1.40',
      deprecationNote: 'use other-trait',
    });
    const tls = schema.properties!['tls']!;
    expect(tls['introducedIn']).toBe('1.29');
    expect(tls.properties!['mode']).toMatchObject({
      removedIn: '1.36',
      enumLifecycle: { b: { introducedIn: '1.31', deprecatedIn: '1.33', removedIn: '1.35', deprecationNote: 'use a' } },
    });
    expect(tls.properties!['proxy']).toMatchObject({ introducedIn: 'gateway-api 1.1' });
  });

  it('allows deprecatedIn on a required property, which can still be written', () => {
    expect(pinned(loadOne('mode:\n  type: string\n  required: true\n  deprecatedIn: "1.30"'))).toEqual([]);
  });

  it('allows a child to follow another component than its parent', () => {
    expect(pinned(loadOne('tls:\n  type: object\n  introducedIn: "1.29"\n  properties:\n    proxy: {type: string, introducedIn: "gateway-api 1.0"}'))).toEqual(
      [],
    );
  });
});

describe('definition-invalid: lifecycle versions that do not parse', () => {
  it.each([
    ['a leading v', 'v1.29', 'write "1.29"'],
    ['a suffix', '1.29.0-beta.1', 'write "1.29.0"'],
    ['a component without a space', 'gateway-api=1.1', 'write "gateway-api 1.1"'],
    ['an uppercase component', 'Gateway-API 1.1', 'write "gateway-api 1.1"'],
    ['one part', '1', 'write a Kubernetes version such as "1.29", or a component, one space and its version such as "gateway-api 1.1"'],
  ])('reports %s at the value, with the accepted form', (_name, version, hint) => {
    const text = `tls:\n  type: boolean\n  introducedIn: "${version}"`;
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 10, 23, prop('tls', 'introducedIn'))]);
    expect(messages(text)).toEqual([
      `tls.introducedIn must be a Kubernetes version such as "1.29", or a component and its version such as "gateway-api 1.1", found string ${JSON.stringify(version)}`,
    ]);
    expect(hints(text)).toEqual([hint]);
  });

  it('reports a version YAML reads as a number as wrong-type, quoting it as written', () => {
    const text = 'tls:\n  type: boolean\n  removedIn: 1.30';
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 10, 20, prop('tls', 'removedIn'))].map((e) => ({ ...e, code: 'wrong-type' })));
    expect(hints(text)).toEqual(['quote it: "1.30"']);
  });

  it('quotes a number in the whole capability and in enumLifecycle as written too', () => {
    const spec = load({ [FILE]: withSpec('  deprecatedIn: 1.10') });
    expect(spec.report.diagnostics.map((d) => [d.code, d.line, d.column, d.path, d.hint])).toEqual([
      ['wrong-type', 6, 17, '/spec/deprecatedIn', 'quote it: "1.10"'],
    ]);
    const perValue = loadOne('mode:\n  type: string\n  enum: [a, b]\n  enumLifecycle: {b: {introducedIn: 1.20}}');
    expect(perValue.report.diagnostics.map((d) => [d.code, d.line, d.column, d.path, d.hint])).toEqual([
      ['wrong-type', 11, 43, prop('mode', 'enumLifecycle', 'b', 'introducedIn'), 'quote it: "1.20"'],
    ]);
  });

  it('reports a malformed capability version in spec', () => {
    const loaded = load({ [FILE]: withSpec('  introducedIn: "v1.29"') });
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 6, 17, '/spec/introducedIn')]);
    expect(loaded.report.diagnostics[0]?.message).toMatch(/^the capability\.introducedIn must be /);
  });
});

describe('definition-invalid: bounds out of order', () => {
  it.each([
    [
      'deprecatedIn before introducedIn',
      'introducedIn: "1.30"\n  deprecatedIn: "1.29"',
      11,
      'deprecatedIn',
      'tls.deprecatedIn 1.29 must be later than tls.introducedIn 1.30: introducedIn < deprecatedIn < removedIn',
    ],
    [
      'removedIn equal to introducedIn',
      'introducedIn: "1.30"\n  removedIn: "1.30.0"',
      11,
      'removedIn',
      'tls.removedIn 1.30.0 must be later than tls.introducedIn 1.30: introducedIn < deprecatedIn < removedIn',
    ],
    [
      'removedIn before deprecatedIn, 1.9 against 1.10',
      'deprecatedIn: "1.10"\n  removedIn: "1.9"',
      11,
      'removedIn',
      'tls.removedIn 1.9 must be later than tls.deprecatedIn 1.10: introducedIn < deprecatedIn < removedIn',
    ],
  ])('reports %s at the later bound', (_name, lines, line, keyword, message) => {
    const text = `tls:\n  type: boolean\n  ${lines}`;
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', line, 9 + keyword.length + 2, prop('tls', keyword))]);
    expect(messages(text)).toEqual([message]);
  });

  it('reports bounds of two components on one property', () => {
    const text = 'tls:\n  type: boolean\n  introducedIn: "1.29"\n  removedIn: "gateway-api 1.2"';
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 11, 20, prop('tls', 'removedIn'))]);
    expect(messages(text)).toEqual(['tls.removedIn names gateway-api but tls.introducedIn names kubernetes: one lifecycle follows one component']);
  });

  it('reports an enum value whose bounds are out of order', () => {
    const text = 'mode:\n  type: string\n  enum: [a, b]\n  enumLifecycle:\n    b: {introducedIn: "1.31", removedIn: "1.30"}';
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 12, 48, prop('mode', 'enumLifecycle', 'b', 'removedIn'))]);
    expect(messages(text)).toEqual([
      'mode value "b".removedIn 1.30 must be later than mode value "b".introducedIn 1.31: introducedIn < deprecatedIn < removedIn',
    ]);
  });
});

describe("definition-invalid: a window outside its parent's", () => {
  it.each([
    ['introduced before its parent', 'introducedIn: "1.28"', 'introducedIn', 46],
    ['removed after its parent', 'removedIn: "1.34"', 'removedIn', 43],
    ['introduced when its parent is removed', 'introducedIn: "1.33"', 'introducedIn', 46],
    ['removed when its parent is introduced', 'removedIn: "1.29"', 'removedIn', 43],
    ['deprecated when its parent is removed', 'deprecatedIn: "1.33"', 'deprecatedIn', 46],
  ])('reports a child %s at the child bound', (_name, bound, keyword, column) => {
    const text = `tls:\n  type: object\n  introducedIn: "1.29"\n  removedIn: "1.33"\n  properties:\n    mode: {type: string, ${bound}}`;
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 13, column, prop('tls', 'properties', 'mode', keyword))]);
  });

  it('says whose window the child leaves', () => {
    expect(messages('tls:\n  type: object\n  introducedIn: "1.29"\n  properties:\n    mode: {type: string, introducedIn: "1.28"}')).toEqual([
      'tls.mode.introducedIn 1.28 lies outside tls (introduced in Kubernetes 1.29): a key exists only while what holds it exists',
    ]);
  });

  it('inherits the window of a grandparent through a parent without a lifecycle', () => {
    const text =
      'tls:\n  type: object\n  removedIn: "1.30"\n  properties:\n    client:\n      type: object\n      properties:\n        mode: {type: string, removedIn: "1.31"}';
    expect(pinned(loadOne(text))).toEqual([
      errorAt(FILE, 'definition-invalid', 15, 47, prop('tls', 'properties', 'client', 'properties', 'mode', 'removedIn')),
    ]);
  });

  it("reports a property outside the whole capability's window", () => {
    const loaded = load({ [FILE]: withSpec('  introducedIn: "1.29"', '{type: boolean, introducedIn: "1.27"}') });
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 9, 42, prop('tls', 'introducedIn'))]);
    expect(loaded.report.diagnostics[0]?.message).toBe(
      'tls.introducedIn 1.27 lies outside the capability (introduced in Kubernetes 1.29): a key exists only while what holds it exists',
    );
  });

  it("reports an enum value outside its property's window", () => {
    const text = 'mode:\n  type: string\n  introducedIn: "1.30"\n  enum: [a, b]\n  enumLifecycle:\n    b: {introducedIn: "1.29"}';
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 13, 29, prop('mode', 'enumLifecycle', 'b', 'introducedIn'))]);
  });
});

describe('definition-invalid: a lifecycle on a required property', () => {
  it.each([
    ['introducedIn', 'introducedIn: "1.29"'],
    ['removedIn', 'removedIn: "1.35"'],
  ])('reports %s at the keyword', (keyword, bound) => {
    const text = `mode:\n  type: string\n  required: true\n  ${bound}`;
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 11, 9, prop('mode', keyword))]);
    expect(messages(text)).toEqual([
      `mode is required, so it cannot have ${keyword}: a required key must be written on every version; make it optional, or publish a new definition version`,
    ]);
  });
});

describe('definition-invalid: enumLifecycle', () => {
  it('reports a key that is not a value of the enum, at the key, with did-you-mean', () => {
    const text = 'mode:\n  type: string\n  enum: [PreferClose, PreferSameZone]\n  enumLifecycle:\n    PreferSameZon: {introducedIn: "1.33"}';
    const loaded = loadOne(text);
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 12, 11, prop('mode', 'enumLifecycle', 'PreferSameZon'))]);
    expect(loaded.report.diagnostics.map((d) => [d.message, d.hint])).toEqual([
      ['mode.enumLifecycle names "PreferSameZon", which is not a value of mode.enum ("PreferClose" or "PreferSameZone")', 'did you mean PreferSameZone?'],
    ]);
  });

  it('reports enumLifecycle on a type other than string as a keyword that does not fit', () => {
    expect(pinned(loadOne('port:\n  type: integer\n  enum: [80, 443]\n  enumLifecycle: {}'))).toEqual([
      errorAt(FILE, 'definition-invalid', 11, 9, prop('port', 'enumLifecycle')),
    ]);
  });

  it('reports enumLifecycle on a string without enum', () => {
    const text = 'mode:\n  type: string\n  enumLifecycle: {a: {introducedIn: "1.30"}}';
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 10, 9, prop('mode', 'enumLifecycle'))]);
    expect(messages(text)).toEqual(['enumLifecycle on mode needs a string enum: it gives single values of enum their own lifecycle']);
  });

  it('reports an unknown keyword in an entry as unknown-field', () => {
    const loaded = loadOne('mode:\n  type: string\n  enum: [a]\n  enumLifecycle: {a: {introducedin: "1.30"}}');
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'unknown-field', 11, 29, prop('mode', 'enumLifecycle', 'a', 'introducedin'))]);
    expect(loaded.report.diagnostics[0]?.hint).toBe('did you mean introducedIn?');
  });

  it("reports a default whose value exists for less long than its property's", () => {
    const text = 'mode:\n  type: string\n  enum: [a, b]\n  default: b\n  enumLifecycle: {b: {introducedIn: "1.33"}}';
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 11, 18, prop('mode', 'default'))]);
  });

  it('accepts a default value that is deprecated, which still exists', () => {
    expect(pinned(loadOne('mode:\n  type: string\n  enum: [a, b]\n  default: b\n  enumLifecycle: {b: {deprecatedIn: "1.33"}}'))).toEqual([]);
  });
});

describe('definition-invalid: lifecycles that mean nothing where they are', () => {
  it('reports a note with neither deprecatedIn nor removedIn at the note', () => {
    const text = 'tls:\n  type: boolean\n  introducedIn: "1.29"\n  deprecationNote: use mtls';
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 11, 9, prop('tls', 'deprecationNote'))]);
  });

  it.each([
    ['list items', 'ports:\n  type: array\n  items:\n    type: integer\n    introducedIn: "1.30"', prop('ports', 'items', 'introducedIn')],
    [
      'undeclared keys',
      'labels:\n  type: object\n  additionalProperties:\n    type: string\n    removedIn: "1.30"',
      prop('labels', 'additionalProperties', 'removedIn'),
    ],
  ])('reports a lifecycle on %s at the keyword', (_name, text, path) => {
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 12, 11, path)]);
  });

  it('allows enumLifecycle on the items of a list of strings', () => {
    expect(pinned(loadOne('modes:\n  type: array\n  items:\n    type: string\n    enum: [a, b]\n    enumLifecycle: {b: {introducedIn: "1.30"}}'))).toEqual([]);
  });
});

describe('definitions of one name that differ in lifecycle', () => {
  const DEFS = 'defs';
  const a = definition('tls:\n  type: boolean\n  deprecatedIn: "1.30"\n  deprecationNote: use mtls');
  it('are duplicates when only the deprecation note differs, like descriptions', () => {
    const loaded = load({ [`${DEFS}/a.yaml`]: a, [`${DEFS}/b.yaml`]: a.replace('use mtls', 'use mtls, see the runbook') });
    expect(pinned(loaded)).toEqual([warningAt(`${DEFS}/b.yaml`, 'definition-duplicate', 4, 9, '/metadata/name')]);
  });

  it('conflict when a bound differs, at the first differing path', () => {
    const loaded = load({ [`${DEFS}/a.yaml`]: a, [`${DEFS}/b.yaml`]: a.replace('"1.30"', '"1.31"') });
    expect(pinned(loaded)).toEqual([errorAt(`${DEFS}/b.yaml`, 'definition-conflict', 10, 9, prop('tls', 'deprecatedIn'))]);
  });

  it("conflict when the whole capability's lifecycle differs, at spec", () => {
    const loaded = load({ [`${DEFS}/a.yaml`]: withSpec('  introducedIn: "1.20"'), [`${DEFS}/b.yaml`]: withSpec('  introducedIn: "1.21"') });
    expect(pinned(loaded)).toEqual([errorAt(`${DEFS}/b.yaml`, 'definition-conflict', 6, 3, '/spec/introducedIn')]);
  });
});
