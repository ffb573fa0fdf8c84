// Cost against input size, one dimension at a time (`npm run bench -- scaling`; README.md,
// "Limits": no operation's time or memory grows faster than linearly in its input). Each
// dimension (a scalar's length, an enum's size times its values' length, values failing a large
// enum, a key's length, the
// number of documents, empty documents of each shape, definitions, keys and list items, nesting
// depth, a value's length against a pattern, a pattern's program size, a text open in the
// language server, the wildcards of a `.kurel.yaml` glob and of a glob argument's extglobs over
// long names) is grown in 4x steps; each size is one `kurel lint` (or one `kurel lsp` session)
// in a fresh process, timed from
// spawn to exit, its peak resident memory read from the kernel. A tiny input of the same shape
// is run first: what a size costs is its time (and memory) beyond that one's, so the process's
// start does not hide the growth. Budget per dimension: each 4x step may cost at most 6x the
// time and 6x the memory of the step before (linear growth and noise; quadratic growth is
// 16x). A step over budget is measured once more, and the lower figures count. Costs under
// 100 ms or 8 MiB count as 100 ms or 8 MiB: below that, the noise is larger than the cost.
// The sizes are chosen so that the whole suite runs in about a minute on a quiet machine.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { asMiB, asMs, Budgets } from './lib/budget.mjs';
import { lspSession } from './lib/lsp-session.mjs';
import { now } from './lib/measure.mjs';
import { ROOT, requireBuild } from './lib/servers.mjs';

const CLI = join(ROOT, 'dist', 'cli.cjs');
const PEAK_RSS = join(ROOT, 'bench', 'lib', 'peak-rss.cjs');
const STEP = 4;
const MAX_STEP_RATIO = 6;
const FLOOR_MS = 100;
const FLOOR_MIB = 8;
// A run still going after this long is stopped and counts as over.
const RUN_LIMIT_MS = 20_000;

const HEAD = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n';
const bind = (rendering) => `${HEAD}    cap:\n      rendering:\n${rendering}`;
const definition = (name, properties) =>
  `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: ${name}\nspec:\n  rendering:\n    properties:\n${properties}`;
const CAP = definition(
  'cap',
  "      tier: {type: string}\n      code: {type: string, pattern: '^(a+)+$'}\n      items: {type: array, items: {type: integer}}\n      nested: {type: object}\n",
);
const withCap = (profile, defs = { 'defs/cap.yaml': CAP }) => ({ files: { 'prof.yaml': profile, ...defs }, args: ['prof.yaml', '--definitions', 'defs'] });

