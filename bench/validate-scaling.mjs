// kurel's schema checks against a plain YAML parse of the same text, on generated profiles of
// 1 KB to 5 MB, clean and with mistakes (docs/performance.md: the checks at most 0.05x the parse at every
// size, per-byte cost flat; docs/performance.md: floors measured with js-yaml as well as with `yaml`, warm and
// cold). "Checks" is what kurel does after its parse: evaluating the profile and positioning
// each problem. The parse is a plain one (`yaml`'s `parse`, js-yaml's `load`), not kurel's own
// parse-and-convert; `yaml` runs with `uniqueKeys: false` as in kurel (which finds duplicate
// keys itself): with the default, its duplicate check is quadratic in a map's size and a 5 MB
// profile's parse takes ten times longer, which would flatter the ratio. Warm figures are medians of alternating calls in this process; cold ones
// are one call in a fresh process each (lib/cold-call.mjs), medians of alternating processes.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { parse } from 'yaml';
import { Budgets } from './lib/budget.mjs';
import { generateProfile } from './lib/generate-profile.mjs';
import { median, ms, ratio, timeCalls } from './lib/measure.mjs';

const LIBRARY = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const COLD_CALL = fileURLToPath(new URL('./lib/cold-call.mjs', import.meta.url));
if (!existsSync(LIBRARY)) {
  console.error('dist/index.js is missing: run npm run build first');
  process.exit(1);
}
const { createCatalogue, evaluateProfile, parseYamlStream } = await import(LIBRARY);

const BUDGET = 0.05;
const YAML_OPTIONS = { uniqueKeys: false };
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
// A size's cold runs: each 5 MB process parses for seconds, so one there (its noise is small
// next to its length), three at 1 MB.
// Fresh-process runs per size: the largest parses take seconds each.
const coldRuns = (bytes) => {
  if (bytes >= 5 * 1024 * 1024) return 1;
  return bytes >= 1024 * 1024 ? Math.min(3, COLD_RUNS) : COLD_RUNS;
};
const SIZES = [
  ['1 KB', 1024],
  ['100 KB', 100 * 1024],
  ['1 MB', 1024 * 1024],
  ['5 MB', 5 * 1024 * 1024],
];
const KINDS = [
  { name: 'clean', mistakes: false },
  { name: 'with mistakes', mistakes: true },
];
// The largest size takes seconds a call (tens under load): one warm-up call and two rounds there.
const isLarge = (bytes) => bytes >= 5 * 1024 * 1024;

console.log('validate scaling: kurel checks (evaluate, position problems) against a plain parse of the same text (median ms per call)');
console.log(
  `  cold: one call in a fresh process, median of ${COLD_RUNS} alternating processes (${coldRuns(1024 * 1024)} at 1 MB, ${coldRuns(5 * 1024 * 1024)} at 5 MB)`,
);
console.log(
  `  ${'profile'.padEnd(14)} ${'size'.padEnd(6)} ${'problems'.padStart(8)} | ${'warm: yaml'.padStart(10)} ${'js-yaml'.padStart(9)} ${'checks'.padStart(9)} ${'/yaml'.padStart(7)} ${'/js-yaml'.padStart(8)} | ${'cold: yaml'.padStart(10)} ${'js-yaml'.padStart(9)} ${'checks'.padStart(9)} ${'/yaml'.padStart(7)} ${'/js-yaml'.padStart(8)}`,
);
// Each row is printed as soon as it is measured, so a run stopped early still shows what it had.
function printRow(r) {
  const side = (f) =>
    `${ms(f.yaml).padStart(10)} ${ms(f.jsYaml).padStart(9)} ${ms(f.check).padStart(9)} ${ratio(f.check / f.yaml).padStart(7)} ${ratio(f.check / f.jsYaml).padStart(8)}`;
  console.log(`  ${r.kind.padEnd(14)} ${r.label.padEnd(6)} ${String(r.problems).padStart(8)} | ${side(r.warm)} | ${side(r.cold)}`);
}

