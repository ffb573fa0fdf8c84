import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBounded, located } from './bounded-cli.js';

// Issue 10, items 1 and 2: patterns that make a backtracking engine stall. Lookarounds are
// definition-invalid (docs/definitions.md); every other shape is matched by RE2 in linear time, so each run
// below ends within the bounded CLI's limits only because nothing backtracks.
const definition = (pattern: string) =>
  `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: cache\nspec:\n  rendering:\n    properties:\n      host: {type: string, pattern: '${pattern}'}\n`;
const PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    cache:\n      rendering: {host: ${'a'.repeat(50_000)}!}\n`;

const LOOKAROUNDS = ['(?=a*(?=a*(?=a*b)))', '(?=a*b)', '(?=.*x)', '(?<=a+)(?<=a+)b'];
const BACKTRACKING = [
  '^(a+)+$',
  '(a|a)*b',
  '(x+x+)+y',
  '^(\\w+\\s?)*$',
  '^(a|aa)+$',
  '(.*a){12}',
  '^([a-z0-9]+-?)*[a-z0-9]$',
  '(?:[\\x00-\\xff]|[\\x00-\\xff])+$',
];
// The two that match a run of `a`s ending in `!`; the others reject it.
const MATCHING = new Set(['(.*a){12}', '(?:[\\x00-\\xff]|[\\x00-\\xff])+$']);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-redos-'));
  writeFileSync(join(dir, 'cluster.yaml'), PROFILE);
  for (const [i, pattern] of LOOKAROUNDS.entries()) writeFileSync(join(dir, `lookaround-${i}.yaml`), definition(pattern));
  for (const [i, pattern] of BACKTRACKING.entries()) writeFileSync(join(dir, `shape-${i}.yaml`), definition(pattern));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a definition pattern built to stall a backtracking engine', () => {
  it.each(LOOKAROUNDS.map((pattern, i) => [pattern, i] as const))('refuses the lookaround %s as definition-invalid at the pattern', async (_pattern, i) => {
    const run = await lintBounded(['cluster.yaml', '--capability-def', `lookaround-${i}.yaml`], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'definition-invalid', file: `lookaround-${i}.yaml`, line: 8, column: 37, path: '/spec/rendering/properties/host/pattern' }],
    });
  });

  it.each(BACKTRACKING.map((pattern, i) => [pattern, i] as const))('runs %s in linear time on a 50,000-character adversarial value', async (pattern, i) => {
    const run = await lintBounded(['cluster.yaml', '--capability-def', `shape-${i}.yaml`], { cwd: dir });
    const matches = MATCHING.has(pattern);
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: matches ? 0 : 1,
      diagnostics: matches ? [] : [{ code: 'invalid-value', file: 'cluster.yaml', line: 8, column: 25, path: '/spec/capabilities/cache/rendering/host' }],
    });
  });
});