/** Each dimension: the sizes it is run at (the first a tiny one, the baseline) and the input of a size. */
const DIMENSIONS = [
  {
    name: 'scalar length (a built-in enum failed)',
    sizes: [16, 512 * 1024],
    input: (n) => ({ files: { 'prof.yaml': `${HEAD}    expose:\n      rendering:\n        controllerType: ${'a'.repeat(n)}\n` }, args: ['prof.yaml'] }),
  },
  {
    name: 'enum options x value length',
    sizes: [64, 128 * 1024],
    input: (n) => {
      // Both grow: the options' count and their length each by 2x a step.
      const length = Math.max(2, Math.round(Math.sqrt(n * 128)));
      const count = Math.max(1, Math.round(n / length));
      const options = Array.from({ length: count }, (_, i) => `${'b'.repeat(length - String(i).length)}${i}`);
      const defs = { 'defs/cap.yaml': definition('cap', `      tier: {type: string, enum: [${options.join(', ')}]}\n`) };
      return withCap(bind(`        tier: ${'b'.repeat(length - 1)}x\n`), defs);
    },
  },
  {
    name: 'values failing an enum of 2,000 options',
    sizes: [1, 125],
    input: (n) => {
      const options = Array.from({ length: 2000 }, (_, i) => `option-${i}`);
      const defs = { 'defs/cap.yaml': definition('cap', `      tiers: {type: array, items: {type: string, enum: [${options.join(', ')}]}}\n`) };
      return withCap(bind(`        tiers:\n${Array.from({ length: n }, (_, i) => `          - wrong-${i}\n`).join('')}`), defs);
    },
  },
  {
    name: 'key length (an unknown explicit key)',
    sizes: [16, 256 * 1024],
    input: (n) => withCap(bind(`        ? ${'k'.repeat(n)}\n        : 1\n`)),
  },
  {
    name: 'documents after a profile',
    sizes: [1, 2_000],
    input: (n) => ({ files: { 'prof.yaml': `${HEAD}    expose: {}\n${'---\na: 1\n'.repeat(n)}` }, args: ['prof.yaml'] }),
  },
  {
    name: 'empty documents (--- lines)',
    sizes: [1, 192 * 1024],
    input: (n) => ({ files: { 'prof.yaml': `${HEAD}    expose: {}\n${'---\n'.repeat(n)}` }, args: ['prof.yaml'] }),
  },
  {
    name: 'empty documents (--- and ... lines alternating)',
    sizes: [1, 96 * 1024],
    input: (n) => ({ files: { 'prof.yaml': `${HEAD}    expose: {}\n${'--- \n...\n'.repeat(n)}` }, args: ['prof.yaml'] }),
  },
  {
    name: 'empty documents (--- #c lines)',
    sizes: [1, 128 * 1024],
    input: (n) => ({ files: { 'prof.yaml': `${HEAD}    expose: {}\n${'--- #c\n'.repeat(n)}` }, args: ['prof.yaml'] }),
  },
  {
    name: 'definitions',
    sizes: [1, 200],
    input: (n) => {
      const docs = Array.from({ length: n }, (_, i) => definition(`cap-${i}`, '      size: {type: integer}\n')).join('---\n');
      return withCap(bind('        tier: gold\n'), { 'defs/cap.yaml': `${CAP}---\n${docs}` });
    },
  },
  {
    name: 'keys (each an unknown field)',
    sizes: [1, 2_000],
    input: (n) => withCap(bind(Array.from({ length: n }, (_, i) => `        key${i}: 1\n`).join(''))),
  },
  {
    name: 'list items',
    sizes: [1, 32_000],
    input: (n) => withCap(bind(`        items:\n${'          - 1\n'.repeat(n)}`)),
  },
  {
    name: 'nesting depth (past the limit)',
    sizes: [1, 4_000],
    input: (n) => withCap(bind(`        nested: {a: ${'['.repeat(n)}${']'.repeat(n)}}\n`)),
  },
  {
    name: 'value length against a pattern',
    sizes: [1, 256 * 1024],
    input: (n) => withCap(bind(`        code: ${'a'.repeat(n)}b\n`)),
  },
  {
    // `(?:a?…×k){1000}` is 2,000·k instructions: 6,000, 24,000 and 96,000 (the limit is 100,000),
    // compiled and run over a value of 200 characters.
    name: 'pattern program size',
    sizes: [1, 3],
    input: (k) =>
      withCap(bind(`        slow: ${'a'.repeat(200)}b\n`), {
        'defs/cap.yaml': definition('cap', `      slow: {type: string, pattern: '^(?:${'a?'.repeat(k)}){1000}$'}\n`),
      }),
  },
  {
    // The shape that held the server's thread: a value of `[` as long as the text allows.
    name: 'text open in the language server (a hover and a completion)',
    sizes: [16, 64 * 1024],
    input: (n) => ({ files: { 'clusters/open.yaml': '' }, text: `${HEAD}    expose:\n      rendering:\n        controllerType: ${'['.repeat(n)}\n` }),
    measure: measureLsp,
  },
  {
    name: 'stars of a .kurel.yaml ignore glob, over 100 long names',
    sizes: [1, 8],
    input: (n) => ({ files: { '.kurel.yaml': `ignore: ["${'*a'.repeat(n)}*b.yaml"]\n`, ...longNames(), 'prof.yaml': `${HEAD}    expose: {}\n` }, args: ['.'] }),
  },
  {
    name: 'extglobs of a glob argument, over 100 long names',
    sizes: [1, 8],
    input: (n) => ({
      files: { ...longNames(), [`${'a'.repeat(n)}b.yaml`]: `${HEAD}    expose: {}\n` },
      args: [`${'+(a)'.repeat(n)}[b].yaml`],
    }),
  },
];
const STEPS = 3;

