// kurel next to the tools a platform engineer would otherwise use, on the same generated files
// (docs/performance.md). Nothing is installed at run time: the peers are pinned dev dependencies.
// - `kurel lint` of 1,000 small profiles against `ajv-cli validate` with the JSON Schema that
//   `kurel schema` prints, on the YAML files and on the same profiles as JSON files, and
//   against a script that only reads the YAML files with js-yaml (lib/js-yaml-floor.mjs);
// - `kurel lint` of one 1 MB profile against the same js-yaml read of it;
// - peak memory of `kurel lint` of the 1,000 profiles against the js-yaml read of them.
// Wall times are medians of alternating runs; peak memory is each process's maxrss
// (lib/peak-rss.cjs), medians of alternating runs apart from the timed ones.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Budgets } from './lib/budget.mjs';
import { generateProfile } from './lib/generate-profile.mjs';
import { median, ms, ratio, timeProcess } from './lib/measure.mjs';
import { CLI, ROOT, requireBuild } from './lib/servers.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MEMORY_RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? 3);
const FILES = 1000;
const N = FILES.toLocaleString('en-US');
const AJV_CLI = join(ROOT, 'node_modules', 'ajv-cli', 'dist', 'index.js');
const FLOOR = fileURLToPath(new URL('./lib/js-yaml-floor.mjs', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('./lib/peak-rss.cjs', import.meta.url));

requireBuild();
const scratch = mkdtempSync(join(tmpdir(), 'kurel-bench-peers-'));
const budgets = new Budgets();
try {
  const yamlDir = join(scratch, 'yaml');
  const jsonDir = join(scratch, 'json');
  mkdirSync(yamlDir);
  mkdirSync(jsonDir);
  let yamlBytes = 0;
  let jsonBytes = 0;
  const jsonFiles = [];
  for (let i = 0; i < FILES; i++) {
    // Small profiles of 1 to 2 KB, each its own cluster.
    const text = generateProfile(1024 + (i % 8) * 128, { name: `cluster-${i}` });
    const json = `${JSON.stringify(parse(text), null, 2)}\n`;
    const name = `cluster-${String(i).padStart(4, '0')}`;
    writeFileSync(join(yamlDir, `${name}.yaml`), text);
    writeFileSync(join(jsonDir, `${name}.json`), json);
    jsonFiles.push(join(jsonDir, `${name}.json`));
    yamlBytes += Buffer.byteLength(text);
    jsonBytes += Buffer.byteLength(json);
  }
  const big = join(scratch, 'big.yaml');
  writeFileSync(big, generateProfile(1024 * 1024, { name: 'one-large-cluster' }));
  const schema = join(scratch, 'cluster-profile.schema.json');
  const printed = spawnSync(process.execPath, [CLI, 'schema'], { encoding: 'utf8' });
  if (printed.status !== 0) throw new Error(`kurel schema failed: ${printed.stderr}`);
  writeFileSync(schema, printed.stdout);

  const ajv = (pattern) => [AJV_CLI, 'validate', '--spec=draft2020', '-s', schema, '-d', pattern];
  const commands = {
    kurelYaml: { name: `kurel lint, ${N} YAML files`, args: [CLI, 'lint', yamlDir] },
    ajvYaml: { name: `ajv-cli validate, ${N} YAML files`, args: ajv(join(yamlDir, '*.yaml')) },
    floorYaml: { name: `js-yaml read-only, ${N} YAML files`, args: [FLOOR, yamlDir] },
    kurelJson: { name: `kurel lint, ${N} JSON files`, args: [CLI, 'lint', ...jsonFiles] },
    ajvJson: { name: `ajv-cli validate, ${N} JSON files`, args: ajv(join(jsonDir, '*.json')) },
    kurelBig: { name: 'kurel lint, one 1 MB profile', args: [CLI, 'lint', big] },
    floorBig: { name: 'js-yaml read-only, one 1 MB profile', args: [FLOOR, big] },
  };
  checkVerdicts(commands);

  const samples = Object.fromEntries(Object.keys(commands).map((key) => [key, []]));
  // checkVerdicts ran every command once: the files are in the page cache for all of them.
  for (let i = 0; i < RUNS; i++) {
    for (const [key, { args }] of Object.entries(commands)) samples[key].push(timeProcess(process.execPath, args));
  }
  const time = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, median(values)]));

  const memory = { kurelYaml: [], floorYaml: [] };
  for (let i = 0; i < MEMORY_RUNS; i++) {
    for (const key of Object.keys(memory)) memory[key].push(peakRssMiB(commands[key].args));
  }
  const rss = Object.fromEntries(Object.entries(memory).map(([key, values]) => [key, median(values)]));

  console.log(
    `peers: ${N} generated profiles (${(yamlBytes / 1024).toFixed(0)} KB of YAML, ${(jsonBytes / 1024).toFixed(0)} KB as JSON), one 1 MB profile; median of ${RUNS} alternating runs`,
  );
  for (const [key, { name }] of Object.entries(commands)) console.log(`  ${name.padEnd(40)} ${ms(time[key]).padStart(10)}`);
  console.log(
    `  peak RSS, median of ${MEMORY_RUNS}: kurel lint ${rss.kurelYaml.toFixed(1)} MiB, js-yaml read-only ${rss.floorYaml.toFixed(1)} MiB (${N} YAML files)`,
  );
  console.log(
    `  ratios: kurel/ajv-cli YAML ${ratio(time.kurelYaml / time.ajvYaml)}, JSON ${ratio(time.kurelJson / time.ajvJson)}; kurel/js-yaml floor ${ratio(time.kurelYaml / time.floorYaml)}, 1 MB ${ratio(time.kurelBig / time.floorBig)}`,
  );
  budgets.below(`lint ${N} YAML profiles / ajv-cli on the same files (docs/performance.md)`, time.kurelYaml / time.ajvYaml, 1);
  budgets.below(`lint ${N} JSON profiles / ajv-cli on the same files (docs/performance.md)`, time.kurelJson / time.ajvJson, 1);
  budgets.atMost(`lint ${N} YAML profiles / js-yaml read-only floor (docs/performance.md)`, time.kurelYaml / time.floorYaml, 1.5);
  budgets.atMost('lint a 1 MB profile / js-yaml read-only floor (docs/performance.md)', time.kurelBig / time.floorBig, 1.5);
  budgets.atMost(`peak RSS linting ${N} profiles / js-yaml read-only floor (docs/performance.md)`, rss.kurelYaml / rss.floorYaml, 1.2);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
