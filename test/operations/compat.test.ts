import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { InputFile } from '../../src/core/input.js';
import { type CompatRun, compatOfDefinitions, compatOfFiles } from '../../src/operations/compat.js';
import { pinDiagnostic } from '../helpers/pin.js';
import { definitionText } from '../versions/helpers.js';

// definitionText: line 6 is `version: X` when there is one, properties start on line 10 (9
// without a version), each key at column 7.

const catalogue = createCatalogue();

const IMAGE = 'image: {type: string, required: true}';

/** Definition files as inputs, in the order given. */
function inputs(files: Record<string, string>): InputFile[] {
  return Object.entries(files).map(([file, content]) => ({ file, content, origin: 'definition' }));
}

function viaDefinitions(files: Record<string, string>, names: string[] = []): CompatRun {
  return compatOfDefinitions(inputs(files), names, catalogue);
}

function viaFiles(first: [string, string], second: [string, string]): CompatRun {
  return compatOfFiles({ file: first[0], content: first[1], origin: 'document' }, { file: second[0], content: second[1], origin: 'document' }, catalogue);
}

/** A pair reduced to its verdict. */
const verdicts = (run: CompatRun) => run.pairs.map((p) => ({ name: p.name, from: p.from, to: p.to, declared: p.declared, needed: p.needed, ok: p.ok }));

describe('compatOfDefinitions: which pairs are compared (docs/compat.md)', () => {
  it('compares consecutive releases in SemVer order, whatever the order or names of the files', () => {
    const run = viaDefinitions({
      'defs/z.yaml': definitionText('cache', '1.2.0', [IMAGE]),
      'defs/a.yaml': definitionText('cache', '1.10.0', [IMAGE, 'port: {type: integer}']),
      'defs/m.yaml': definitionText('cache', '1.9.0', [IMAGE, 'port: {type: integer}']),
    });
    expect(run.fatal).toBe(false);
    expect(run.diagnostics).toEqual([]);
    expect(run.pairs).toEqual([
      {
        name: 'cache',
        from: '1.2.0',
        to: '1.9.0',
        declared: 'minor',
        needed: 'minor',
        ok: true,
        findings: [
          {
            class: 'compatible',
            path: '/spec/rendering/properties/port',
            message: 'new optional property port',
            file: 'defs/m.yaml',
            line: 11,
            column: 7,
          },
        ],
      },
      { name: 'cache', from: '1.9.0', to: '1.10.0', declared: 'minor', needed: 'none', ok: true, findings: [] },
    ]);
  });

  it('fails a pair that declares a smaller bump than its changes need, positioning a removal in the older file', () => {
    const run = viaDefinitions({
      'defs/1.yaml': definitionText('cache', '1.0.0', [IMAGE, 'tag: {type: string}']),
      'defs/2.yaml': definitionText('cache', '1.1.0', [IMAGE]),
    });
    expect(run.pairs).toEqual([
      {
        name: 'cache',
        from: '1.0.0',
        to: '1.1.0',
        declared: 'minor',
        needed: 'major',
        ok: false,
        releaseAs: '2.0.0',
        findings: [{ class: 'breaking', path: '/spec/rendering/properties/tag', message: 'property tag removed', file: 'defs/1.yaml', line: 11, column: 7 }],
      },
    ]);
  });

  it('leaves prereleases out of the chain and compares each with the release before it, never failing', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '2.0.0', [IMAGE, 'tag: {type: string}']),
      'defs/b.yaml': definitionText('cache', '2.1.0-rc.1', [IMAGE]),
      'defs/c.yaml': definitionText('cache', '2.1.0', [IMAGE, 'tag: {type: string}', 'port: {type: integer}']),
    });
    expect(verdicts(run)).toEqual([
      { name: 'cache', from: '2.0.0', to: '2.1.0-rc.1', declared: 'minor', needed: 'major', ok: true },
      { name: 'cache', from: '2.0.0', to: '2.1.0', declared: 'minor', needed: 'minor', ok: true },
    ]);
  });

  it('compares no prerelease that has no release before it', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '1.0.0-rc.1', [IMAGE]),
      'defs/b.yaml': definitionText('cache', '1.0.0', [IMAGE, 'tag: {type: string}']),
    });
    expect(run.pairs).toEqual([]);
    expect(run.diagnostics).toEqual([]);
  });

  it.each([
    ['0.1.0', '0.2.0', 'minor', true],
    ['0.1.0', '0.1.1', 'patch', false],
  ])('lets %s → %s break with a minor bump (major version 0): declares %s', (from, to, declared, ok) => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', from, [IMAGE, 'tag: {type: string}']),
      'defs/b.yaml': definitionText('cache', to, [IMAGE]),
    });
    expect(verdicts(run)).toEqual([{ name: 'cache', from, to, declared, needed: 'minor', ok }]);
  });

  it('needs only a patch for a compatible change from a 0.y.z release', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '0.3.0', [IMAGE]),
      'defs/b.yaml': definitionText('cache', '0.3.1', [IMAGE, 'tag: {type: string}']),
    });
    expect(verdicts(run)).toEqual([{ name: 'cache', from: '0.3.0', to: '0.3.1', declared: 'patch', needed: 'patch', ok: true }]);
  });

  it('compares every name, sorted by name then version; NAME arguments restrict the run to those names', () => {
    const files = {
      'defs/r1.yaml': definitionText('redis', '1.0.0', [IMAGE]),
      'defs/r2.yaml': definitionText('redis', '2.0.0', [IMAGE]),
      'defs/c1.yaml': definitionText('cache', '1.0.0', [IMAGE]),
      'defs/c2.yaml': definitionText('cache', '1.0.1', [IMAGE]),
      'defs/lone.yaml': definitionText('lone', undefined, [IMAGE]),
    };
    expect(verdicts(viaDefinitions(files)).map((p) => `${p.name} ${p.from} ${p.to}`)).toEqual(['cache 1.0.0 1.0.1', 'redis 1.0.0 2.0.0']);
    expect(verdicts(viaDefinitions(files, ['redis'])).map((p) => `${p.name} ${p.from} ${p.to}`)).toEqual(['redis 1.0.0 2.0.0']);
  });

  it('is bad usage to name a definition no file holds, naming those there are', () => {
    const run = viaDefinitions({ 'defs/a.yaml': definitionText('cache', '1.0.0', [IMAGE]) }, ['cache', 'redis']);
    expect(run.fatal).toBe(true);
    expect(run.pairs).toEqual([]);
    expect(run.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ['usage', '<command line>', 'no definition named "redis": the definitions given hold cache'],
    ]);
  });

  it('is an io-error when the files hold no CapabilityDefinition', () => {
    const run = compatOfDefinitions(
      [{ file: 'defs/p.yaml', content: 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: p}\n', origin: 'definition' }],
      [],
      catalogue,
    );
    expect(run.fatal).toBe(true);
    expect(run.diagnostics.map((d) => [d.code, d.message])).toEqual([['io-error', 'no CapabilityDefinition found in the definitions given']]);
  });
});

