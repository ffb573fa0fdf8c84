import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { runKurel } from '../helpers/cli.js';

// The V8 flags a run sets, in order.
const flags = vi.hoisted(() => [] as string[]);

vi.mock('node:v8', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:v8')>();
  return { ...actual, setFlagsFromString: (flag: string) => flags.push(flag) };
});

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-young-'));
  const profile = (name: string) =>
    `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: ${name}\nspec:\n  capabilities:\n    expose:\n      rendering: {controllerType: gateway, gatewayName: public}\n`;
  writeFileSync(join(dir, 'a.yaml'), profile('a'));
  writeFileSync(join(dir, 'b.yaml'), profile('b'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// docs/performance.md: the young generation keeps the size it has when the run starts, and V8's default comes back at its end.
it('holds V8 young generation growth for the run and puts the default back after it', async () => {
  const run = await runKurel(['lint', '.'], { cwd: dir });
  expect(run).toEqual({ code: 0, stdout: '2 profiles checked: no problems\n', stderr: '' });
  expect(flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
});

it('puts the default back when the run is refused', async () => {
  flags.length = 0;
  const run = await runKurel(['lint', 'missing-folder'], { cwd: dir });
  expect(run.code).toBe(2);
  expect(flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
});
