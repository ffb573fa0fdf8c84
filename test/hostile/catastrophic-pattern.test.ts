import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { located, lintBounded } from './bounded-cli.js';

// Issue #7: a definition `pattern` that can backtrack catastrophically is definition-invalid
// (§4.5, §7) and is never run: the binding below would keep a backtracking engine busy for
// longer than the test may take, so the test only passes when kurel refuses the pattern.
const definition = (pattern: string) =>
  `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: cache\nspec:\n  rendering:\n    properties:\n      host: {type: string, pattern: '${pattern}'}\n`;
const PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    cache:\n      rendering: {host: ${'a'.repeat(46)}!}\n`;

const EVIL = ['^(a+)+$', '(a|a)*b', '(x+x+)+y', '^(\\w+\\s?)*$', '^(a|aa)+$', '(.*a){12}', '^([a-z0-9]+-?)*[a-z0-9]$'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-redos-'));
  writeFileSync(join(dir, 'cluster.yaml'), PROFILE);
  EVIL.forEach((pattern, i) => writeFileSync(join(dir, `evil-${i}.yaml`), definition(pattern)));
  writeFileSync(join(dir, 'safe.yaml'), definition('^[a-z]+$'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a catastrophically backtracking definition pattern', () => {
  it.each(EVIL.map((pattern, i) => [pattern, i] as const))('refuses %s as definition-invalid at the pattern, and leaves the binding alone', async (_pattern, i) => {
    const run = await lintBounded(['cluster.yaml', '--capability-def', `evil-${i}.yaml`], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'definition-invalid', file: `evil-${i}.yaml`, line: 8, column: 37, path: '/spec/rendering/properties/host/pattern' }],
    });
  });

  it('still runs a pattern that cannot backtrack, against the same binding', async () => {
    const run = await lintBounded(['cluster.yaml', '--capability-def', 'safe.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'invalid-value', file: 'cluster.yaml', line: 8, column: 25, path: '/spec/capabilities/cache/rendering/host' }],
    });
  });
});
