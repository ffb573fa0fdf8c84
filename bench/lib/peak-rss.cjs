// Preloaded with `node -r` into a measured process: on exit it writes the process's peak
// resident memory (kB, from the kernel's maxrss) to the file BENCH_PEAK_RSS_FILE names.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const file = process.env.BENCH_PEAK_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
