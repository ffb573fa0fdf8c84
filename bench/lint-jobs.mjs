// `kurel lint` over many files on every core (docs/performance.md), on generated profiles of 1 to 2 KB:
// - 10,000 clean profiles with `--jobs 2` against `--jobs 1` (the same process, one thread);
// - 1,000 profiles of which 10% have mistakes against the js-yaml read-only floor
//   (lib/js-yaml-floor.mjs), and 10,000 such profiles against ajv-cli on the same files;
// - peak memory linting 10,000 clean profiles against the js-yaml read of them.
// Wall times are medians of alternating runs; peak memory is each process's maxrss
// (lib/peak-rss.cjs); CPU time (user + system, every thread: lib/cpu-usage.cjs) of `--jobs 1`
// and `--jobs 2` is printed beside them, what a busy machine changes least. Stops by itself.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Budgets } from './lib/budget.mjs';
import { generateProfile } from './lib/generate-profile.mjs';
import { median, ms, ratio, timeProcess } from './lib/measure.mjs';
import { CLI, ROOT, requireBuild } from './lib/servers.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MEMORY_RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? 3);
const AJV_CLI = join(ROOT, 'node_modules', 'ajv-cli', 'dist', 'index.js');
const FLOOR = fileURLToPath(new URL('./lib/js-yaml-floor.mjs', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('./lib/peak-rss.cjs', import.meta.url));
const CPU_USAGE = fileURLToPath(new URL('./lib/cpu-usage.cjs', import.meta.url));

requireBuild();
const scratch = mkdtempSync(join(tmpdir(), 'kurel-bench-jobs-'));
const budgets = new Budgets();
try {
  const clean = writeProfiles('clean', 10_000, () => false);
  const mixed = writeProfiles('mixed', 1_000, (i) => i % 10 === 0);
  const mixedMany = writeProfiles('mixed-many', 10_000, (i) => i % 10 === 0);
  const schema = join(scratch, 'cluster-profile.schema.json');
  const printed = spawnSync(process.execPath, [CLI, 'schema'], { encoding: 'utf8' });
  if (printed.status !== 0) throw new Error(`kurel schema failed: ${printed.stderr}`);
  writeFileSync(schema, printed.stdout);
  const ajv = (dir) => [AJV_CLI, 'validate', '--spec=draft2020', '--all-errors', '-s', schema, '-d', join(dir, '*.yaml')];

  const commands = {
    jobs1: { args: [CLI, 'lint', clean, '--jobs', '1'], ok: [0] },
    jobs2: { args: [CLI, 'lint', clean, '--jobs', '2'], ok: [0] },
    mixed: { args: [CLI, 'lint', mixed], ok: [1] },
    mixedFloor: { args: [FLOOR, mixed], ok: [0] },
    mixedMany: { args: [CLI, 'lint', mixedMany], ok: [1] },
    mixedManyAjv: { args: ajv(mixedMany), ok: [1] },
  };
  const samples = Object.fromEntries(Object.keys(commands).map((key) => [key, []]));
  for (const { args, ok } of Object.values(commands)) timeProcess(process.execPath, args, { okCodes: ok });
  for (let i = 0; i < RUNS; i++) {
    for (const [key, { args, ok }] of Object.entries(commands)) samples[key].push(timeProcess(process.execPath, args, { okCodes: ok }));
  }
  const time = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, median(values)]));
  const memory = { kurel: [], floor: [] };
  const cpu = { jobs1: [], jobs2: [] };
  for (let i = 0; i < MEMORY_RUNS; i++) {
    memory.kurel.push(peakRssMiB([CLI, 'lint', clean], [0]));
    memory.floor.push(peakRssMiB([FLOOR, clean], [0]));
    cpu.jobs1.push(cpuMs(commands.jobs1.args, commands.jobs1.ok));
    cpu.jobs2.push(cpuMs(commands.jobs2.args, commands.jobs2.ok));
  }
  const rss = { kurel: median(memory.kurel), floor: median(memory.floor) };

  console.log(`lint-jobs: generated profiles of 1 to 2 KB; median of ${RUNS} alternating runs`);
  for (const [key, { args }] of Object.entries(commands))
    console.log(`  ${key.padEnd(13)} ${ms(time[key]).padStart(10)}  ${args.slice(1).join(' ').replaceAll(scratch, '…')}`);
  const cpuJobs = { jobs1: median(cpu.jobs1), jobs2: median(cpu.jobs2) };
  console.log(
    `  CPU, median of ${MEMORY_RUNS}: --jobs 1 ${ms(cpuJobs.jobs1)}, --jobs 2 ${ms(cpuJobs.jobs2)} (${ratio(cpuJobs.jobs2 / cpuJobs.jobs1)} the CPU of one thread)`,
  );
  console.log(`  peak RSS, median of ${MEMORY_RUNS}: kurel lint ${rss.kurel.toFixed(1)} MiB, js-yaml read-only ${rss.floor.toFixed(1)} MiB (10,000 files)`);
  console.log(
    `  ratios: jobs 1 / jobs 2 ${ratio(time.jobs1 / time.jobs2)}; 10% mistakes / floor ${ratio(time.mixed / time.mixedFloor)}; / ajv-cli ${ratio(time.mixedMany / time.mixedManyAjv)}`,
  );
  budgets.atLeast('lint 10,000 profiles: --jobs 1 / --jobs 2 (docs/performance.md)', time.jobs1 / time.jobs2, 1.6);
  budgets.atMost('lint 1,000 profiles, 10% with mistakes / js-yaml read-only floor (docs/performance.md)', time.mixed / time.mixedFloor, 2);
  budgets.below(
    'lint 10,000 profiles, 10% with mistakes / ajv-cli --all-errors on the same files (docs/performance.md)',
    time.mixedMany / time.mixedManyAjv,
    1,
  );
  budgets.atMost('peak RSS linting 10,000 profiles / js-yaml read-only floor (docs/performance.md)', rss.kurel / rss.floor, 1.2);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
budgets.finish();

// A folder of `count` profiles, those `hasMistakes(i)` picks with the usual mistakes.
function writeProfiles(name, count, hasMistakes) {
  const dir = join(scratch, name);
  mkdirSync(dir);
  for (let i = 0; i < count; i++) {
    const text = generateProfile(1024 + (i % 8) * 128, { name: `cluster-${i}`, mistakes: hasMistakes(i) });
    writeFileSync(join(dir, `cluster-${String(i).padStart(5, '0')}.yaml`), text);
  }
  return dir;
}

/** CPU milliseconds (user + system, every thread) of one run of `node <args>`. */
function cpuMs(args, okCodes) {
  const file = join(scratch, 'cpu');
  rmSync(file, { force: true });
  const run = spawnSync(process.execPath, ['-r', CPU_USAGE, ...args], { stdio: 'ignore', env: { ...process.env, BENCH_CPU_FILE: file } });
  if (!okCodes.includes(run.status)) throw new Error(`node ${args.join(' ').slice(0, 200)} exited ${run.status}`);
  return Number(readFileSync(file, 'utf8'));
}

/** Peak resident memory in MiB of one run of `node <args>`. */
function peakRssMiB(args, okCodes) {
  const file = join(scratch, 'peak-rss');
  rmSync(file, { force: true });
  const run = spawnSync(process.execPath, ['-r', PEAK_RSS, ...args], { stdio: 'ignore', env: { ...process.env, BENCH_PEAK_RSS_FILE: file } });
  if (!okCodes.includes(run.status)) throw new Error(`node ${args.join(' ').slice(0, 200)} exited ${run.status}`);
  return Number(readFileSync(file, 'utf8')) / 1024;
}
