#!/usr/bin/env node
// The entry of dist/cli.js. `kurel serve`'s supervisor opens its listening socket and answers
// /healthz before the CLI loads (docs/service.md "Processes and the supervisor"): this module
// imports nothing, so that nothing loads before it.
if (process.argv[2] === 'serve') (await import('../http/entry.js')).openFrontEarly(process.argv.slice(3));
(await import('./main.js')).runMain();
