#!/usr/bin/env node
// The entry of dist/cli.cjs, the `kurel` bin: a launcher that runs kurel from its CommonJS bundle
// (dist/bundles/kurel.cjs) with V8's code cache, so a run does not compile again what the last
// run of its command compiled (docs/performance.md, "Warm start"). It is CommonJS itself (an ES
// module entry starts Node's module loader, about 10 ms more) and requires only Node's own modules.
import { join } from 'node:path';
import { loadBundle } from '../core/code-cache.js';
import type { start as Start } from './start.js';

// Written by the build: each bundle's digest, which names its code cache.
declare const KUREL_BUNDLE_DIGESTS: { readonly kurel: string; readonly 'kurel-serve': string };
// The commands, each with a code cache of its own (what one compiles is not what another needs).
const COMMANDS = new Set([
  'lint',
  'build',
  'lock',
  'outdated',
  'migrate',
  'compat',
  'schema',
  'types',
  'capabilities',
  'crd',
  'explain',
  'push',
  'pull',
  'serve',
  'lsp',
]);

const command = process.argv[2] ?? '';
// Signals that reach `kurel serve` while it loads are kept from here on (no default action ends it
// meanwhile), and the supervisor handles them once it can (docs/service.md "Signals").
const held: NodeJS.Signals[] = [];
const hold = (signal: NodeJS.Signals) => void held.push(signal);
const signals = ['SIGHUP', 'SIGTERM', 'SIGINT'] as const;
const release = () => {
  for (const signal of signals) process.off(signal, hold);
};
if (command === 'serve') for (const signal of signals) process.on(signal, hold);
// A serving process of `kurel serve` runs other code than its supervisor.
let name = COMMANDS.has(command) ? `kurel-${command}` : 'kurel';
if (command === 'serve' && process.env['KUREL_SUPERVISED'] === '1') name = 'kurel-serving';
// `kurel serve` has a bundle of its own: the service is about half of kurel's code, which other
// commands would read at every start.
const bundle = command === 'serve' ? 'kurel-serve' : 'kurel';
const kurel = loadBundle({
  file: join(__dirname, 'bundles', `${bundle}.cjs`),
  digest: KUREL_BUNDLE_DIGESTS[bundle],
  name,
  importModule: (specifier) => import(specifier),
});
// A failure that escapes kurel ends the process as an uncaught error would.
void (kurel['start'] as typeof Start)({ held, release });
