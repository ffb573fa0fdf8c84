// Validation against YAML parsing on generated profiles of 1 KB to 5 MB (DESIGN §6: schema
// checks at most 0.05x the parse at every size, per-byte cost flat). The parse is timed as
// kurel does it: the `yaml` parser plus the converter to plain data.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateProfile } from './lib/generate-profile.mjs';
import { ms, ratio, timeCalls, verdict } from './lib/measure.mjs';

const LIBRARY = fileURLToPath(new URL('../dist/index.js', import.meta.url));
if (!existsSync(LIBRARY)) {
  console.error('dist/index.js is missing: run npm run build first');
  process.exit(1);
}
const { createRegistry, evaluateProfile, parseYamlStream } = await import(LIBRARY);

const BUDGET = 0.05;
const SIZES = [
  ['1 KB', 1024],
  ['100 KB', 100 * 1024],
  ['1 MB', 1024 * 1024],
  ['5 MB', 5 * 1024 * 1024],
];

const registry = createRegistry();
const rows = [];
for (const [label, target] of SIZES) {
  const text = generateProfile(target);
  const bytes = Buffer.byteLength(text);
  const stream = parseYamlStream(text, 'bench.yaml');
  const document = stream.documents[0];
  const evaluation = evaluateProfile(document.data, registry, 'warning');
  const problems = [...stream.diagnostics, ...document.diagnostics, ...evaluation.issues];
  if (problems.length > 0 || !evaluation.resolved) {
    throw new Error(`the generated ${label} profile is not valid: ${JSON.stringify(problems.slice(0, 3))}`);
  }
  const [parse, validate] = timeCalls(
    [() => parseYamlStream(text, 'bench.yaml'), () => evaluateProfile(document.data, registry, 'warning')],
    { rounds: 5, roundMs: 300, warmUpMs: 200 },
  );
  const rss = process.resourceUsage().maxRSS / 1024;
  rows.push({ label, bytes, bindings: Object.keys(evaluation.capabilities).length, parse, validate, rss });
}

const nsPerByte = (value, bytes) => ((value * 1e6) / bytes).toFixed(0);
const spread = (values) => Math.max(...values) / Math.min(...values);
console.log('validate scaling: evaluateProfile vs parseYamlStream on generated valid profiles (median per call)');
console.log(`  ${'size'.padEnd(7)} ${'bindings'.padStart(8)} ${'parse'.padStart(10)} ${'validate'.padStart(10)} ${'ratio'.padStart(7)}  ${'verdict'.padEnd(27)} ${'ns/byte parse'.padStart(13)} ${'validate'.padStart(8)} ${'peak RSS'.padStart(9)}`);
for (const r of rows) {
  const share = r.validate / r.parse;
  console.log(
    `  ${r.label.padEnd(7)} ${String(r.bindings).padStart(8)} ${ms(r.parse).padStart(10)} ${ms(r.validate).padStart(10)} ${ratio(share).padStart(7)}  ${verdict(share, BUDGET).padEnd(27)} ${nsPerByte(r.parse, r.bytes).padStart(13)} ${nsPerByte(r.validate, r.bytes).padStart(8)} ${`${r.rss.toFixed(0)} MB`.padStart(9)}`,
  );
}
console.log(`  cost per byte, largest over smallest across the sizes: parse ${ratio(spread(rows.map((r) => r.parse / r.bytes)))}, validate ${ratio(spread(rows.map((r) => r.validate / r.bytes)))} (flat is 1x)`);
