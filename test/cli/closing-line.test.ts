import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';

// README "Explanations": text output ends with one `run kurel explain CODE for details`,
// naming the first error, or the first warning when there is no error.

const HEADER = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\n';
// A warning on line 7, before an error on line 10.
const WARNING_FIRST = `${HEADER}spec:\n  capabilities:\n    servicemesh: {}\n    expose:\n      rendering:\n        controllerType: ingress\n        ingressClassName: ""\n`;
const WARNING_ONLY = `${HEADER}spec:\n  capabilities:\n    servicemesh: {}\n`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-closing-'));
  writeFileSync(join(dir, 'mixed.yaml'), WARNING_FIRST);
  writeFileSync(join(dir, 'warns.yaml'), WARNING_ONLY);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the closing pointer to kurel explain', () => {
  it('names the first error even when a warning comes before it', async () => {
    const run = await runInProcess(['lint', 'mixed.yaml'], dir);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^mixed\.yaml:7:5 warning unknown-capability /);
    expect(lines.at(-1)).toBe('run kurel explain invalid-value for details');
  });

  it('names the first warning when there is no error', async () => {
    const run = await runInProcess(['lint', 'warns.yaml'], dir);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('run kurel explain unknown-capability for details');
  });
});
