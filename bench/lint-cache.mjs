// `kurel lint --cache` (docs/cli.md): a repository of 10,000 generated profiles of 1 to 2 KB,
// 10% with mistakes, linted once to fill the cache; then each measured run edits one profile and
// lints the whole folder again with the cache, alternating with bare `node -e 0`
// (docs/performance.md: within 2x). The uncached run over the same files is printed beside it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budgets } from './lib/budget.mjs';
import { generateProfile } from './lib/generate-profile.mjs';
import { median, ms, ratio, timeProcess } from './lib/measure.mjs';
import { CLI, requireBuild } from './lib/servers.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const FILES = 10_000;

requireBuild();
const scratch = mkdtempSync(join(tmpdir(), 'kurel-bench-cache-'));
const budgets = new Budgets();
try {
  const dir = join(scratch, 'clusters');
  mkdirSync(dir);
  const fileOf = (i) => join(dir, `cluster-${String(i).padStart(5, '0')}.yaml`);
  for (let i = 0; i < FILES; i++) writeFileSync(fileOf(i), generateProfile(1024 + (i % 8) * 128, { name: `cluster-${i}`, mistakes: i % 10 === 0 }));
  const lint = (extra) => [CLI, 'lint', dir, '--quiet', ...extra];
  const cacheFile = join(scratch, 'kurel.cache');
  const cached = lint(['--cache', '--cache-location', cacheFile]);
  timeProcess(process.execPath, cached, { okCodes: [1] });
  timeProcess(process.execPath, ['-e', '0']);
  const samples = { node: [], cached: [], uncached: [] };
  for (let i = 0; i < RUNS; i++) {
    // One profile changes between runs, as after an edit in a repository.
    writeFileSync(fileOf(7 * i + 1), generateProfile(1024, { name: `edited-${i}`, mistakes: i % 2 === 0 }));
    samples.node.push(timeProcess(process.execPath, ['-e', '0']));
    samples.cached.push(timeProcess(process.execPath, cached, { okCodes: [1] }));
    samples.uncached.push(timeProcess(process.execPath, lint([]), { okCodes: [1] }));
  }
  const time = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, median(values)]));
  console.log(
    `lint-cache: ${FILES.toLocaleString('en')} generated profiles, 10% with mistakes, one edited before each run; median of ${RUNS} alternating runs`,
  );
  console.log(`  node -e 0 (baseline)        ${ms(time.node)}`);
  console.log(`  kurel lint --cache          ${ms(time.cached)}  ${ratio(time.cached / time.node)}`);
  console.log(`  kurel lint (no cache)       ${ms(time.uncached)}  ${ratio(time.uncached / time.node)}`);
  budgets.atMost(`re-lint ${FILES.toLocaleString('en')} profiles after one edit with --cache / node -e 0 (docs/performance.md)`, time.cached / time.node, 2);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
budgets.finish();
