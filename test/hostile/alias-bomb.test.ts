import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBounded, located } from './bounded-cli.js';

// Issue #7: an alias bomb is answered with alias-limit, quickly and in bounded memory (docs/profiles.md).
const PROFILE =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    ingress:\n      rendering:\n';

// "Billion laughs": nine levels of nine aliases each would expand to 9^9 (387 million) items.
// Line 9 holds a0; a3 on line 12 is the first to pass 100 alias uses, at its second *a2.
const LAUGHS =
  PROFILE +
  Array.from({ length: 10 }, (_, i) =>
    i === 0
      ? '        a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'
      : `        a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
  ).join('\n') +
  '\n';

// The same through merge keys: each map merges ten copies of the one before it.
const MERGES =
  PROFILE +
  Array.from({ length: 10 }, (_, i) =>
    i === 0
      ? '        m0: &m0 {k0: v, k1: v, k2: v, k3: v, k4: v, k5: v, k6: v, k7: v, k8: v, k9: v}'
      : `        m${i}: &m${i} {<<: [${Array(10)
          .fill(`*m${i - 1}`)
          .join(', ')}], own${i}: v}`,
  ).join('\n') +
  '\n';

// A CapabilityDefinition whose enum lists are aliases of aliases.
const DEFINITION = `${[
  'apiVersion: launcher.gokure.dev/v1alpha1',
  'kind: CapabilityDefinition',
  'metadata:',
  '  name: cache',
  'spec:',
  '  rendering:',
  '    properties:',
  '      size: {type: integer, enum: &e0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}',
  ...[1, 2, 3, 4, 5].map(
    (i) =>
      `      x${i}: &e${i} {enum: [${Array(10)
        .fill(`*e${i - 1}`)
        .join(', ')}]}`,
  ),
].join('\n')}\n`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-alias-bomb-'));
  writeFileSync(join(dir, 'laughs.yaml'), LAUGHS);
  writeFileSync(join(dir, 'merges.yaml'), MERGES);
  writeFileSync(join(dir, 'cache.yaml'), DEFINITION);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('alias bombs', () => {
  it('answers nine levels of nine aliases with one alias-limit at the alias that passes the limit', async () => {
    const run = await lintBounded(['laughs.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'alias-limit', file: 'laughs.yaml', line: 12, column: 23, path: '/spec/capabilities/ingress/rendering/a3/1' }],
    });
  });

  it('names the line of the anchor the expanding alias refers to', async () => {
    const run = await lintBounded(['laughs.yaml'], { cwd: dir });
    expect(run.json.diagnostics[0]?.message).toBe('alias *a2 expands beyond the limit of 100 alias uses (anchor on line 11)');
  });

  it('answers a bomb built from merge keys with alias-limit at the merged alias', async () => {
    const run = await lintBounded(['merges.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'alias-limit', file: 'merges.yaml', line: 12, column: 28, path: '/spec/capabilities/ingress/rendering/m3' }],
    });
  });

  it('answers a bomb in a CapabilityDefinition given with --capability-def', async () => {
    const run = await lintBounded(['laughs.yaml', '--capability-def', 'cache.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [
        { code: 'alias-limit', file: 'cache.yaml', line: 11, column: 28, path: '/spec/rendering/properties/x3/enum/1' },
        { code: 'alias-limit', file: 'laughs.yaml', line: 12, column: 23, path: '/spec/capabilities/ingress/rendering/a3/1' },
      ],
    });
  });

  it('answers a bomb on standard input', async () => {
    const run = await lintBounded(['-', '--stdin-filepath', 'piped.yaml'], { input: Buffer.from(LAUGHS) });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'alias-limit', file: 'piped.yaml', line: 12, column: 23, path: '/spec/capabilities/ingress/rendering/a3/1' }],
    });
  });
});
