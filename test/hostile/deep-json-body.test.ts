import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedProcess, startServe } from '../helpers/serve.js';
import { HEAP_LIMIT_MB } from './bounded-cli.js';

// Issue #10, item 10: a JSON body nested deep was handed to the YAML reader, which took 2.6 s
// and 470 MB to refuse it (20 s and 550 MB here) while every other request waited. The JSON
// path now refuses it itself, where the YAML reader would, so the service holds it under a
// heap ceiling far below what the YAML reader needed.
const HALF = 512 * 1024 - 1;

let served: ServedProcess;
beforeAll(async () => {
  served = await startServe(['--port', '0'], { env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_LIMIT_MB}` } });
});
afterAll(async () => {
  await served?.stop();
});

describe('a bare JSON body nested 524,287 deep (1 MiB)', () => {
  it('is answered too-deep at the array that passes the limit, and the service keeps serving', async () => {
    const res = await fetch(`${served.url}/v1/validate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `${'['.repeat(HALF)}${']'.repeat(HALF)}`,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { valid: boolean; diagnostics: { code: string; file: string; line: number; column: number; path: string }[] };
    expect({ valid: body.valid, diagnostics: body.diagnostics.map(({ code, file, line, column, path }) => ({ code, file, line, column, path })) }).toEqual({
      valid: false,
      diagnostics: [{ code: 'too-deep', file: 'request', line: 1, column: 129, path: '' }],
    });
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
  });
});
