import { describe, expect, it } from 'vitest';
import { readMigrationTargets } from '../../src/operations/migrate.js';
import { pinDiagnostic } from '../helpers/pin.js';
import { definitionText } from '../versions/helpers.js';
import { definitionFiles, migrate, profile } from './helpers.js';

const DEFS = definitionFiles({
  '1.0.0': ['image: {type: string, required: true}', 'maxMemory: {type: string, default: 256Mi}'],
  '1.1.0': ['image: {type: string, required: true}', 'maxMemory: {type: string, default: 256Mi}', 'port: {type: integer, default: 6379}'],
  '2.0.0': [
    'image: {type: string, required: true}',
    'memoryLimit: {type: string, default: 256Mi, renamedFrom: maxMemory}',
    'port: {type: integer, default: 6379}',
  ],
});
const TO_2 = [{ name: 'redis-sidecar', version: '2.0.0' }];
const TO_1 = [{ name: 'redis-sidecar', version: '1.0.0' }];
const at = (code: string, line: number, column: number, path: string, severity = 'error', file = 'prod.yaml') => ({ code, severity, file, line, column, path });

/** Migrates one profile, `prod.yaml`, and returns its text after the migration and the diagnostics. */
function migrateOne(text: string, to = TO_2, options: Parameters<typeof migrate>[3] = {}, defs = DEFS) {
  const report = migrate({ 'prod.yaml': text }, defs, to, options);
  return { report, after: report.files[0]!.after, changed: report.files[0]!.changed, pinned: report.diagnostics.map(pinDiagnostic) };
}

describe('migrating a profile keeps everything the migration need not change', () => {
  it('renames the key in place, keeping the comments above, on and after it, and the quoting of the pin', () => {
    const text = profile(
      '# the cache',
      'redis-sidecar:',
      "  version: '1.1'   # stay on 1.1",
      '  rendering:',
      '    image: redis:7',
      '    # sized for the session store',
      '    maxMemory: 2Gi   # do not lower',
      '    # the port',
      '    port: 6380',
      '',
      'expose: {rendering: {controllerType: ingress, ingressClassName: nginx}}',
    );
    const { after, pinned } = migrateOne(text);
    expect(after).toBe(
      profile(
        '# the cache',
        'redis-sidecar:',
        "  version: '2.0.0'   # stay on 1.1",
        '  rendering:',
        '    image: redis:7',
        '    # sized for the session store',
        '    memoryLimit: 2Gi   # do not lower',
        '    # the port',
        '    port: 6380',
        '',
        'expose: {rendering: {controllerType: ingress, ingressClassName: nginx}}',
      ),
    );
    expect(pinned).toEqual([]);
  });

  it('keeps a range when --to names one: ^1 becomes ^2, converted to the highest 2.x (issue 29)', () => {
    const text = profile('redis-sidecar: {version: "^1", rendering: {image: r, maxMemory: 1Gi}}');
    const { after, pinned } = migrateOne(text, [{ name: 'redis-sidecar', version: '^2' }]);
    expect(after).toBe(profile('redis-sidecar: {version: "^2", rendering: {image: r, memoryLimit: 1Gi}}'));
    expect(pinned).toEqual([]);
    // Migrating the migrated file again to the same range changes nothing.
    expect(migrateOne(after, [{ name: 'redis-sidecar', version: '^2' }]).changed).toBe(false);
    // A partial version converts to the highest version with that prefix and is written as given.
    expect(migrateOne(text, [{ name: 'redis-sidecar', version: '1.1' }]).after).toBe(
      profile('redis-sidecar: {version: "1.1", rendering: {image: r, maxMemory: 1Gi}}'),
    );
  });

  it('keeps a renamed key of a flow map in the flow map, and a double-quoted pin double-quoted', () => {
    const { after } = migrateOne(profile('redis-sidecar: {version: "1.1.0", rendering: {image: "redis:7", maxMemory: 512Mi}}'));
    expect(after).toBe(profile('redis-sidecar: {version: "2.0.0", rendering: {image: "redis:7", memoryLimit: 512Mi}}'));
  });

  it('inserts the version first in an unpinned binding, in its style', () => {
    const { after } = migrateOne(
      profile('redis-sidecar:   # unpinned', '  rendering:', '    image: redis:7', 'redis-sidecar.eu: {rendering: {image: redis:7}}'),
    );
    expect(after).toBe(
      profile(
        'redis-sidecar:   # unpinned',
        '  version: "2.0.0"',
        '  rendering:',
        '    image: redis:7',
        'redis-sidecar.eu: {version: "2.0.0", rendering: {image: redis:7}}',
      ),
    );
  });

  it('migrates every scoped key of the name, and no other name', () => {
    const { after } = migrateOne(
      profile(
        'redis-sidecar.eu:',
        '  version: "1"',
        '  rendering: {image: r, maxMemory: 1Gi}',
        'redis-sidecar.us:',
        '  version: "1"',
        '  rendering: {image: r, maxMemory: 2Gi}',
        'redis-sidecar-other: {rendering: {maxMemory: 1Gi}}',
      ),
    );
    expect(after).toBe(
      profile(
        'redis-sidecar.eu:',
        '  version: "2.0.0"',
        '  rendering: {image: r, memoryLimit: 1Gi}',
        'redis-sidecar.us:',
        '  version: "2.0.0"',
        '  rendering: {image: r, memoryLimit: 2Gi}',
        'redis-sidecar-other: {rendering: {maxMemory: 1Gi}}',
      ),
    );
  });

  it('keeps CRLF line endings and reports a byte order mark to keep', () => {
    const text = `\ufeff${profile('redis-sidecar:', '  version: "1"', '  rendering:', '    image: redis:7', '    maxMemory: 1Gi').replaceAll('\n', '\r\n')}`;
    const { report, after, pinned } = migrateOne(text);
    expect(after).toBe(profile('redis-sidecar:', '  version: "2.0.0"', '  rendering:', '    image: redis:7', '    memoryLimit: 1Gi').replaceAll('\n', '\r\n'));
    expect(report.files[0]!.bom).toBe(true);
    expect(pinned).toEqual([]);
  });

  it('changes nothing when every binding is already at the version asked for', () => {
    const migrated = migrateOne(profile('redis-sidecar:', '  version: "2.0.0"', '  rendering: {image: r, memoryLimit: 1Gi}'));
    expect(migrated).toMatchObject({ changed: false, pinned: [] });
    expect(migrated.after).toBe(profile('redis-sidecar:', '  version: "2.0.0"', '  rendering: {image: r, memoryLimit: 1Gi}'));
  });
});