describe('compatOfDefinitions: two documents of one version (docs/compat.md)', () => {
  it('fails two documents of one version that differ only in descriptions, naming the next patch version at the later spec.version', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '1.0.0', [IMAGE]),
      'defs/b.yaml': definitionText('cache', '1.0.0', [IMAGE]).replace('Injects a Redis sidecar container.', 'Injects a cache.'),
    });
    expect(run.pairs).toEqual([
      {
        name: 'cache',
        from: '1.0.0',
        to: '1.0.0',
        declared: 'none',
        needed: 'patch',
        ok: false,
        releaseAs: '1.0.1',
        findings: [{ class: 'patch', path: '/spec/description', message: 'the capability: description changed', file: 'defs/b.yaml', line: 7, column: 3 }],
      },
    ]);
    expect(run.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'definition-duplicate', severity: 'warning', file: 'defs/b.yaml', line: 4, column: 9, path: '/metadata/name' },
      { code: 'definition-changed', severity: 'error', file: 'defs/b.yaml', line: 6, column: 12, path: '/spec/version' },
    ]);
    const changed = run.diagnostics.find((d) => d.code === 'definition-changed')!;
    expect(changed.message).toMatch(
      /^definition "cache" 1\.0\.0 in defs\/b\.yaml differs from the one in defs\/a\.yaml \(sha256:[0-9a-f]{12}… there, sha256:[0-9a-f]{12}… here\): a published version is immutable$/,
    );
    expect(changed.hint).toBe('publish the change as 1.0.1');
  });

  it('names the next major version when the second document breaks the first, and still compares the broken name with its neighbours', () => {
    const run = viaDefinitions({
      'defs/0.yaml': definitionText('cache', '0.9.0', [IMAGE]),
      'defs/a.yaml': definitionText('cache', '1.0.0', [IMAGE]),
      'defs/b.yaml': definitionText('cache', '1.0.0', [IMAGE, 'tag: {type: string, required: true}']),
    });
    expect(verdicts(run)).toEqual([
      { name: 'cache', from: '0.9.0', to: '1.0.0', declared: 'major', needed: 'none', ok: true },
      { name: 'cache', from: '1.0.0', to: '1.0.0', declared: 'none', needed: 'major', ok: false },
    ]);
    expect(run.diagnostics.map((d) => [d.code, d.file, d.hint])).toEqual([
      ['definition-conflict', 'defs/b.yaml', undefined],
      ['definition-changed', 'defs/b.yaml', 'publish the change as 2.0.0'],
    ]);
  });

  it('fails two documents whose digests differ though they validate alike (required: false written out)', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '1.0.0', ['tag: {type: string}']),
      'defs/b.yaml': definitionText('cache', '1.0.0', ['tag: {type: string, required: false}']),
    });
    expect(verdicts(run)).toEqual([{ name: 'cache', from: '1.0.0', to: '1.0.0', declared: 'none', needed: 'patch', ok: false }]);
    expect(run.pairs[0]!.findings).toEqual([]);
    expect(run.diagnostics.map((d) => d.code)).toEqual(['definition-changed']);
  });

  it('accepts documents of one version that differ only in spec.deprecation or formatting', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '1.0.0', [IMAGE]),
      'defs/b.yaml': definitionText('cache', '"1.0.0"', ['image:   {required: true, type: string}'], ['deprecation: use 2.0.0']),
    });
    expect(run.pairs).toEqual([]);
    expect(run.diagnostics).toEqual([]);
  });

  it('tells two documents of one file apart by their lines', () => {
    const run = viaDefinitions({
      'defs/all.yaml': `${definitionText('cache', '1.0.0', [IMAGE])}---\n${definitionText('cache', '1.0.0', [IMAGE, 'tag: {type: string}'])}`,
    });
    const changed = run.diagnostics.find((d) => d.code === 'definition-changed')!;
    expect([changed.line, changed.message.split(' (sha256')[0]]).toEqual([
      17,
      'definition "cache" 1.0.0 in defs/all.yaml differs from the one in defs/all.yaml (document on line 1)',
    ]);
  });
});

