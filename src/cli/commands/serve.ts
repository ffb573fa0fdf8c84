import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { createApp } from '../../http/app.js';
import { batchedDestination, createLogger, diagnosticLines } from '../../http/logger.js';
import { embeddedDefinitionsDir } from '../../http/package-files.js';
import { prepareRegistryLoader } from '../../http/registry-loader.js';
import { startServer, type RunningServer, type TlsOptions } from '../../http/server.js';
import { ServiceState } from '../../http/service-state.js';
import { watchDefinitions, type DefinitionsWatch } from '../../http/watch-definitions.js';
import { RegistryError } from '../../registry/errors.js';
import { EXIT } from '../exit-code.js';
import { formatText, paletteFor } from '../format/text.js';
import type { CommandIo } from '../io.js';

/** Options of `kurel serve`. */
export interface ServeCommandOptions {
  host: string;
  port: string;
  definitions: string[];
  plugin: string[];
  /** Serve HTTPS only with this certificate (PEM), reloaded when it changes. */
  tlsCert?: string;
  /** The private key (PEM) of `tlsCert`. */
  tlsKey?: string;
  /** Reload when a file under a `--definitions` folder changes. */
  watchDefinitions?: boolean;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs `kurel serve` until SIGTERM or SIGINT: loads plugins, the embedded `definitions/` and
 * every `--definitions` folder (refusing to start, exit 2, when any has an error), listens,
 * reloads definitions on SIGHUP, and on a stop signal drains gracefully. Returns the exit code:
 * 0 after a clean drain, 1 when connections had to be cut, 2 when it could not start.
 */
export async function runServe(options: ServeCommandOptions, io: CommandIo): Promise<number> {
  const port = parsePort(options.port);
  if (port === undefined) {
    io.stderr(`error: --port must be an integer from 0 to 65535, found ${JSON.stringify(options.port)}\n`);
    return EXIT.usage;
  }
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    io.stderr(`error: --tls-cert and --tls-key go together; found only ${options.tlsCert === undefined ? '--tls-key' : '--tls-cert'}\n`);
    return EXIT.usage;
  }
  const destination = batchedDestination((text) => io.stdout(text));
  // The lines of the last turn of the event loop still go out when the process ends.
  process.once('exit', destination.flush);
  const logger = createLogger(io.env['LOG_LEVEL'], destination);
  const refuse = (message: string): number => {
    io.stderr(`kurel serve: refusing to start: ${message}\n`);
    logger.fatal(message);
    return EXIT.usage;
  };

  let tls: TlsOptions | undefined;
  if (options.tlsCert !== undefined && options.tlsKey !== undefined) {
    const files = { certFile: options.tlsCert, keyFile: options.tlsKey };
    const { loadTlsPair, TlsPairError } = await import('../../http/tls.js');
    try {
      tls = { files, pair: loadTlsPair(files) };
    } catch (err) {
      if (!(err instanceof TlsPairError)) throw err;
      return refuse(`cannot serve TLS: ${err.message}`);
    }
  }

  let loader;
  try {
    loader = await prepareRegistryLoader({ definitionDirs: [...embeddedDirs(io.cwd), ...options.definitions], plugins: options.plugin, cwd: io.cwd });
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    return refuse(err.message);
  }
  const started = await ServiceState.start(loader);
  if (!(started instanceof ServiceState)) {
    io.stderr(formatText(started.diagnostics, new Map(), paletteFor(io.stderrIsTTY ? { isTTY: true } : {}, io.env)) + '\n');
    return refuse('the definitions have errors (listed above)');
  }
  const state = started;
  const warnings = state.lastReload.diagnostics;
  if (warnings.length > 0) logger.warn({ warnings: diagnosticLines(warnings) }, 'definitions loaded with warnings');
  const kurel = createApp({ state, logger, processMetrics: true });
  let running: RunningServer;
  try {
    running = await startServer(kurel, { host: options.host, port, ...(tls ? { tls } : {}) });
  } catch (err) {
    return refuse(`cannot listen on ${options.host}:${port}: ${(err as Error).message}`);
  }
  let watching: DefinitionsWatch | undefined;
  if (options.watchDefinitions && options.definitions.length > 0) {
    watching = await watchDefinitions(options.definitions, state, { logger });
  } else if (options.watchDefinitions) {
    logger.warn('--watch-definitions has no --definitions folder to watch');
  }
  const reload = () => void state.reload();
  let stop: (signal: NodeJS.Signals) => void = () => undefined;
  process.on('SIGHUP', reload);
  const stopped = new Promise<number>((resolve) => {
    let cut = false;
    stop = (signal) => {
      if (state.isDraining) {
        logger.warn({ signal }, 'second stop signal: closing every connection now');
        cut = true;
        running.server.closeAllConnections();
        return;
      }
      logger.info({ signal, graceMs: kurel.limits.shutdownGraceMs }, 'shutting down: finishing requests in flight');
      void running.shutdown().then(({ forced }) => {
        if (forced) logger.warn('shutdown grace period over: connections still open were closed');
        logger.info('stopped');
        resolve(forced || cut ? EXIT.problems : EXIT.ok);
      });
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
  });
  // Logged once the signal handlers are in place: a supervisor may signal as soon as it reads this.
  const registry = state.registry;
  logger.info(
    { url: running.url, tls: tls !== undefined, watchDefinitions: watching !== undefined, handlers: registry.listHandlers().length, definitions: registry.listDefinitions().length, startupMs: Math.round(performance.now()), limits: kurel.limits },
    'listening',
  );
  const code = await stopped;
  await watching?.close();
  process.off('SIGHUP', reload);
  for (const signal of STOP_SIGNALS) process.off(signal, stop);
  // Whatever handle a dependency left open must not keep a stopped service alive.
  setTimeout(() => process.exit(code), 1000).unref();
  return code;
}

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port <= 65535 ? port : undefined;
}

// The package's own definitions/ (DESIGN §5.1: only serve loads them by default), shown
// relative to the working directory when it is inside it.
function embeddedDirs(cwd: string): string[] {
  const dir = embeddedDefinitionsDir();
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const shown = relative(cwd, dir);
  return [shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : dir];
}
