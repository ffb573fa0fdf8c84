// Wall time of `kurel lint` on one typical profile against bare `node -e 0`, measured in the
// same run, alternating, so machine noise hits both alike (docs/performance.md: within 1.3x).
// The budget is the warm start, every run after a command's first (docs/performance.md, "Warm
// start"): the code cache lives in a folder of this run's own. A run without the cache is printed beside it.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Budgets } from './lib/budget.mjs';
import { median, ms, ratio, timeProcess } from './lib/measure.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const BUDGET = 1.3;

// The repository's example when it is there; otherwise the same document written aside.
const TYPICAL = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: staging-minimal
spec:
  capabilities:
    expose:
      rendering:
        controllerType: ingress
        ingressClassName: traefik
`;

if (!existsSync(CLI)) {
  console.error('dist/cli.cjs is missing: run npm run build first');
  process.exit(1);
}
const scratch = mkdtempSync(join(tmpdir(), 'kurel-bench-'));
process.env.KUREL_CACHE_DIR = join(scratch, 'cache');
let profile = join(ROOT, 'profiles', 'minimal.yaml');
if (!existsSync(profile)) {
  profile = join(scratch, 'minimal.yaml');
  writeFileSync(profile, TYPICAL);
}

const variants = [
  { name: 'kurel lint', args: [CLI, 'lint', profile] },
  { name: 'kurel lint --format json', args: [CLI, 'lint', profile, '--format', 'json'] },
  { name: 'kurel lint, no code cache', args: [CLI, 'lint', profile], env: { KUREL_CODE_CACHE: 'off' }, unbudgeted: true },
];
const baseline = [];
const samples = variants.map(() => []);
// One warm-up of each so the first figure does not pay for a cold file cache.
timeProcess(process.execPath, ['-e', '0']);
for (const v of variants) timeProcess(process.execPath, v.args, { cwd: ROOT, env: v.env });
for (let i = 0; i < RUNS; i++) {
  baseline.push(timeProcess(process.execPath, ['-e', '0']));
  for (const [k, v] of variants.entries()) samples[k].push(timeProcess(process.execPath, v.args, { cwd: ROOT, env: v.env }));
}

const budgets = new Budgets();
const base = median(baseline);
console.log(`lint startup: ${profile.startsWith(ROOT) ? profile.slice(ROOT.length) : 'a minimal profile'}, median of ${RUNS} alternating runs`);
console.log(`  node -e 0 (baseline)            ${ms(base)}`);
const figures = variants.map((_v, k) => median(samples[k]));
for (const [k, v] of variants.entries()) console.log(`  ${v.name.padEnd(31)} ${ms(figures[k])}  ${ratio(figures[k] / base)}`);

// Peak memory, from a separate run each (reading it does not disturb the timings above).
const rss = (args) => {
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const match = /maxrss=(\d+)/.exec(run.stderr);
  return match ? Number(match[1]) / 1024 : NaN;
};
const report = "process.on('exit', () => process.stderr.write('maxrss=' + process.resourceUsage().maxRSS));";
const baseRss = rss(['-e', report]);
const lintRss = rss([
  '--input-type=module',
  '-e',
  `${report} process.argv = [process.execPath, ${JSON.stringify(CLI)}, 'lint', ${JSON.stringify(profile)}]; await import(${JSON.stringify(pathToFileURL(CLI).href)});`,
]);
console.log(`  peak RSS: node -e 0 ${baseRss.toFixed(1)} MB, kurel lint ${lintRss.toFixed(1)} MB  ${ratio(lintRss / baseRss)}`);
for (const [k, v] of variants.entries()) if (!v.unbudgeted) budgets.atMost(`${v.name} / node -e 0 (docs/performance.md)`, figures[k] / base, BUDGET);
rmSync(scratch, { recursive: true, force: true });
budgets.finish();