describe('compatOfDefinitions: documents with problems (docs/versions.md)', () => {
  it('reports an invalid version and compares nothing across it', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '1.0.0', [IMAGE]),
      'defs/b.yaml': definitionText('cache', '1.1.0', ['image: {type: string, required: true, minimum: 1}']),
      'defs/c.yaml': definitionText('cache', '1.2.0', [IMAGE]),
    });
    expect(run.fatal).toBe(false);
    expect(run.pairs).toEqual([]);
    expect(run.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'definition-invalid', severity: 'error', file: 'defs/b.yaml', line: 10, column: 45, path: '/spec/rendering/properties/image/minimum' },
    ]);
  });

  it('reports a renamedFrom naming a property the previous version lacks as definition-invalid at the renamedFrom', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '1.0.0', [IMAGE]),
      'defs/b.yaml': definitionText('cache', '2.0.0', [IMAGE, 'memoryLimit: {type: string, renamedFrom: maxMemory}']),
    });
    expect(run.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'definition-invalid', severity: 'error', file: 'defs/b.yaml', line: 11, column: 48, path: '/spec/rendering/properties/memoryLimit/renamedFrom' },
    ]);
    expect(verdicts(run)).toEqual([{ name: 'cache', from: '1.0.0', to: '2.0.0', declared: 'major', needed: 'minor', ok: true }]);
  });

  it('classes a rename with renamedFrom as breaking, at the new property', () => {
    const run = viaDefinitions({
      'defs/a.yaml': definitionText('cache', '1.0.0', [IMAGE, 'maxMemory: {type: string}']),
      'defs/b.yaml': definitionText('cache', '1.1.0', [IMAGE, 'memoryLimit: {type: string, renamedFrom: maxMemory}']),
    });
    expect(run.diagnostics).toEqual([]);
    expect(run.pairs[0]).toMatchObject({ declared: 'minor', needed: 'major', ok: false });
    expect(run.pairs[0]!.findings).toEqual([
      {
        class: 'breaking',
        path: '/spec/rendering/properties/memoryLimit',
        message: 'property maxMemory renamed to memoryLimit: renderings must be migrated (kurel migrate)',
        file: 'defs/b.yaml',
        line: 11,
        column: 7,
      },
    ]);
  });
});

