import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBounded, located } from './bounded-cli.js';

// Issue #10, item 3: merge keys copy keys, so 1 MiB of text could ask for ten million values
// (the old reader took 117 s and 4.5 GB on a 16 MiB version, and died under a 512 MB heap on
// this one). The expansion budget of docs/profiles.md stops it at the merge that crosses it.
const PROFILE =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    configmap:\n      rendering:\n';
const KEYS = Array.from({ length: 104_000 }, (_, i) => `k${i}: 1`).join(', ');
const MERGES = Array.from({ length: 99 }, (_, i) => `        m${i}: {<<: *b}\n`).join('');

// Merely parsing this megabyte needs more than the usual ceiling; expanding it needs gigabytes.
const HEAP_LIMIT_MB = 192;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-merges-'));
  writeFileSync(join(dir, 'merges.yaml'), `${PROFILE}        base: &b {${KEYS}}\n${MERGES}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a map of 104,000 keys merged 99 times', () => {
  it('is alias-limit at the merged alias that crosses the budget of 1,000,000 values', async () => {
    // The map is 208,001 values (keys and values) of the document's 208,415 nodes; ten times that
    // is over the ceiling of a million, reached while the fourth merge (m3, line 13) copies.
    const run = await lintBounded(['merges.yaml'], { cwd: dir, heapLimitMb: HEAP_LIMIT_MB });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'alias-limit', file: 'merges.yaml', line: 13, column: 18, path: '/spec/capabilities/configmap/rendering/m3' }],
    });
    expect(run.json.diagnostics[0]?.message).toBe(
      'alias *b expands the document beyond 1000000 values, the limit for a document of 208415 nodes (anchor on line 9)',
    );
  });
});
