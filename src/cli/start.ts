import type { HeldSignals } from '../http/entry.js';

/**
 * What `kurel` runs once its launcher (bin.ts) has loaded it: the CLI, or for `kurel serve` the
 * supervisor, which opens its listening socket and answers /healthz before the CLI loads, or a
 * serving process, which runs the service with the options its supervisor sends, without loading
 * the CLI (docs/service.md "Processes and the supervisor"). `signals` are those the launcher kept
 * since its first line.
 */
export async function start(signals: HeldSignals): Promise<void> {
  const serve = process.argv[2] === 'serve' ? await import('../http/entry.js') : undefined;
  if (serve?.isServingProcess()) {
    // A serving process is stopped by its supervisor, over their channel.
    signals.release();
    await serve.runServingProcess();
  } else {
    serve?.openFrontEarly(process.argv.slice(3), signals);
    (await import('./main.js')).runMain();
  }
}
