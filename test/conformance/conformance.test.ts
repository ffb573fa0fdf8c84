import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';

const CASES = fileURLToPath(new URL('./cases/', import.meta.url));

interface Expectation {
  verdict: 'valid' | 'invalid';
  stage: string;
  flags?: string[];
  evaluated?: Record<string, unknown>;
}

/** Cases that wait for a later issue; this list only ever shrinks. */
const PENDING: Record<string, string> = {};

const cases = readdirSync(CASES)
  .filter((name) => existsSync(join(CASES, name, 'expect.json')))
  .sort();

describe.concurrent('conformance corpus', () => {
  it('holds all 64 cases', () => {
    expect(cases).toHaveLength(64);
  });

  for (const name of cases) {
    const dir = join(CASES, name);
    const expectation = JSON.parse(readFileSync(join(dir, 'expect.json'), 'utf8')) as Expectation;
    const pending = PENDING[name];
    const title = `${name} is ${expectation.verdict}`;
    if (pending) {
      it(`${title} (pending ${pending}: still fails today)`, async () => {
        const { passed } = await runCase(dir, expectation);
        // When this starts passing, move the case out of PENDING.
        expect(passed).toBe(false);
      });
      continue;
    }
    it(title, async () => {
      const { passed, code, output } = await runCase(dir, expectation);
      expect({ code, passed }, output).toEqual({ code: expectation.verdict === 'valid' ? 0 : 1, passed: true });
      if (expectation.verdict === 'valid' && expectation.evaluated && !isBuild(expectation)) {
        const envelope = JSON.parse(output) as { files: { path: string; resolved?: { capabilities: unknown } }[] };
        const profile = envelope.files.find((f) => f.path === 'cluster.yaml');
        expect(profile?.resolved?.capabilities).toEqual(expectation.evaluated);
      }
    });
  }
});

function isBuild(expectation: Expectation): boolean {
  return expectation.stage === 'build' || expectation.stage === 'app-parse';
}

async function runCase(dir: string, expectation: Expectation): Promise<{ passed: boolean; code: number; output: string }> {
  const flags = expectation.flags ?? [];
  const args = isBuild(expectation)
    ? ['build', 'app.yaml', '--profile', 'cluster.yaml', ...flags, '--format', 'json']
    : ['lint', 'cluster.yaml', ...(existsSync(join(dir, 'definitions')) ? ['--definitions', 'definitions'] : []), ...flags, '--format', 'json'];
  const run = await runKurel(args, { cwd: dir });
  const wanted = expectation.verdict === 'valid' ? 0 : 1;
  return { passed: run.code === wanted, code: run.code, output: run.stdout + run.stderr };
}
