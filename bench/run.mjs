// Runs the bench scripts one after another (never in parallel: they would time each other)
// and prints the machine they ran on. `npm run bench` runs every bench/*.mjs; name scripts to
// run only those (`npm run bench -- lint-startup`). `--record` also writes the run into
// bench/RESULTS.md, between its latest-run markers, whatever its outcome. Ends with every
// budget line that was over, and exits non-zero when any budget was over or a script failed
// (docs/performance.md: every budget fails the run).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OVER, OVER_BUDGET_EXIT } from './lib/budget.mjs';

const BENCH = fileURLToPath(new URL('.', import.meta.url));
const RESULTS = join(BENCH, 'RESULTS.md');
// No script may hold the suite for ever: each is stopped after this long (BENCH_SCRIPT_LIMIT_S).
const SCRIPT_LIMIT_MS = Number(process.env.BENCH_SCRIPT_LIMIT_S ?? 600) * 1000;
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

say(
  `machine: ${cpuModel()}, ${availableParallelism()} cores (nproc), ${Math.round(totalmem() / 1024 / 1024)} MB, node ${process.version}, ${process.platform} ${process.arch}\n`,
);
say(`date: ${new Date().toISOString()}\nload average at start: ${loadAverage()}\n\n`);
// The scripts run in their own process groups (so a stuck one can be stopped with all it
// started); an interrupted suite stops the one running.
let running;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (running) stopGroup(running);
    process.exit(130);
  });
}
// kurel's code cache (docs/performance.md, "Warm start") in a folder of this run's own: each
// script's first run of a command fills it, as a user's first run does.
const codeCache = process.env.KUREL_CACHE_DIR ? undefined : mkdtempSync(join(tmpdir(), 'kurel-bench-cache-'));
if (codeCache) process.env.KUREL_CACHE_DIR = codeCache;
const failed = [];
const overBudget = [];
const started = Date.now();
for (const script of scripts) {
  say(`== ${script}\n`);
  const before = transcript.length;
  const scriptStart = Date.now();
  const outcome = await runScript(join(BENCH, script));
  say(`(${script}: ${((Date.now() - scriptStart) / 1000).toFixed(0)} s)\n`);
  const overLines = transcript
    .slice(before)
    .split('\n')
    .filter((line) => line.trimStart().startsWith(`${OVER} `));
  overBudget.push(...overLines.map((line) => `${script}: ${line.trim().slice(OVER.length).trim()}`));
  if (outcome === OVER_BUDGET_EXIT && overLines.length > 0) {
    // Over budget: listed below with the other lines over.
  } else if (outcome !== 0) {
    failed.push(`${script} (${outcome === OVER_BUDGET_EXIT ? 'over budget without a budget line' : `exit ${outcome}`})`);
  }
  say('\n');
}
say(`load average at end: ${loadAverage()}\n`);
say(`total time: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
if (overBudget.length > 0)
  say(`${overBudget.length} budget${overBudget.length === 1 ? '' : 's'} ${OVER}:\n${overBudget.map((line) => `  ${line}\n`).join('')}`);
else if (failed.length === 0) say('every budget within\n');
if (failed.length > 0) say(`failed: ${failed.join(', ')}\n`);
if (record) writeRecord();
if (codeCache) rmSync(codeCache, { recursive: true, force: true });
if (failed.length > 0 || overBudget.length > 0) process.exit(1);

// Runs one script, passing its output through (and into the transcript); resolves to its exit.
function runScript(path) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    running = child;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', say);
    // Past its time the script and whatever it started (its process group) are stopped.
    const limit = setTimeout(() => {
      say(`\n${basename(path)} ran past ${SCRIPT_LIMIT_MS / 1000} s: stopped\n`);
      stopGroup(child);
    }, SCRIPT_LIMIT_MS);
    child.on('error', (err) => resolve(err.message));
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      running = undefined;
      resolve(signal ?? code);
    });
  });
}

function stopGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
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