describe('what the migration cannot do silently', () => {
  const down = profile(
    'redis-sidecar:',
    '  version: "2.0.0"',
    '  rendering:',
    '    image: redis:7',
    '    # the port',
    '    port: 6380   # agreed',
    '    memoryLimit: 1Gi',
  );

  it('reports a value the version migrated to has no place for as migration-lossy, at the key', () => {
    const { report, pinned, after } = migrateOne(down, TO_1);
    expect(pinned).toEqual([at('migration-lossy', 12, 9, '/spec/capabilities/redis-sidecar/rendering/port')]);
    expect(report.diagnostics[0]).toMatchObject({
      message: 'capability "redis-sidecar": migrating from 2.0.0 to 1.0.0 drops port (integer 6380): redis-sidecar 1.0.0 has no port',
      hint: 'allow the loss with --lossy (HTTP: "lossy": true), or remove the key first',
    });
    // The diff shows what --lossy would write: the key goes with its comment lines.
    expect(after).toBe(profile('redis-sidecar:', '  version: "1.0.0"', '  rendering:', '    image: redis:7', '    maxMemory: 1Gi'));
  });

  it('drops the value with a warning under lossy', () => {
    const { pinned } = migrateOne(down, TO_1, { lossy: true });
    expect(pinned).toEqual([at('migration-lossy', 12, 9, '/spec/capabilities/redis-sidecar/rendering/port', 'warning')]);
  });

  it('refuses an edit reached through an alias or a merge key, naming the anchor line, and changes nothing there', () => {
    const text = profile(
      'redis-sidecar:',
      '  version: "1.1.0"',
      '  rendering: &shared {image: r, maxMemory: 1Gi}',
      'redis-sidecar.eu:',
      '  version: "1.1.0"',
      '  rendering: *shared',
      'redis-sidecar.us:',
      '  version: "1.1.0"',
      '  rendering:',
      '    <<: {image: r, maxMemory: 2Gi}',
    );
    const { report, pinned, after } = migrateOne(text);
    expect(pinned).toEqual([
      at('migration-unsupported', 12, 18, '/spec/capabilities/redis-sidecar.eu/rendering/maxMemory'),
      at('migration-unsupported', 12, 18, '/spec/capabilities/redis-sidecar/rendering/maxMemory'),
      at('migration-unsupported', 16, 9, '/spec/capabilities/redis-sidecar.us/rendering/maxMemory'),
    ]);
    expect(report.diagnostics.map((d) => [d.message, d.hint])).toEqual([
      [
        'migrating /spec/capabilities/redis-sidecar.eu/rendering/maxMemory (renamed to memoryLimit) would change a value reached through the alias *shared (anchor on line 9), and so every place that uses it',
        'write the value out in place of *shared, then migrate',
      ],
      [
        'migrating /spec/capabilities/redis-sidecar/rendering/maxMemory (renamed to memoryLimit) would change a value reached through the alias *shared (anchor on line 9), and so every place that uses it',
        'write the value out in place of *shared, then migrate',
      ],
      [
        'migrating /spec/capabilities/redis-sidecar.us/rendering/maxMemory (renamed to memoryLimit) would change a key that a merge key (<<) brings into its map',
        'write the key in the map itself instead of merging it, then migrate',
      ],
    ]);
    // The versions change; the keys behind the anchor and the merge key stay as they are.
    expect(after).toBe(text.replaceAll('"1.1.0"', '"2.0.0"'));
  });

  it('positions a problem of the migrated rendering in the file as it is, with its path there', () => {
    const defs = {
      ...DEFS,
      ...definitionFiles({ '2.0.0': ['image: {type: string, required: true}', 'memoryLimit: {type: integer, renamedFrom: maxMemory}'] }),
    };
    const { report, pinned } = migrateOne(
      profile('redis-sidecar:', '  version: "1.0.0"', '  rendering:', '    image: r', '    maxMemory: 1Gi'),
      TO_2,
      {},
      defs,
    );
    expect(pinned).toEqual([at('wrong-type', 11, 20, '/spec/capabilities/redis-sidecar/rendering/maxMemory')]);
    expect(report.diagnostics[0]).toMatchObject({
      endLine: 11,
      endColumn: 23,
      message: expect.stringMatching(/^capability "redis-sidecar": memoryLimit must be an integer/),
    });
  });

  it('asks for a value a new required property needs, at the rendering key (the binding key without one)', () => {
    const defs = { ...DEFS, ...definitionFiles({ '3.0.0': ['image: {type: string, required: true}', 'password: {type: string, required: true}'] }) };
    const { report, pinned } = migrateOne(
      profile('redis-sidecar:', '  version: "1.0.0"', '  rendering:', '    image: r', 'redis-sidecar.eu:'),
      [{ name: 'redis-sidecar', version: '3.0.0' }],
      { lossy: true },
      defs,
    );
    expect(pinned).toEqual([
      at('migration-needs-value', 9, 7, '/spec/capabilities/redis-sidecar/rendering/password'),
      at('migration-needs-value', 11, 5, '/spec/capabilities/redis-sidecar.eu/rendering/image'),
      at('migration-needs-value', 11, 5, '/spec/capabilities/redis-sidecar.eu/rendering/password'),
    ]);
    expect(report.diagnostics[0]).toMatchObject({
      message: 'capability "redis-sidecar": redis-sidecar 3.0.0 requires password, which the rendering does not set and which has no default',
      hint: 'write password in the rendering',
    });
    expect(report.files[0]!.after).toBe(
      profile('redis-sidecar:', '  version: "3.0.0"', '  rendering:', '    image: r', 'redis-sidecar.eu: {version: "3.0.0"}'),
    );
  });

  it('warns that the default of a property the file does not set changes, at the binding key', () => {
    const defs = {
      ...DEFS,
      ...definitionFiles({
        '2.0.0': [
          'image: {type: string, required: true}',
          'memoryLimit: {type: string, default: 1Gi, renamedFrom: maxMemory}',
          'port: {type: integer, default: 6379}',
        ],
      }),
    };
    const { report, pinned } = migrateOne(profile('redis-sidecar:', '  version: "1.1.0"', '  rendering: {image: r}'), TO_2, {}, defs);
    expect(pinned).toEqual([at('migration-default-changed', 7, 5, '/spec/capabilities/redis-sidecar/rendering/memoryLimit', 'warning')]);
    expect(report.diagnostics[0]).toMatchObject({
      message: 'capability "redis-sidecar": memoryLimit is not set, and its default changes from "256Mi" in redis-sidecar 1.1.0 to "1Gi" in 2.0.0',
      hint: 'write memoryLimit: "256Mi" to keep the old value',
    });
  });

  it('leaves a binding whose pin matches no version as it is, with its version-not-found', () => {
    const text = profile('redis-sidecar:', '  version: "^3"', '  rendering: {image: r, maxMemory: 1Gi}');
    const { pinned, changed } = migrateOne(text);
    expect(changed).toBe(false);
    expect(pinned).toEqual([at('version-not-found', 8, 16, '/spec/capabilities/redis-sidecar/version')]);
  });
});

