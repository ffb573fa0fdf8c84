// Preloaded with `node -r` into a measured process: on exit it writes the CPU time the whole
// process used (user + system, every thread, in ms) to the file BENCH_CPU_FILE names. CPU time
// is what a busy machine changes least: lint-jobs.mjs prints it beside the wall times.
const { writeFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');

// A preload runs in worker threads too; only the main thread's exit is the process's.
process.on('exit', () => {
  const file = process.env.BENCH_CPU_FILE;
  if (!file || !isMainThread) return;
  const usage = process.resourceUsage();
  writeFileSync(file, String((usage.userCPUTime + usage.systemCPUTime) / 1000));
});
