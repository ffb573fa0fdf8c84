#!/usr/bin/env node
// The entry of dist/cli.js. `kurel serve`'s supervisor opens its listening socket and answers
// /healthz before the CLI loads, and its serving processes run the service with the options it
// sends them, without loading the CLI (docs/service.md "Processes and the supervisor"): this
// module imports nothing, so that nothing loads before it.
const serving = process.argv[2] === 'serve';
// Signals that reach `kurel serve` while it loads are kept from their first line on (no default
// action ends it meanwhile), and the supervisor handles them once it can (docs/service.md "Signals").
const held: NodeJS.Signals[] = [];
const hold = (signal: NodeJS.Signals) => void held.push(signal);
const signals = ['SIGHUP', 'SIGTERM', 'SIGINT'] as const;
const release = () => {
  for (const signal of signals) process.off(signal, hold);
};
if (serving) for (const signal of signals) process.on(signal, hold);
const serve = serving ? await import('../http/entry.js') : undefined;
if (serve?.isServingProcess()) {
  // A serving process is stopped by its supervisor, over their channel.
  release();
  await serve.runServingProcess();
} else {
  serve?.openFrontEarly(process.argv.slice(3), { held, release });
  (await import('./main.js')).runMain();
}
