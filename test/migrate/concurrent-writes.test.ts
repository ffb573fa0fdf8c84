import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurelJson, spawnKurel, spawnKurelJson } from '../helpers/cli.js';

// Issue 36, row 4: two `kurel migrate --write` runs on the same file, one to 2.0.0 and one to
// 1.1.0, both read the same text and both said `migrated 1 file`; one of the two edits was lost.
// A run now holds a lock on the file from its compare to its rename (docs/migrate.md, "Writing
// files"). Real processes race here as they will, many times; whoever wins, the invariant holds:
// one wins and the other is refused, or both apply one after the other. Never a lost update.

const FIXTURE = fileURLToPath(new URL('../fixtures/migrate/', import.meta.url));
const FILE = 'clusters/prod.yaml';
const TO_2 = ['--to', 'redis-sidecar@2.0.0'];
const TO_1 = ['--to', 'redis-sidecar@1.1.0'];
const ROUNDS = 10;

interface Envelope {
  written: boolean;
  files: { path: string; diff: string }[];
  diagnostics: { code: string; file: string; message: string }[];
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kurel-concurrent-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function fresh(name: string): string {
  const dir = join(root, name);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}
const migrate = (to: string[]) => ['migrate', FILE, '--definitions', 'definitions', ...to, '--write'];

/** What one migration reads and writes when it runs alone, from the fixture or after the other. */
async function alone(first: string[], then?: string[]): Promise<{ diff: string; after: string }> {
  const dir = fresh(`alone-${first.join('')}-${then?.join('') ?? ''}`);
  if (then) expect((await runKurelJson(migrate(first), { cwd: dir })).code).toBe(0);
  const run = await runKurelJson<Envelope>(migrate(then ?? first), { cwd: dir });
  expect(run.code).toBe(0);
  return { diff: run.json.files[0]?.diff ?? '', after: readFileSync(join(dir, FILE), 'utf8') };
}

describe('two kurel migrate --write runs on one file at once (issue 36 row 4)', () => {
  it('never loses an edit: one is refused, or the second applies on the first', { timeout: 600_000 }, async () => {
    const to2 = await alone(TO_2);
    const to1 = await alone(TO_1);
    const to1After2 = await alone(TO_2, TO_1);
    const to2After1 = await alone(TO_1, TO_2);
    const refusal = `${FILE} changed after kurel read it, so it was not replaced; nothing was written: run kurel migrate again`;
    const seen = { refused: 0, sequential: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const dir = fresh(`round-${round}`);
      const [up, down] = await Promise.all([spawnKurelJson<Envelope>(migrate(TO_2), { cwd: dir }), spawnKurelJson<Envelope>(migrate(TO_1), { cwd: dir })]);
      const final = readFileSync(join(dir, FILE), 'utf8');
      const wrote = (run: typeof up) => run.code === 0 && run.json.written;
      const diff = (run: typeof up) => run.json.files[0]?.diff;
      const history = { up: [up.code, wrote(up), diff(up)], down: [down.code, wrote(down), diff(down)], final };
      if (wrote(up) && wrote(down)) {
        // Both wrote: the second must have read what the first wrote.
        const upFirst = { up: [0, true, to2.diff], down: [0, true, to1After2.diff], final: to1After2.after };
        const downFirst = { up: [0, true, to2After1.diff], down: [0, true, to1.diff], final: to2After1.after };
        expect([upFirst, downFirst]).toContainEqual(history);
        seen.sequential += 1;
      } else {
        // One wrote what it read from the fixture; the other was refused, naming the file.
        const [winner, loser] = wrote(up) ? [to2, down] : [to1, up];
        expect({ winner: wrote(up) ? history.up : history.down, final }).toEqual({ winner: [0, true, winner.diff], final: winner.after });
        expect({ code: loser.code, written: loser.json.written, diagnostics: loser.json.diagnostics.map((d) => [d.code, d.file, d.message]) }).toEqual({
          code: 2,
          written: false,
          diagnostics: [['io-error', FILE, refusal]],
        });
        seen.refused += 1;
      }
      expect(readdirSync(join(dir, 'clusters')).sort()).toEqual(['prod.yaml', 'staging.yaml']);
    }
    expect(seen.refused + seen.sequential).toBe(ROUNDS);
  });

  it('waits while another run holds the lock, then compares and refuses the file it changed', async () => {
    const dir = fresh('held');
    const clusters = join(dir, 'clusters');
    // This process stands for a first writer between its compare and its rename: it holds the lock.
    writeFileSync(join(clusters, '.kurel-tmp-lock-prod.yaml'), `${process.pid}\n`);
    const theirs = `${readFileSync(join(dir, FILE), 'utf8')}# the first writer's edit\n`;
    // Once the second run has made its claim (it is waiting for the lock), the first one renames and lets go.
    let released = false;
    const watcher = watch(clusters, () => {
      if (released || !readdirSync(clusters).some((name) => /^\.kurel-tmp-\d+-\d+-lock$/.test(name))) return;
      released = true;
      writeFileSync(join(clusters, 'first.tmp'), theirs);
      renameSync(join(clusters, 'first.tmp'), join(dir, FILE));
      rmSync(join(clusters, '.kurel-tmp-lock-prod.yaml'));
    });
    try {
      const run = await spawnKurel(migrate(TO_2), { cwd: dir });
      expect({ released, code: run.code, stderr: run.stderr }).toEqual({
        released: true,
        code: 2,
        stderr: `${FILE}: error io-error ${FILE} changed after kurel read it, so it was not replaced; nothing was written: run kurel migrate again\n`,
      });
    } finally {
      watcher.close();
    }
    expect(readFileSync(join(dir, FILE), 'utf8')).toBe(theirs);
    expect(readdirSync(clusters).sort()).toEqual(['prod.yaml', 'staging.yaml']);
  });
});
