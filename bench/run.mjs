// Runs the bench scripts one after another (never in parallel: they would time each other)
// and prints the machine they ran on. `npm run bench` runs every bench/*.mjs; name scripts to
// run only those (`npm run bench -- lint-startup`). `--record` also writes the run into
// bench/RESULTS.md, between its latest-run markers. Exits non-zero when a script fails.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('.', import.meta.url));
const RESULTS = join(BENCH, 'RESULTS.md');
const START = '<!-- latest-run:start -->';
const END = '<!-- latest-run:end -->';

const args = process.argv.slice(2);
const record = args.includes('--record');
const available = readdirSync(BENCH)
  .filter((name) => name.endsWith('.mjs') && name !== basename(fileURLToPath(import.meta.url)))
  .sort();
const wanted = args.filter((a) => a !== '--record').map((name) => (name.endsWith('.mjs') ? name : `${name}.mjs`));
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`no such bench script: ${unknown.join(', ')} (available: ${available.join(', ')})`);
  process.exit(2);
}
const scripts = wanted.length > 0 ? wanted : available;

let transcript = '';
const say = (text) => {
  process.stdout.write(text);
  transcript += text;
};

say(`machine: ${cpuModel()}, ${availableParallelism()} cores (nproc), ${Math.round(totalmem() / 1024 / 1024)} MB, node ${process.version}, ${process.platform} ${process.arch}\n`);
say(`date: ${new Date().toISOString()}\nload average at start: ${loadAverage()}\n\n`);
const failed = [];
for (const script of scripts) {
  say(`== ${script}\n`);
  const outcome = await runScript(join(BENCH, script));
  if (outcome !== 0) failed.push(`${script} (${outcome})`);
  say('\n');
}
say(`load average at end: ${loadAverage()}\n`);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
if (record) writeRecord();

// Runs one script, passing its output through (and into the transcript); resolves to its exit.
function runScript(path) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', say);
    child.on('error', (err) => resolve(err.message));
    child.on('close', (code, signal) => resolve(signal ?? code));
  });
}

function writeRecord() {
  const text = readFileSync(RESULTS, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from === -1 || to < from) {
    console.error(`${RESULTS} has no ${START} ... ${END} section to write into`);
    process.exit(1);
  }
  writeFileSync(RESULTS, `${text.slice(0, from + START.length)}\n\`\`\`text\n${transcript}\`\`\`\n${text.slice(to)}`);
  console.log(`recorded in ${RESULTS}`);
}

function cpuModel() {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match) return match[1].trim();
  } catch {
    // not Linux: fall back to what node reports
  }
  return cpus()[0]?.model ?? 'unknown CPU';
}

function loadAverage() {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}
