// Wall time of `kurel lint <neutral profile> --definitions <dir>` with 1, 100 and 1,000
// generated CapabilityDefinition files (docs/performance.md: loading 1,000 files under 1 s; docs/performance.md: 1,000
// definitions with distinct patterns under 1 s too; the figure is the whole run), against bare
// `node -e 0` and a lint with no definitions, measured in the same run, alternating, so machine
// noise hits every figure alike. The files are written to a temporary folder and removed.
//
// Each definition is realistic: six properties using enums, numbers with bounds, a nested
// object, a list with item declarations and patterns. Patterns come from a small set of the
// kind definitions share (names, sizes, durations), as real folders do. Two more rows load
// 1,000 copies of the redis-sidecar fixture (the size of a typical file) and 1,000 files
// with a pattern each of their own (what proving each distinct pattern safe costs). A last
// table splits one cold load into the YAML parse and the definitions' own checks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asMs, Budgets } from './lib/budget.mjs';
import { median, ms, ratio, timeProcess } from './lib/measure.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUDGET_MS = 1000;

const SHARED_PATTERNS = ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', '^[1-9][0-9]*(Mi|Gi|Ti)$', '^[1-9][0-9]*(ms|s|m|h)$', '^/[^\\s?#]*$'];

if (!existsSync(CLI)) {
  console.error('dist/cli.cjs is missing: run npm run build first');
  process.exit(1);
}

function definitionText(index, pattern) {
  return `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: capability-${index}
  labels: {generated: "true"}
spec:
  description: "Generated capability number ${index}"
  rendering:
    properties:
      name:
        type: string
        required: true
        pattern: ${JSON.stringify(pattern)}
        maxLength: 63
      tier:
        type: string
        enum: [bronze, silver, gold]
        default: silver
      replicas:
        type: integer
        minimum: 1
        maximum: 10
        default: 2
      ratio:
        type: number
        minimum: 0
        maximum: 1
      storage:
        type: object
        properties:
          size: {type: string, pattern: ${JSON.stringify(SHARED_PATTERNS[1])}, default: 10Gi}
          className: {type: string, minLength: 1}
      ports:
        type: array
        maxItems: 8
        items:
          type: object
          properties:
            port: {type: integer, minimum: 1, maximum: 65535, required: true}
            protocol: {type: string, enum: [TCP, UDP], default: TCP}
`;
}

const FIXTURE = readFileSync(join(ROOT, 'definitions', 'redis-sidecar.yaml'), 'utf8');

// The redis-sidecar fixture under another name: the size of a typical definition file.
function fixtureText(index) {
  return FIXTURE.replace(/name: redis-sidecar/, `name: redis-sidecar-${index}`);
}

function writeFolder(parent, label, count, textOf) {
  const dir = join(parent, label);
  mkdirSync(dir);
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const text = textOf(i);
    bytes += Buffer.byteLength(text);
    writeFileSync(join(dir, `capability-${String(i).padStart(4, '0')}.yaml`), text);
  }
  return { dir, bytes };
}

const shared = (index) => definitionText(index, SHARED_PATTERNS[index % SHARED_PATTERNS.length]);
const distinct = (index) => definitionText(index, `^id-${index}-[a-z]+$`);

// Where the time of one cold load goes, measured inside a fresh process: reading every file
// as YAML the way the commands do (the fast path when it can), then checking and compiling
// the definitions (CPU milliseconds).
const SPLIT = `
const [library, dir] = process.argv.slice(1);
const { readdirSync, readFileSync } = await import('node:fs');
const { parseYamlStream, createCatalogue } = await import(library);
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const texts = readdirSync(dir).map((f) => [f, readFileSync(dir + '/' + f)]);
let start = cpu();
const documents = texts.flatMap(([f, bytes]) => parseYamlStream(bytes, f).documents);
const parse = cpu() - start;
start = cpu();
const { diagnostics } = createCatalogue().withDefinitions(documents);
const load = cpu() - start;
if (diagnostics.length > 0) throw new Error(JSON.stringify(diagnostics[0]));
console.log(JSON.stringify({ parse, load }));
`;

const budgets = new Budgets();
const scratch = mkdtempSync(join(tmpdir(), 'kurel-bench-defs-'));
try {
  const profile = join(scratch, 'cluster.yaml');
  writeFileSync(profile, 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: neutral\nspec:\n  capabilities: {}\n');
  const variants = [
    { name: 'lint, no definitions', args: [CLI, 'lint', profile] },
    ...[
      ['1 definition file', 1, shared],
      ['100 definition files', 100, shared],
      ['1,000 definition files', 1000, shared],
      ['1,000 fixture-sized files (redis-sidecar)', 1000, fixtureText],
      ['1,000 files, a distinct pattern each', 1000, distinct],
    ].map(([name, count, textOf], k) => {
      const { dir, bytes } = writeFolder(scratch, `set-${k}`, count, textOf);
      return {
        name: `${name}, ${(bytes / 1024).toFixed(0)} KB`,
        count,
        dir,
        distinct: textOf === distinct,
        args: [CLI, 'lint', profile, '--definitions', dir],
      };
    }),
  ];
  const baseline = [];
  const samples = variants.map(() => []);
  timeProcess(process.execPath, ['-e', '0']);
  for (const v of variants) timeProcess(process.execPath, v.args);
  for (let i = 0; i < RUNS; i++) {
    baseline.push(timeProcess(process.execPath, ['-e', '0']));
    for (const [k, v] of variants.entries()) samples[k].push(timeProcess(process.execPath, v.args));
  }

  const base = median(baseline);
  const plain = median(samples[0]);
  console.log(`definitions load: kurel lint of a neutral profile with --definitions, median of ${RUNS} alternating runs`);
  console.log(`  ${'node -e 0 (baseline)'.padEnd(52)} ${ms(base).padStart(9)}`);
  variants.forEach((v, k) => {
    const figure = median(samples[k]);
    const added = k === 0 ? '' : `  +${ms(figure - plain)} over no definitions`;
    console.log(`  ${v.name.padEnd(52)} ${ms(figure).padStart(9)}  ${ratio(figure / base).padStart(6)} of node -e 0${added}`);
  });
  variants.forEach((v, k) => {
    if (v.count === 1000)
      budgets.below(
        `lint with ${v.name.replace(/, \d+ KB$/, '')} (${v.distinct ? 'docs/performance.md' : 'docs/performance.md'})`,
        median(samples[k]),
        BUDGET_MS,
        asMs,
      );
  });

  console.log(
    'where one cold load of each 1,000-file set goes (CPU time in a fresh process, median of 3; the YAML read by the full reader, through the public API):',
  );
  for (const v of variants.filter((x) => x.count === 1000)) {
    const runs = [0, 1, 2].map(() => {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', SPLIT, join(ROOT, 'dist', 'index.js'), v.dir], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(run.stderr);
      return JSON.parse(run.stdout);
    });
    const parse = median(runs.map((r) => r.parse));
    const load = median(runs.map((r) => r.load));
    console.log(`  ${v.name.padEnd(52)} YAML read ${ms(parse).padStart(9)}   definitions check and compile ${ms(load).padStart(9)}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
budgets.finish();