budgets.finish();

/** Every tool must find every generated file valid (exit 0), or the race is not on the same work. */
function checkVerdicts(commands) {
  for (const { name, args } of Object.values(commands)) {
    const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`${name} did not find the files valid (exit ${run.status}): ${(run.stderr || run.stdout).slice(0, 500)}`);
  }
  const files = spawnSync(process.execPath, [CLI, 'lint', '--format', 'json', ...commands.kurelJson.args.slice(2)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(files.stdout);
  const checked = report.files.filter((f) => f.status === 'checked' && f.kind === 'ClusterProfile').length;
  if (checked !== FILES || report.diagnostics.length > 0)
    throw new Error(`kurel lint checked ${checked} of ${FILES} JSON profiles with ${report.diagnostics.length} diagnostics`);
}

/** Peak resident memory in MiB of one run of `node <args>`. */
function peakRssMiB(args) {
  const file = join(scratch, 'peak-rss');
  rmSync(file, { force: true });
  const run = spawnSync(process.execPath, ['-r', PEAK_RSS, ...args], { stdio: 'ignore', env: { ...process.env, BENCH_PEAK_RSS_FILE: file } });
  if (run.status !== 0) throw new Error(`node ${args.join(' ').slice(0, 200)} exited ${run.status}`);
  return Number(readFileSync(file, 'utf8')) / 1024;
}