const registry = createCatalogue();
const scratch = mkdtempSync(join(tmpdir(), 'kurel-bench-scaling-'));
const rows = [];
try {
  for (const kind of KINDS) {
    for (const [label, target] of SIZES) {
      const text = generateProfile(target, { mistakes: kind.mistakes });
      const bytes = Buffer.byteLength(text);
      const document = checkGenerated(text, kind, label);
      const checks = () => evaluateProfile(document.data, registry, 'warning').issues.map((issue) => document.toDiagnostic(issue));
      const problems = checks().length;
      const [yaml, jsYaml, check] = timeCalls([() => parse(text, YAML_OPTIONS), () => load(text), checks], {
        rounds: isLarge(target) ? 2 : 5,
        roundMs: 300,
        warmUpMs: 200,
        warmUpCalls: isLarge(target) ? 1 : 2,
      });
      const file = join(scratch, `${kind.mistakes ? 'broken' : 'clean'}-${target}.yaml`);
      writeFileSync(file, text);
      const cold = coldFigures(file, coldRuns(target));
      rows.push({ kind: kind.name, label, bytes, problems, warm: { yaml, jsYaml, check }, cold });
      printRow(rows.at(-1));
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const nsPerByte = (value, bytes) => (value * 1e6) / bytes;
const spread = (values) => Math.max(...values) / Math.min(...values);
for (const kind of KINDS) {
  const of = rows.filter((r) => r.kind === kind.name);
  const perByte = (key) => of.map((r) => nsPerByte(r.warm[key], r.bytes));
  console.log(
    `  ${kind.name}, warm ns per byte from 1 KB to 5 MB: yaml ${perByte('yaml')
      .map((n) => n.toFixed(0))
      .join(' ')}, js-yaml ${perByte('jsYaml')
      .map((n) => n.toFixed(0))
      .join(' ')}, checks ${perByte('check')
      .map((n) => n.toFixed(0))
      .join(' ')} (largest over smallest: checks ${ratio(spread(perByte('check')))}; flat is 1x)`,
  );
}

// One budget line per kind of profile, temperature and floor: the worst size decides ("at every size").
const budgets = new Budgets();
for (const kind of KINDS) {
  for (const temperature of ['warm', 'cold']) {
    for (const [floor, key] of [
      ['yaml parse', 'yaml'],
      ['js-yaml load', 'jsYaml'],
    ]) {
      const of = rows.filter((r) => r.kind === kind.name);
      const worst = of.reduce((a, b) => (b[temperature].check / b[temperature][key] > a[temperature].check / a[temperature][key] ? b : a));
      budgets.atMost(
        `checks / ${floor}, ${kind.name}, ${temperature}, worst size (${worst.label}) (docs/performance.md)`,
        worst[temperature].check / worst[temperature][key],
        BUDGET,
      );
    }
  }
}
budgets.finish();

/** The generated profile must be what it claims (clean, or with problems but no YAML error), or the figures mean nothing. */
function checkGenerated(text, kind, label) {
  const stream = parseYamlStream(text, 'bench.yaml');
  const document = stream.documents[0];
  const evaluation = evaluateProfile(document.data, registry, 'warning');
  const yamlProblems = [...stream.diagnostics, ...document.diagnostics];
  if (yamlProblems.length > 0) throw new Error(`the generated ${label} profile has YAML problems: ${JSON.stringify(yamlProblems.slice(0, 3))}`);
  if (!kind.mistakes && (evaluation.issues.length > 0 || !evaluation.resolved)) {
    throw new Error(`the generated ${label} profile is not valid: ${JSON.stringify(evaluation.issues.slice(0, 3))}`);
  }
  if (kind.mistakes && evaluation.issues.length === 0) throw new Error(`the generated ${label} profile with mistakes has no problem`);
  return document;
}

/** Medians of one cold call of each kind, in fresh processes taking turns. */
function coldFigures(file, runs) {
  const samples = { yaml: [], jsYaml: [], check: [] };
  for (let i = 0; i < runs; i++) {
    for (const [key, what] of [
      ['yaml', 'yaml'],
      ['jsYaml', 'js-yaml'],
      ['check', 'checks'],
    ]) {
      const run = spawnSync(process.execPath, [COLD_CALL, what, file, LIBRARY], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`cold ${what} of ${file} failed: ${run.stderr}`);
      samples[key].push(JSON.parse(run.stdout).ms);
    }
  }
  return { yaml: median(samples.yaml), jsYaml: median(samples.jsYaml), check: median(samples.check) };
}