describe('the definitions of a migration', () => {
  it('reports a renamedFrom the previous version lacks at that renamedFrom, and migrates nothing', () => {
    const defs = {
      ...DEFS,
      'defs/redis-sidecar-2.0.0.yaml': definitionText('redis-sidecar', '2.0.0', [
        'image: {type: string, required: true}',
        'memoryLimit: {type: string, renamedFrom: memory}',
      ]),
    };
    const { report, pinned, changed } = migrateOne(profile('redis-sidecar:', '  version: "1.1.0"', '  rendering: {image: r, maxMemory: 1Gi}'), TO_2, {}, defs);
    expect(changed).toBe(false);
    expect(pinned).toEqual([at('definition-invalid', 11, 48, '/spec/rendering/properties/memoryLimit/renamedFrom', 'error', 'defs/redis-sidecar-2.0.0.yaml')]);
    // The words of compat, which checks the same rule on the same pairs.
    expect(report.diagnostics[0]!.message).toBe(
      'memoryLimit.renamedFrom names memory, which the previous version does not have here; renamedFrom pairs a property with its name in the version just before, so remove it once that version has the new name',
    );
  });

  it('reports a renamedFrom on a property the previous version already has, as compat does', () => {
    const defs = {
      ...DEFS,
      'defs/redis-sidecar-1.2.0.yaml': definitionText('redis-sidecar', '1.2.0', [
        'image: {type: string, required: true}',
        'port: {type: integer, renamedFrom: maxMemory}',
      ]),
    };
    const { report, changed } = migrateOne(profile('redis-sidecar: {version: "1.1.0", rendering: {image: r, maxMemory: 1Gi}}'), TO_2, {}, defs);
    expect(changed).toBe(false);
    // 1.2.0 is now the release before 2.0.0, and it has no maxMemory either.
    expect(report.diagnostics.map((d) => [d.file, d.line, d.column, d.message])).toEqual([
      ['defs/redis-sidecar-1.2.0.yaml', 11, 42, 'port.renamedFrom names maxMemory, but the previous version already has port: nothing is renamed'],
      [
        'defs/redis-sidecar-2.0.0.yaml',
        11,
        64,
        'memoryLimit.renamedFrom names maxMemory, which the previous version does not have here; renamedFrom pairs a property with its name in the version just before, so remove it once that version has the new name',
      ],
    ]);
  });

  it('reports a broken name with its own diagnostics, not as a usage error', () => {
    const defs = { ...DEFS, 'defs/redis-sidecar-2.0.0.yaml': definitionText('redis-sidecar', '2.0.0', ['image: {type: strin}']) };
    const { report, changed } = migrateOne(profile('redis-sidecar: {version: "1.1.0", rendering: {image: r}}'), TO_2, {}, defs);
    expect({ fatal: report.fatal, changed }).toEqual({ fatal: false, changed: false });
    expect(report.diagnostics.map(pinDiagnostic)).toEqual([
      at('invalid-value', 10, 21, '/spec/rendering/properties/image/type', 'error', 'defs/redis-sidecar-2.0.0.yaml'),
    ]);
  });

  it.each([
    [
      [{ name: 'redis', version: '1.0.0' }],
      'no CapabilityDefinition of redis is loaded, so redis@1.0.0 cannot be migrated to',
      { hint: 'did you mean redis-sidecar?' },
    ],
    [[{ name: 'postgres', version: '1.0.0' }], 'no CapabilityDefinition of postgres is loaded, so postgres@1.0.0 cannot be migrated to', {}],
    [[{ name: 'redis-sidecar', version: '3.0.0' }], 'redis-sidecar has no version 3.0.0; it has 1.0.0, 1.1.0, 2.0.0', {}],
    [[{ name: 'redis-sidecar', version: '^3' }], 'redis-sidecar has no version matching ^3; it has 1.0.0, 1.1.0, 2.0.0', {}],
    [
      [{ name: 'redis-sidcar', version: '2.0.0' }],
      'no CapabilityDefinition of redis-sidcar is loaded, so redis-sidcar@2.0.0 cannot be migrated to',
      { hint: 'did you mean redis-sidecar?' },
    ],
  ])('makes %j a usage error', (to, message, hint) => {
    const { report } = migrateOne(profile('redis-sidecar: {rendering: {image: r}}'), to);
    expect(report.fatal).toBe(true);
    expect(report.diagnostics).toEqual([
      { code: 'usage', severity: 'error', message, file: '<command line>', line: 1, column: 1, endLine: 1, endColumn: 1, path: '', ...hint },
    ]);
  });

  it('makes a name without versions a usage error', () => {
    const { report } = migrateOne(
      profile('cache: {rendering: {}}'),
      [{ name: 'cache', version: '1.0.0' }],
      {},
      { 'defs/cache.yaml': definitionText('cache', undefined, []) },
    );
    expect(report.diagnostics[0]!.message).toBe('cache has no versions (its definition has no spec.version), so there is nothing to migrate between');
  });
});

