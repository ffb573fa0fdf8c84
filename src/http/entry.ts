import { RegistryError } from '../catalogue/errors.js';
import type { PluginRef } from '../catalogue/load-plugins.js';
import { registryDigest } from '../catalogue/registry-digest.js';
import type { SeverityOf } from '../operations/severity.js';
import type { Platform } from '../schema/platform-version.js';
import { createApp } from './app.js';
import { prepareCatalogueLoader, type ServiceSources } from './catalogue-loader.js';
import { batchedDestination, createLogger, diagnosticLines } from './logger.js';
import { type RunningServer, startServer, type TlsOptions } from './server.js';
import { type CatalogueLoader, ServiceState } from './service-state.js';
import { type DefinitionsWatch, watchDefinitions } from './watch-definitions.js';

/** What the service is started with (the `kurel serve` flags, parsed). */
export interface ServiceOptions {
  host: string;
  port: number;
  /** Definition folders, named as they are shown in diagnostics and `/readyz`. */
  definitionDirs: readonly string[];
  /** Definition files (a configuration's `capabilityDefs`). */
  definitionFiles?: readonly string[];
  plugins: readonly PluginRef[];
  cwd: string;
  /** Folders to watch for changes (`--watch-definitions`); a change reloads, debounced. */
  watchedDirs?: readonly string[] | undefined;
  /** Serve HTTPS only with this certificate and key (PEM files), reloaded when they change. */
  tls?: { certFile: string; keyFile: string };
  /** The lockfile the service serves (DESIGN §11): its locked versions are the only versions. */
  lockfile?: ServiceSources['lockfile'];
  /** `--require-pinned`: every request's bindings of versioned definitions must pin a version. */
  requirePinned?: boolean;
  /** The config file's `platform`: the versions of components a request's profile does not name. */
  platformDefault?: Platform | undefined;
  /** The config file's severities, applied to every validation. */
  severityOf?: SeverityOf | undefined;
}

/** Where the service writes: its log lines and its start-up refusal. */
export interface ServiceIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** Exit codes of the service: a clean stop, a stop that cut connections, a refused start. */
export const SERVICE_EXIT = { stopped: 0, cut: 1, refused: 2 } as const;

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs the validation service until SIGTERM or SIGINT: loads plugins and definitions
 * (refusing to start when any has an error), listens, reloads definitions on SIGHUP, and on a
 * stop signal drains gracefully. Resolves to the exit code.
 */
export async function runService(options: ServiceOptions, io: ServiceIo): Promise<number> {
  const destination = batchedDestination((text) => io.stdout(text));
  // The lines of the last turn of the event loop still go out when the process ends.
  process.once('exit', destination.flush);
  const logger = createLogger(io.env['LOG_LEVEL'], destination);
  const refuse = (message: string, errors: string[] = []): number => {
    io.stderr(`${errors.map((line) => `${line}\n`).join('')}kurel serve: refusing to start: ${message}${errors.length > 0 ? ' (listed above)' : ''}\n`);
    // The log line stands alone (a collector never sees standard error): it says it is a
    // refusal and carries every reason, as `reload failed` does.
    logger.fatal(errors.length > 0 ? { errors } : {}, `refusing to start: ${message}`);
    return SERVICE_EXIT.refused;
  };

  let tls: TlsOptions | undefined;
  if (options.tls) {
    const { loadTlsPair, TlsPairError } = await import('./tls.js');
    try {
      tls = { files: options.tls, pair: loadTlsPair(options.tls) };
    } catch (err) {
      if (!(err instanceof TlsPairError)) throw err;
      return refuse(`cannot serve TLS: ${err.message}`);
    }
  }

  let loader: CatalogueLoader;
  try {
    loader = await prepareCatalogueLoader({
      definitionDirs: options.definitionDirs,
      definitionFiles: options.definitionFiles ?? [],
      plugins: options.plugins,
      cwd: options.cwd,
      lockfile: options.lockfile,
    });
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    return refuse(err.message);
  }
  const started = await ServiceState.start(loader);
  if (!(started instanceof ServiceState)) return refuse('the definitions have errors', diagnosticLines(started.diagnostics));
  const state = started;
  const warnings = state.lastReload.diagnostics;
  if (warnings.length > 0) logger.warn({ warnings: diagnosticLines(warnings) }, 'definitions loaded with warnings');
  const kurel = createApp({
    state,
    logger,
    processMetrics: true,
    requirePinned: options.requirePinned === true,
    platformDefault: options.platformDefault,
    severityOf: options.severityOf,
  });
  let running: RunningServer;
  try {
    running = await startServer(kurel, { host: options.host, port: options.port, ...(tls ? { tls } : {}) });
  } catch (err) {
    return refuse(`cannot listen on ${options.host}:${options.port}: ${(err as Error).message}`);
  }
  let watching: DefinitionsWatch | undefined;
  if (options.watchedDirs && options.watchedDirs.length > 0) {
    watching = await watchDefinitions(options.watchedDirs, state, { logger });
  } else if (options.watchedDirs) {
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
        resolve(forced || cut ? SERVICE_EXIT.cut : SERVICE_EXIT.stopped);
      });
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
  });
  // Logged once the signal handlers are in place: a supervisor may signal as soon as it reads this.
  const catalogue = state.catalogue;
  logger.info(
    {
      url: running.url,
      tls: tls !== undefined,
      watchDefinitions: watching !== undefined,
      handlers: catalogue.listHandlers().length,
      definitions: catalogue.listDefinitions().length,
      registryDigest: registryDigest(catalogue),
      ...(options.lockfile ? { lockfile: options.lockfile.display } : {}),
      startupMs: Math.round(performance.now()),
      limits: kurel.limits,
    },
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
