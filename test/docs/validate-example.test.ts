import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../http/support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CURL = /^curl -s -X POST -H 'Content-Type: application\/yaml' --data-binary @(\S+) http:\/\/127\.0\.0\.1:8080\/v1\/validate\n# (\{.*\})$/m;

describe.each(['README.md', 'docs/service.md'])('the POST /v1/validate example of %s', (page) => {
  it('is the answer the service gives, member for member', async () => {
    const [, profile, shown] = CURL.exec(readFileSync(`${ROOT}${page}`, 'utf8')) ?? [];
    expect(profile, 'the page shows a curl of /v1/validate with its answer').toBeDefined();
    const { app } = testApp();
    const res = await request(app)
      .post('/v1/validate')
      .set('Content-Type', 'application/yaml')
      .send(readFileSync(`${ROOT}${profile}`, 'utf8'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(shown!));
  });
});
