#!/usr/bin/env node
// The entry of dist/cli.js. `kurel serve`'s supervisor opens its listening socket and answers
// /healthz before the CLI loads, and its serving processes run the service with the options it
// sends them, without loading the CLI (docs/service.md "Processes and the supervisor"): this
// module imports nothing, so that nothing loads before it.
const serve = process.argv[2] === 'serve' ? await import('../http/entry.js') : undefined;
if (serve?.isServingProcess()) await serve.runServingProcess();
else {
  serve?.openFrontEarly(process.argv.slice(3));
  (await import('./main.js')).runMain();
}