/** 100 files whose names are 200 `a`s and a number: no glob above matches them, the costliest case for a backtracking matcher. */
function longNames() {
  return Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${'a'.repeat(200)}-${i}.yaml`, 'a: 1\n']));
}

requireBuild();
const budgets = new Budgets();
const started = now();
// `BENCH_SCALING_ONLY=documents` runs only the dimensions whose name holds that text.
const only = process.env.BENCH_SCALING_ONLY;
for (const dimension of DIMENSIONS.filter((d) => only === undefined || d.name.includes(only))) {
  const [tiny, first] = dimension.sizes;
  const sizes = [first, first * STEP, first * STEP * STEP].slice(0, STEPS);
  console.log(`\n${dimension.name}`);
  // The baseline is the quickest of three runs: a slow one would make every size look cheap.
  const measureOf = dimension.measure ?? measure;
  const bases = [];
  for (let i = 0; i < 3; i++) bases.push(await measureOf(dimension.input(tiny)));
  const base = bases.find((run) => !run.ok) ?? bases.reduce((a, b) => (b.ms < a.ms ? b : a));
  if (!base.ok) {
    budgets.unmeasured(dimension.name, base.reason);
    continue;
  }
  console.log(`  ${'size'.padStart(10)}  ${'time'.padStart(9)}  ${'peak'.padStart(8)}`);
  console.log(`  ${String(tiny).padStart(10)}  ${asMs(base.ms).padStart(9)}  ${asMiB(base.mib).padStart(8)}  (baseline)`);
  const runs = [];
  for (const size of sizes) {
    const run = await measureOf(dimension.input(size));
    runs.push(run);
    console.log(`  ${String(size).padStart(10)}  ${run.ok ? asMs(run.ms).padStart(9) : 'failed'.padStart(9)}  ${run.ok ? asMiB(run.mib).padStart(8) : ''}`);
    if (!run.ok) break;
  }
  const broken = runs.find((run) => !run.ok);
  if (broken) {
    budgets.unmeasured(`${dimension.name}`, broken.reason);
    continue;
  }
  const cost = (run) => ({ ms: Math.max(FLOOR_MS, run.ms - base.ms), mib: Math.max(FLOOR_MIB, run.mib - base.mib) });
  const timeRatios = [];
  const memoryRatios = [];
  for (let i = 1; i < runs.length; i++) {
    let [before, after] = [cost(runs[i - 1]), cost(runs[i])];
    if (after.ms / before.ms > MAX_STEP_RATIO || after.mib / before.mib > MAX_STEP_RATIO) {
      // Noise (another process on the machine) is ruled out by measuring both sizes again.
      const again = [await measureOf(dimension.input(sizes[i - 1])), await measureOf(dimension.input(sizes[i]))];
      if (again.every((run) => run.ok)) {
        const [b, a] = again.map(cost);
        before = { ms: Math.min(before.ms, b.ms), mib: Math.min(before.mib, b.mib) };
        after = { ms: Math.min(after.ms, a.ms), mib: Math.min(after.mib, a.mib) };
      }
    }
    timeRatios.push(after.ms / before.ms);
    memoryRatios.push(after.mib / before.mib);
  }
  const shown = (ratios) => ratios.map((r) => `${r.toFixed(1)}x`).join(', ');
  budgets.atMost(`${dimension.name}: time per 4x step (${shown(timeRatios)}), the steepest`, Math.max(...timeRatios), MAX_STEP_RATIO);
  budgets.atMost(`${dimension.name}: memory per 4x step (${shown(memoryRatios)}), the steepest`, Math.max(...memoryRatios), MAX_STEP_RATIO);
}
console.log(`\nscaling suite: ${((now() - started) / 1000).toFixed(0)} s`);
budgets.finish();

/** One `kurel lint` of generated files in a fresh folder and process: wall time and peak memory. */
function measure({ files, args }) {
  const dir = mkdtempSync(join(tmpdir(), 'kurel-scaling-'));
  const peakFile = join(dir, 'peak-rss');
  try {
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    const start = now();
    const run = spawnSync(process.execPath, ['-r', PEAK_RSS, CLI, 'lint', ...args, '--format', 'json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', BENCH_PEAK_RSS_FILE: peakFile },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: RUN_LIMIT_MS,
      maxBuffer: 256 * 1024 * 1024,
    });
    const ms = now() - start;
    if (run.error) return { ok: false, reason: run.error.message };
    // 0 or 1: a report; anything else (2 is an internal error here, a signal a crash) is a failure.
    if (run.status !== 0 && run.status !== 1) return { ok: false, reason: `exit ${run.status ?? run.signal}: ${String(run.stderr).slice(0, 200)}` };
    return { ok: true, ms, mib: Number(readFileSync(peakFile, 'utf8')) / 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One `kurel lsp` session on a generated text in a fresh repository: wall time and peak memory. */
async function measureLsp({ files, text }) {
  const root = mkdtempSync(join(tmpdir(), 'kurel-scaling-lsp-'));
  try {
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), content);
    }
    // On the key of the long value, and at the start of a new key under the rendering.
    return await lspSession({
      cli: CLI,
      peakRss: PEAK_RSS,
      root,
      file: 'clusters/open.yaml',
      text,
      hover: { line: 8, character: 10 },
      complete: { line: 8, character: 8 },
      limitMs: RUN_LIMIT_MS,
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