describe('compatOfFiles (docs/versions.md)', () => {
  const old: [string, string] = ['old.yaml', definitionText('cache', '1.0.0', [IMAGE])];
  const added: [string, string] = ['new.yaml', definitionText('cache', '1.1.0', [IMAGE, 'tag: {type: string}'])];

  it('compares the two in SemVer order whatever the argument order', () => {
    const expected = [{ name: 'cache', from: '1.0.0', to: '1.1.0', declared: 'minor', needed: 'minor', ok: true }];
    expect(verdicts(viaFiles(old, added))).toEqual(expected);
    expect(verdicts(viaFiles(added, old))).toEqual(expected);
    expect(viaFiles(added, old).pairs[0]!.findings.map((f) => [f.file, f.line, f.column])).toEqual([['new.yaml', 11, 7]]);
  });

  it('compares unversioned documents in argument order and reports only the bump needed, never failing', () => {
    const run = viaFiles(['a.yaml', definitionText('cache', undefined, [IMAGE, 'tag: {type: string}'])], ['b.yaml', definitionText('cache', '1.0.0', [IMAGE])]);
    expect(verdicts(run)).toEqual([{ name: 'cache', from: null, to: '1.0.0', declared: null, needed: 'major', ok: true }]);
    expect(run.pairs[0]!.findings.map((f) => [f.class, f.file, f.line])).toEqual([['breaking', 'a.yaml', 10]]);
  });

  it('reports a pair with a prerelease and never fails it', () => {
    const run = viaFiles(['b.yaml', definitionText('cache', '2.0.0-rc.1', [])], old);
    expect(verdicts(run)).toEqual([{ name: 'cache', from: '1.0.0', to: '2.0.0-rc.1', declared: 'major', needed: 'major', ok: true }]);
    const patchRc = viaFiles(old, ['b.yaml', definitionText('cache', '1.0.1-rc.1', [])]);
    expect(verdicts(patchRc)).toEqual([{ name: 'cache', from: '1.0.0', to: '1.0.1-rc.1', declared: 'patch', needed: 'major', ok: true }]);
  });

  it('finds nothing between two identical documents of one version', () => {
    expect(verdicts(viaFiles(old, ['copy.yaml', old[1]]))).toEqual([{ name: 'cache', from: '1.0.0', to: '1.0.0', declared: 'none', needed: 'none', ok: true }]);
  });

  it('fails two different documents of one version', () => {
    const run = viaFiles(old, ['edited.yaml', definitionText('cache', '1.0.0', [IMAGE, 'tag: {type: string}'])]);
    expect(verdicts(run)).toEqual([{ name: 'cache', from: '1.0.0', to: '1.0.0', declared: 'none', needed: 'minor', ok: false }]);
    expect(run.diagnostics.map((d) => [d.code, d.file, d.line, d.hint])).toEqual([['definition-changed', 'edited.yaml', 6, 'publish the change as 1.1.0']]);
  });

  it('is bad usage to compare documents of two names', () => {
    const run = viaFiles(old, ['redis.yaml', definitionText('redis', '1.1.0', [IMAGE])]);
    expect(run.fatal).toBe(true);
    expect(run.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ['usage', '<command line>', 'kurel compat compares two versions of one definition; old.yaml defines "cache" and redis.yaml defines "redis"'],
    ]);
  });

  it('reports a file that is not one CapabilityDefinition, and compares nothing', () => {
    const profile = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: p}\n';
    const run = viaFiles(old, ['p.yaml', profile]);
    expect(run.fatal).toBe(false);
    expect(run.pairs).toEqual([]);
    expect(run.diagnostics.map(pinDiagnostic)).toEqual([{ code: 'invalid-value', severity: 'error', file: 'p.yaml', line: 2, column: 7, path: '/kind' }]);
    const twoDocuments = viaFiles(old, ['two.yaml', `${old[1]}---\n${added[1]}`]);
    expect(twoDocuments.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([['multiple-documents', 'two.yaml', 11]]);
    expect(twoDocuments.pairs).toHaveLength(1);
  });
});
