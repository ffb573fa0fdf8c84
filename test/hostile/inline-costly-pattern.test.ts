import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedProcess, startServe } from '../helpers/serve.js';

// docs/service.md "Small requests judged where they arrive": a body under --inline-max-bytes
// whose definition brings a pattern of 98,002 instructions (just under the limit of
// docs/definitions.md "Patterns") and a value of 1,400 characters for it is seconds of work.
// Judged on the serving thread, it stalled the probes and was answered after its deadline;
// its estimate of work passes the inline budget, so a worker judges it and the deadline stops it.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const PATTERN = `^(?:${'a?'.repeat(49)}){1000}$`;
const DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: slow\nspec:\n  rendering:\n    properties:\n      v: {type: string, pattern: '${PATTERN}'}\n`;
const BODY = JSON.stringify({
  profile: {
    apiVersion: 'launcher.gokure.dev/v1alpha1',
    kind: 'ClusterProfile',
    metadata: { name: 'p' },
    spec: { capabilities: { slow: { rendering: { v: 'a'.repeat(1400) } } } },
  },
  definitions: [DEFINITION],
});

interface Sent {
  /** Resolves once the whole request is handed to the kernel. */
  written: Promise<void>;
  answer: Promise<{ status: number; retryAfter: string | undefined; body: string }>;
}

function send(url: string, method: 'GET' | 'POST', path: string, body?: string): Sent {
  let written!: () => void;
  const sent: Sent = {
    written: new Promise((resolve) => (written = resolve)),
    answer: new Promise((resolve, reject) => {
      const req = request(`${url}${path}`, { method, headers: { Connection: 'close', ...(body ? { 'Content-Type': 'application/json' } : {}) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: text }));
      });
      req.on('error', reject);
      req.end(body, () => written());
    }),
  };
  return sent;
}

describe('kurel serve and a small body with a costly pattern', () => {
  let served: ServedProcess;
  beforeAll(async () => {
    // Two workers, one for each costly request; no plugin, so small bodies may be judged inline.
    served = await startServe(['--port', '0', '--processes', '1', '--workers', '2', '--request-timeout', '4s', '--no-config'], { cwd: ROOT });
  });
  afterAll(async () => {
    await served?.stop();
  });

  it('answers /healthz while two such requests are in flight, and cancels them at the deadline', async () => {
    expect(Buffer.byteLength(BODY)).toBeLessThan(2048);
    const costly = [send(served.url, 'POST', '/v1/validate', BODY), send(served.url, 'POST', '/v1/validate', BODY)];
    const answered: string[] = [];
    for (const [i, sent] of costly.entries()) void sent.answer.then(() => answered.push(`validation ${i}`));
    await Promise.all(costly.map((sent) => sent.written));
    // Probes one after another, each sent once the one before is answered, on connections opened
    // after both costly bodies were sent: a serving thread busy judging either answers the later
    // probes only after it (judged inline, each took seconds and the probes waited behind it).
    for (let i = 0; i < 5; i++) {
      const probe = await send(served.url, 'GET', '/healthz').answer;
      expect(probe.status).toBe(200);
      answered.push(`probe ${i}`);
    }
    const answers = await Promise.all(costly.map((sent) => sent.answer));
    expect(answered.slice(0, 5)).toEqual(['probe 0', 'probe 1', 'probe 2', 'probe 3', 'probe 4']);
    // Too costly, not malformed: 503 without Retry-After (docs/service.md).
    expect(answers.map((a) => ({ status: a.status, retryAfter: a.retryAfter }))).toEqual([
      { status: 503, retryAfter: undefined },
      { status: 503, retryAfter: undefined },
    ]);
  });

  it('refuses at once the same body with a pattern past the program limit: pattern-too-complex', async () => {
    const tooComplex = BODY.replace(PATTERN, `^(?:${'a?'.repeat(50)}){1000}$`);
    const answer = await send(served.url, 'POST', '/v1/validate', tooComplex).answer;
    expect(answer.status).toBe(200);
    const verdict = JSON.parse(answer.body) as { valid: boolean; diagnostics: { code: string; file: string; line: number; column: number; path: string }[] };
    expect(verdict.valid).toBe(false);
    expect(verdict.diagnostics.map(({ code, file, line, column, path }) => ({ code, file, line, column, path }))).toEqual([
      { code: 'pattern-too-complex', file: 'definitions[0]', line: 8, column: 34, path: '/spec/rendering/properties/v/pattern' },
    ]);
  });
});
