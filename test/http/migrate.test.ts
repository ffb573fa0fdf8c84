import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pinDiagnostic } from '../helpers/pin.js';
import { catalogueOf } from '../migrate/helpers.js';
import { testApp } from './support.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/migrate/', import.meta.url));
const fixture = (file: string) => readFileSync(`${FIXTURE}${file}`, 'utf8');
const DEFINITIONS = Object.fromEntries(
  ['1.0.0', '1.1.0', '2.0.0'].map((v) => [`definitions/redis-sidecar-${v}.yaml`, fixture(`definitions/redis-sidecar-${v}.yaml`)]),
);
const PROD = fixture('clusters/prod.yaml');
const PROD_AT_2 = PROD.replace('version: "1.1"', 'version: "2.0.0"').replace('maxMemory: 2Gi', 'memoryLimit: 2Gi');

const app = () => testApp({ catalogue: catalogueOf(DEFINITIONS) }).app;
const migrate = (body: unknown, on = app()) => request(on).post('/v1/migrate').set('Content-Type', 'application/json').send(JSON.stringify(body));

describe('POST /v1/migrate (docs/migrate.md)', () => {
  it('answers the migrated text, the diff and the diagnostics of the request', async () => {
    const res = await migrate({ profile: PROD, to: ['redis-sidecar@2.0.0'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      changed: true,
      profile: PROD_AT_2,
      diff: [
        '--- a/request',
        '+++ b/request',
        '@@ -6,9 +6,9 @@',
        ' spec:',
        '   capabilities:',
        '     redis-sidecar:',
        '-      version: "1.1"      # the 1.1 line until the cache team signs off 2.0',
        '+      version: "2.0.0"      # the 1.1 line until the cache team signs off 2.0',
        '       rendering:',
        '         image: redis:7.2  # pinned for CVE-2024-31449',
        '         # 2Gi: the session store peaks at 1.6Gi',
        '-        maxMemory: 2Gi    # do not lower',
        '+        memoryLimit: 2Gi    # do not lower',
        '         port: 6380',
        '',
      ].join('\n'),
      diagnostics: [],
    });
  });

  it('answers profile null when nothing changes, or when the migration has errors', async () => {
    expect((await migrate({ profile: PROD_AT_2, to: ['redis-sidecar@2.0.0'] })).body).toEqual({
      valid: true,
      changed: false,
      profile: null,
      diff: '',
      diagnostics: [],
    });
    const lossy = await migrate({ profile: PROD, to: ['redis-sidecar@1.0.0'] });
    expect(lossy.body).toMatchObject({ valid: false, changed: true, profile: null });
    expect(lossy.body.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'migration-lossy', severity: 'error', file: 'request', line: 14, column: 9, path: '/spec/capabilities/redis-sidecar/rendering/port' },
    ]);
    const allowed = await migrate({ profile: PROD, to: ['redis-sidecar@1.0.0'], lossy: true });
    expect(allowed.body).toMatchObject({ valid: true, changed: true, profile: PROD.replace('"1.1"', '"1.0.0"').replace('        port: 6380\n', '') });
    expect(allowed.body.diagnostics.map((d: { code: string; severity: string }) => [d.code, d.severity])).toEqual([['migration-lossy', 'warning']]);
  });

  it('migrates with the definitions sent along, which replace the service’s versions of their name', async () => {
    const res = await migrate({ profile: PROD, to: ['redis-sidecar@2.0.0'], definitions: Object.values(DEFINITIONS) }, testApp().app);
    expect(res.body).toMatchObject({ valid: true, changed: true, profile: PROD_AT_2 });
    const renamedAgain = DEFINITIONS['definitions/redis-sidecar-2.0.0.yaml']!.replace('renamedFrom: maxMemory', 'renamedFrom: memory');
    // Sent alone, 2.0.0 is the name's only version: the binding's pin 1.1 matches nothing.
    const alone = await migrate({ profile: PROD, to: ['redis-sidecar@2.0.0'], definitions: [renamedAgain] });
    expect(alone.body).toMatchObject({ valid: false, changed: false, profile: null });
    expect(alone.body.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'version-not-found', severity: 'error', file: 'request', line: 9, column: 16, path: '/spec/capabilities/redis-sidecar/version' },
    ]);
    const invalid = await migrate(
      { profile: PROD, to: ['redis-sidecar@2.0.0'], definitions: [...Object.values(DEFINITIONS).slice(0, 2), renamedAgain] },
      testApp().app,
    );
    expect(invalid.body.diagnostics.map(pinDiagnostic)).toEqual([
      {
        code: 'definition-invalid',
        severity: 'error',
        file: 'definitions[2]',
        line: 11,
        column: 64,
        path: '/spec/rendering/properties/memoryLimit/renamedFrom',
      },
    ]);
    expect(invalid.body).toMatchObject({ valid: false, changed: false, profile: null, diff: '' });
  });

  it('judges the migrated profile at the platform sent', async () => {
    const gated = DEFINITIONS['definitions/redis-sidecar-2.0.0.yaml']!.replace('port: {', 'port: {introducedIn: "1.30", ');
    const on = testApp({ catalogue: catalogueOf({ ...DEFINITIONS, 'definitions/redis-sidecar-2.0.0.yaml': gated }) }).app;
    const res = await migrate({ profile: PROD, to: ['redis-sidecar@2.0.0'], platform: { kubernetes: '1.29' } }, on);
    expect(res.body.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'field-unavailable', severity: 'error', file: 'request', line: 14, column: 9, path: '/spec/capabilities/redis-sidecar/rendering/port' },
    ]);
  });

  it.each([
    [{ profile: PROD }, '"to" must be a non-empty list of NAME@VERSION texts, such as ["redis-sidecar@2.0.0"]'],
    [{ profile: PROD, to: [] }, '"to" must be a non-empty list of NAME@VERSION texts, such as ["redis-sidecar@2.0.0"]'],
    [{ profile: PROD, to: 'redis-sidecar@2.0.0' }, '"to" must be a non-empty list of NAME@VERSION texts, such as ["redis-sidecar@2.0.0"]'],
    [{ profile: PROD, to: ['redis-sidecar@v2'] }, expect.stringMatching(/^"to": "redis-sidecar@v2" must name one exact version of redis-sidecar: /)],
    [
      { profile: PROD, to: ['redis-sidecar@^2'] },
      expect.stringMatching(/^"to": "redis-sidecar@\^2" must name one exact version of redis-sidecar: .*, found "\^2"$/),
    ],
    [{ profile: PROD, to: ['redis-sidecar@3.0.0'] }, '"to": redis-sidecar has no version 3.0.0; it has 1.0.0, 1.1.0, 2.0.0'],
    [{ profile: PROD, to: ['cache@1.0.0'] }, '"to": no CapabilityDefinition of cache is loaded, so cache@1.0.0 cannot be migrated to'],
    [{ profile: PROD, to: ['redis-sidecar@2.0.0'], lossy: 'yes' }, '"lossy" must be true or false'],
    [
      { profile: { kind: 'ClusterProfile' }, to: ['redis-sidecar@2.0.0'] },
      '"profile" must be the YAML text of the profile: migrate rewrites text, keeping its comments',
    ],
    [{ profile: PROD, to: ['redis-sidecar@2.0.0'], platform: { kubernetes: 'v1.30' } }, expect.stringMatching(/^"platform"/)],
    [
      { profile: PROD, to: ['redis-sidecar@2.0.0'], write: true },
      'unknown member "write" in the request body; expected profile, definitions, platform, to, lossy',
    ],
  ])('answers %j with a 400 problem', async (body, detail) => {
    const res = await migrate(body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toEqual(detail);
  });
});
