import { describe, expect, it } from 'vitest';
import { capabilitySchema } from '../../src/operations/capability-schema.js';
import { definition, errorAt, load, pinned, prop } from './helpers.js';

// Property text line n lands on definition line 7 + n, column c on column 6 + c (see definition()).
const FILE = 'defs/cap.yaml';
const loadOne = (properties: string) => load({ [FILE]: definition(properties) });

describe('renamedFrom at load (docs/migrate.md)', () => {
  it('loads a property that names its previous name, and leaves renamedFrom out of the published schema', () => {
    const loaded = loadOne('image: {type: string}\nmemoryLimit: {type: string, default: 256Mi, renamedFrom: maxMemory}');
    expect(pinned(loaded)).toEqual([]);
    const schema = loaded.registry.definition('my-trait')!.schema;
    expect(schema.properties?.['memoryLimit']).toMatchObject({ renamedFrom: 'maxMemory' });
    expect(JSON.stringify(capabilitySchema(loaded.registry, 'my-trait'))).not.toContain('renamedFrom');
  });

  it('reports an old name this version also declares, at the renamedFrom value', () => {
    const loaded = loadOne('maxMemory: {type: string}\nmemoryLimit: {type: string, renamedFrom: maxMemory}');
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 9, 48, prop('memoryLimit', 'renamedFrom'))]);
    expect(loaded.report.diagnostics[0]!.message).toBe(
      'memoryLimit.renamedFrom names "maxMemory", which this version also declares: the old name of a renamed property is gone from the version that renames it',
    );
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });

  it('reports a property renamed from its own name', () => {
    const loaded = loadOne('memoryLimit: {type: string, renamedFrom: memoryLimit}');
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 8, 48, prop('memoryLimit', 'renamedFrom'))]);
    expect(loaded.report.diagnostics[0]!.message).toBe(
      'memoryLimit.renamedFrom names its own name: the old name of a renamed property is gone from the version that renames it',
    );
  });

  it('reports two properties renaming one old name, at the second', () => {
    const loaded = loadOne('memoryLimit: {type: string, renamedFrom: maxMemory}\nmemory:\n  type: string\n  renamedFrom: maxMemory');
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 11, 22, prop('memory', 'renamedFrom'))]);
    expect(loaded.report.diagnostics[0]!.message).toBe(
      'memory.renamedFrom names "maxMemory", which memoryLimit already renames: one old property becomes one new property',
    );
  });

  it('checks the properties of a nested map among themselves, naming the nested path', () => {
    const loaded = loadOne(
      'tls:\n  type: object\n  properties:\n    on: {type: boolean}\n    enabled: {type: boolean, renamedFrom: "on"}\nmaxMemory: {type: string}',
    );
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 12, 49, prop('tls', 'properties', 'enabled', 'renamedFrom'))]);
    expect(loaded.report.diagnostics[0]!.message).toMatch(/^tls\.enabled\.renamedFrom names "on", which this version also declares/);
  });

  it('allows the same old name in two different maps', () => {
    expect(
      pinned(
        loadOne(
          'a:\n  type: object\n  properties:\n    y: {type: string, renamedFrom: x}\nb:\n  type: object\n  properties:\n    y: {type: string, renamedFrom: x}',
        ),
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'list items',
      'ports:\n  type: array\n  items:\n    type: integer\n    renamedFrom: port',
      prop('ports', 'items', 'renamedFrom'),
      'renamedFrom has no meaning in ports[]: list items have no name of their own; put it on the renamed property',
    ],
    [
      'undeclared keys',
      'labels:\n  type: object\n  additionalProperties:\n    type: string\n    renamedFrom: tags',
      prop('labels', 'additionalProperties', 'renamedFrom'),
      'renamedFrom has no meaning in labels.*: undeclared keys have no name the definition knows; put it on the renamed property',
    ],
  ])('reports renamedFrom on %s at the keyword', (_name, properties, path, message) => {
    const loaded = loadOne(properties);
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 12, 5 + 6, path)]);
    expect(loaded.report.diagnostics[0]!.message).toBe(message);
  });

  it('refuses an empty old name and one that is not a string', () => {
    expect(pinned(loadOne('memoryLimit: {type: string, renamedFrom: ""}'))).toEqual([
      errorAt(FILE, 'invalid-value', 8, 48, prop('memoryLimit', 'renamedFrom')),
    ]);
    expect(pinned(loadOne('memoryLimit: {type: string, renamedFrom: 3}'))).toEqual([errorAt(FILE, 'wrong-type', 8, 48, prop('memoryLimit', 'renamedFrom'))]);
  });

  it('makes two documents of one version that rename differently a conflict', () => {
    const a = definition('memoryLimit: {type: string, renamedFrom: maxMemory}');
    const b = definition('memoryLimit: {type: string, renamedFrom: memory}');
    const loaded = load({ 'defs/a.yaml': a, 'defs/b.yaml': b });
    expect(pinned(loaded)).toEqual([errorAt('defs/b.yaml', 'definition-conflict', 8, 35, prop('memoryLimit', 'renamedFrom'))]);
  });
});
