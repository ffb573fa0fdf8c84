import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from './support.js';

// A binding whose `version` has the wrong type (a number) decides no version, but its
// rendering is still checked (against the version an unpinned binding resolves to), so the
// binding's other mistakes are reported with the wrong type, not hidden behind it.

const DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: cache
spec:
  version: 1.0.0
  rendering:
    properties:
      image: {type: string, required: true}
      port: {type: integer}
`;
const PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  capabilities:
    cache:
      version: 1
      rendering:
        port: "6379"
    expose:
      version: 2
      rendering:
        controllerType: ingress
        ingresClassName: nginx
`;

describe('a binding with a version of the wrong type', () => {
  it('reports the wrong type and the rendering mistakes over HTTP', async () => {
    const { app } = testApp();
    const res = await request(app)
      .post('/v1/validate')
      .send({ profile: PROFILE, definitions: [DEFINITION] });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(
      (res.body.diagnostics as { code: string; line: number; column: number; path: string }[]).map((d) => `${d.line}:${d.column} ${d.code} ${d.path}`),
    ).toEqual([
      '8:16 wrong-type /spec/capabilities/cache/version',
      '9:7 missing-required /spec/capabilities/cache/rendering/image',
      '10:15 wrong-type /spec/capabilities/cache/rendering/port',
      '12:16 wrong-type /spec/capabilities/expose/version',
      '13:7 missing-required /spec/capabilities/expose/rendering/ingressClassName',
      '15:9 unknown-field /spec/capabilities/expose/rendering/ingresClassName',
    ]);
  });
});
