import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { appWithTraits, at, buildTexts, pinBuild, profileWithBindings } from '../helpers/build.js';
import { testApp } from '../http/support.js';

// docs/codes/unvalidated-capability.md: a binding of a pass-through built-in (scaler, rbac, …)
// with a non-empty rendering is validated by nothing: a warning in lint, build and the service.

const PROFILE = profileWithBindings(`
scaler:
  rendering: {minReplicas: "2", maxReplicaz: 10}
`);
const APP = appWithTraits(`
- type: scaler
  properties: {maxReplicas: 5}
`);
const MESSAGE =
  'capability "scaler" has a rendering that nothing validates: the built-in scaler is a pass-through (not capability-aware), so a build merges these values into its traits unchecked';

describe('a pass-through binding with a rendering', () => {
  it('is an unvalidated-capability warning in build, which still merges it', () => {
    const report = buildTexts(APP, PROFILE);
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unvalidated-capability', 'cluster.yaml', 8, 7, '/spec/capabilities/scaler/rendering', 'warning')]);
    expect(report.diagnostics[0]!.message).toBe(MESSAGE);
    expect(report.application?.components[0]?.traits[0]?.properties).toEqual({ minReplicas: '2', maxReplicaz: 10, maxReplicas: 5 });
  });

  it('is an error in build with --strict-capabilities', () => {
    const report = buildTexts(APP, PROFILE, { strictCapabilities: true });
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unvalidated-capability', 'cluster.yaml', 8, 7, '/spec/capabilities/scaler/rendering', 'error')]);
    expect(report.application).toBeNull();
  });

  it('is an unvalidated-capability warning from POST /v1/validate', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(PROFILE);
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.diagnostics).toMatchObject([
      {
        code: 'unvalidated-capability',
        severity: 'warning',
        file: 'request',
        line: 8,
        column: 7,
        path: '/spec/capabilities/scaler/rendering',
        message: MESSAGE,
      },
    ]);
  });
});