describe('readMigrationTargets', () => {
  it('reads NAME@VERSION and refuses anything else, and a name given twice', () => {
    expect(readMigrationTargets(['redis-sidecar@2.0.0', 'cache@1.0.0-rc.1'])).toEqual({
      targets: [
        { name: 'redis-sidecar', version: '2.0.0' },
        { name: 'cache', version: '1.0.0-rc.1' },
      ],
      problems: [],
    });
    // docs/migrate.md: VERSION is one exact version; a range or a partial version is refused.
    const exact = 'a SemVer version MAJOR.MINOR.PATCH such as 1.2.0 or 2.0.0-rc.1 (no leading v, no build metadata)';
    expect(readMigrationTargets(['redis@2.0', 'cache@^2']).problems).toEqual([
      `"redis@2.0" must name one exact version of redis: version must be ${exact}, found "2.0": a definition names one exact version`,
      `"cache@^2" must name one exact version of cache: version must be ${exact}, found "^2"`,
    ]);
    expect(readMigrationTargets(['redis-sidecar', 'Redis@1.0.0', 'redis@v2.0.0', 'redis@>=0.0.0', 'a@1.0.0', 'a@2.0.0']).problems).toEqual([
      '"redis-sidecar" must be NAME@VERSION, such as redis-sidecar@2.0.0',
      '"Redis@1.0.0" must be NAME@VERSION, such as redis-sidecar@2.0.0',
      `"redis@v2.0.0" must name one exact version of redis: version must be ${exact}, found "v2.0.0" (write 2.0.0)`,
      `"redis@>=0.0.0" must name one exact version of redis: version must be ${exact}, found ">=0.0.0"`,
      'a is named twice (1.0.0 and 2.0.0); a run moves each name to one version',
    ]);
  });
});
