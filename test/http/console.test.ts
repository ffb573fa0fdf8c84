import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { consolePolicy } from '../../src/http/console.js';
import { CODE_PATTERN } from '../../src/http/routes/codes.js';
import { propertyRuns } from '../helpers/property.js';
import { testApp } from './support.js';

// The console is served from dist/console, which `npm test` builds first.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}dist/console/manifest.json`, 'utf8')) as { page: string; assets: Record<string, string> };
const POLICY =
  /^default-src 'self'; style-src 'self' 'nonce-([A-Za-z0-9+/]{22}==)'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'$/;

describe('GET /', () => {
  it('answers the console page with the exact CSP, a fresh nonce each time, and no caching without asking', async () => {
    const { app } = testApp();
    const first = await request(app).get('/');
    const second = await request(app).get('/');
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(POLICY);
    }
    const nonceOf = (res: request.Response) => POLICY.exec(res.headers['content-security-policy'] as string)![1]!;
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(first.headers['content-security-policy']).toBe(consolePolicy(nonceOf(first)));
    // The page hands the editor the same nonce the header allows.
    expect(first.text).toContain(`<meta property="csp-nonce" nonce="${nonceOf(first)}">`);
    expect(first.text).not.toContain('{{');
  });

  it('names its assets with relative URLs only, so the console works under any path prefix', async () => {
    const { text } = await request(testApp().app).get('/');
    const urls = [...text.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);
    expect(urls.filter((url) => url.startsWith('assets/'))).toHaveLength(2);
    for (const url of urls) expect(url, url).toMatch(/^(assets\/|#|openapi\.yaml$|data:,$)/);
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(text).not.toMatch(/\sstyle=/);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await request(testApp().app).head('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(POLICY);
    expect(res.text ?? '').toBe('');
  });
});

describe('GET /assets/{name}', () => {
  it('answers every asset of the manifest with its media type, as immutable', async () => {
    const { app } = testApp();
    expect(Object.keys(manifest.assets).length).toBeGreaterThanOrEqual(3);
    for (const [name, mediaType] of Object.entries(manifest.assets)) {
      const res = await request(app).get(`/assets/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers['content-type']).toBe(`${mediaType}; charset=utf-8`);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.text).toBe(readFileSync(`${ROOT}dist/console/assets/${name}`, 'utf8'));
      // Content-hashed names: the name changes whenever the content does.
      expect(name).toMatch(/-[A-Z0-9]{8}\.(js|css)$/);
    }
  });

  it.each(['console.js', 'manifest.json', '..%2Fmanifest.json', '..%2F..%2Fpackage.json', 'index.html'])('answers %s with a 404 problem', async (name) => {
    const res = await request(testApp().app).get(`/assets/${name}`);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });
});

describe('GET /codes/{code}', () => {
  it('answers the explanation of a code as Markdown, as docs/codes holds it', async () => {
    const res = await request(testApp().app).get('/codes/yaml-syntax');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toBe(readFileSync(`${ROOT}docs/codes/yaml-syntax.md`, 'utf8'));
  });

  it('answers a well-formed code without a page with a 404 problem naming it', async () => {
    const res = await request(testApp().app).get('/codes/no-such-code');
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("no explanation for the code no-such-code; kurel's codes are listed in docs/diagnostics.md");
  });

  it.each(['YAML-syntax', 'yaml--syntax', '-yaml', 'yaml-', 'yaml_syntax', '..%2Fpackage', '..%2F..%2Fpackage.json', 'yaml-syntax.md', '%20yaml'])(
    'answers %s, which is not a code, with a 404 problem before touching a file',
    async (name) => {
      const res = await request(testApp().app).get(`/codes/${name}`);
      expect(res.status).toBe(404);
      expect(res.body.detail).toMatch(/^no explanation for ".*": expected a diagnostic code such as yaml-syntax/);
    },
  );

  it('never answers 200 for a name outside the code pattern', async () => {
    const { app } = testApp();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 24 }).filter((s) => !CODE_PATTERN.test(s)),
        async (name) => {
          const res = await request(app).get(`/codes/${encodeURIComponent(name)}`);
          expect(res.status).toBe(404);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });
});
