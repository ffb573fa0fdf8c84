import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import type { PluginRef } from '../catalogue/load-plugins.js';
import { keepCompiledCode } from '../core/warm-start.js';
import type { SeverityRules } from '../documents/kurel-config.js';
import type { Platform } from '../schema/platform-version.js';
import { registeredSourceResolver } from '../sources/definition-entries.js';
import { useRegistry } from '../sources/registry-resolver.js';
import type { AppCore } from './app-core.js';
import type { Logger } from './log-lines.js';
import type { RunningServer, TlsOptions } from './server.js';
import { DEFAULT_LIMITS, type ServiceLimits } from './service-limits.js';
import { ServiceState } from './service-state.js';
import { supervisorLink } from './supervisor/link.js';
import type { DefinitionsRead } from './supervisor/served-definitions.js';
import type { ServiceIo } from './supervisor/service-io.js';
import type { DefinitionsWatch } from './supervisor/watch-definitions.js';
import { DEFAULT_INLINE_MAX_BYTES } from './work/inline-runner.js';
import { type DefinitionFolder, type PoolSources, poolLoader } from './work/pool-loader.js';

/** What the service is started with (the `kurel serve` flags, parsed). */
export interface ServiceOptions {
  host: string;
  port: number;
  /** Definition folders, with the names diagnostics and `/readyz` give them. */
  definitionFolders: readonly DefinitionFolder[];
  /** Definition files (the config file's `capabilityDefs`), named as given. */
  definitionFiles?: readonly string[];
  plugins: readonly PluginRef[];
  cwd: string;
  /** How the registry sources among the definition folders are reached (docs/registries.md): data, so a serving process is sent it. */
  registry?: { readonly insecureRegistries?: readonly string[]; readonly offline?: boolean } | undefined;
  /** Folders to watch for changes (`--watch-definitions`); a change reloads, debounced. */
  watchedDirs?: readonly string[] | undefined;
  /** Serve HTTPS only with this certificate and key (PEM files), reloaded when they change. */
  tls?: { certFile: string; keyFile: string };
  /** Worker threads (`--workers`); the CPUs Node reports by default. */
  workers?: number;
  /**
   * `--inline-max-bytes`: validations and builds with a body of at most this many bytes are
   * judged on the serving process's main thread when no plugin is loaded; 0 sends all to the
   * workers. {@link DEFAULT_INLINE_MAX_BYTES} when absent.
   */
  inlineMaxBytes?: number;
  /** Serving processes beside this one (`--processes`), to say in the `listening` line. */
  processes?: number;
  /** `--request-timeout`, `--send-timeout` and `--worker-memory`; the defaults of {@link DEFAULT_LIMITS} otherwise. */
  limits?: Partial<Pick<ServiceLimits, 'requestTimeoutMs' | 'sendTimeoutMs' | 'workerMemoryMiB'>>;
  /** A file holding the token `POST /v1/reload` requires (`--admin-token-file`). */
  adminTokenFile?: string | undefined;
  /** The lockfile the service serves (docs/service.md): its locked versions are the only versions. */
  lockfile?: PoolSources['lockfile'];
  /** `--require-pinned`: every request's bindings of versioned definitions must pin a version. */
  requirePinned?: boolean;
  /** The config file's `platform`: the versions of components a request's profile does not name. */
  platformDefault?: Platform | undefined;
  /** The config file's severities, applied to every validation as lint applies them. */
  severity?: SeverityRules | undefined;
}

export type { ServiceIo } from './supervisor/service-io.js';

/** Exit codes of the service: a clean stop, a stop that cut connections, a refused start. */
export const SERVICE_EXIT = { stopped: 0, cut: 1, refused: 2 } as const;

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** How long after it takes requests a serving process starts loading its workers and express (unless a request needs express sooner). */
export const LOAD_THE_REST_AFTER_MS = 50;

/**
 * Runs the validation service until SIGTERM or SIGINT: reads the definitions (under the
 * supervisor, `supervised` holds those it read for every process, and a reload is its), starts the worker
 * pool (every worker imports the plugins and builds the catalogue; the service refuses to start
 * when the definitions or a plugin have an error), takes requests once they are checked (by the
 * serving thread's own catalogue when small bodies are judged here, else by the first worker;
 * docs/service.md "During start") and reports ready once every worker has loaded, reloads definitions on SIGHUP, and on a stop signal drains gracefully.
 * Resolves to the exit code.
 */
export async function runService(options: ServiceOptions, io: ServiceIo, supervised?: { definitions: DefinitionsRead }): Promise<number> {
  // A registry source is resolved at every load; when the registry cannot be reached, the cache serves (docs/registries.md).
  // One registered for the process (an embedder's, a test's) wins.
  if (registeredSourceResolver() === undefined)
    useRegistry({
      env: process.env,
      insecureRegistries: options.registry?.insecureRegistries ?? [],
      offline: options.registry?.offline === true,
      cacheWhenUnreachable: true,
    });
  let adminToken: string | undefined;
  let unusableToken: string | undefined;
  if (options.adminTokenFile !== undefined) {
    try {
      adminToken = readFileSync(options.adminTokenFile, 'utf8').trim();
      if (adminToken === '' || /\s/.test(adminToken)) {
        unusableToken = `the admin token file ${options.adminTokenFile} must hold one token without spaces, found ${adminToken === '' ? 'nothing' : 'spaces'}`;
      }
    } catch (err) {
      unusableToken = `cannot read the admin token file ${options.adminTokenFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
  }

  // The workers take longest to be ready (each loads the plugins and the catalogue): they start
  // first, and the main thread loads the HTTP stack meanwhile.
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const workers = options.workers ?? availableParallelism();
  let logger: Logger | undefined;
  // A task that needs a worker before the rest has loaded loads it at once (see loadTheRest).
  let wantTheRest: () => void = () => undefined;
  // Until the process takes requests, its own catalogue is all it builds: its workers start then.
  let takingRequests = false;
  let takeRequests: () => void = () => undefined;
  const untilTakingRequests = new Promise<void>((resolve) => {
    takeRequests = () => {
      takingRequests = true;
      resolve();
    };
  });
  // Every load builds a pool from the definitions: under the supervisor, those it read for every
  // process (at start and at each reload), never this process's own read of the disk.
  const loaderOf = (read: DefinitionsRead | undefined) =>
    poolLoader({
      definitionFolders: options.definitionFolders,
      definitionFiles: options.definitionFiles ?? [],
      plugins: options.plugins,
      cwd: options.cwd,
      lockfile: options.lockfile,
      ...(read ? { read: async () => read } : {}),
      workers,
      workerMemoryMiB: limits.workerMemoryMiB,
      inlineMaxBytes: options.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES,
      // Used once the pool is in service, when the logger exists.
      logger: { info: (fields, message) => logger?.info(fields, message), error: (fields, message) => logger?.error(fields, message) },
      workersWait: () => (takingRequests ? undefined : untilTakingRequests),
      workersWanted: () => wantTheRest(),
    });
  const starting = unusableToken === undefined ? ServiceState.start(loaderOf(supervised?.definitions)) : undefined;
  const { batchedDestination, createAppCore, diagnosticLines, logClock, pendingLogger, stagedListener, startServer } = await import('./serving.js');
  const destination = batchedDestination((text) => io.stdout(text));
  // The lines of the last turn of the event loop still go out when the process ends.
  process.once('exit', destination.flush);
  // pino loads with the rest of the process, once it takes requests (or once it refuses to
  // start, or stops): its lines wait until then, each with its own time.
  const base = pendingLogger(io.env['LOG_LEVEL']);
  let pinoLoading: Promise<void> | undefined;
  const loadPino = () => {
    pinoLoading ??= import('./logger.js').then(({ createLogger }) => {
      const clock = logClock();
      base.settle(createLogger(io.env['LOG_LEVEL'], destination, clock), clock);
    });
    return pinoLoading;
  };
  // Beside other serving processes, each line says which process wrote it.
  const log = cluster.isWorker ? base.child({ pid: process.pid }) : base;
  logger = log;
  const refuse = async (message: string, errors: string[] = []): Promise<number> => {
    // A pool that started all the same is stopped first, so the process can end.
    takeRequests();
    const state = await starting;
    if (state instanceof ServiceState) await state.close();
    io.stderr(`${errors.map((line) => `${line}\n`).join('')}kurel serve: refusing to start: ${message}${errors.length > 0 ? ' (listed above)' : ''}\n`);
    // The log line stands alone (a collector never sees standard error): it says it is a
    // refusal and carries every reason, as `reload failed` does.
    log.fatal(errors.length > 0 ? { errors } : {}, `refusing to start: ${message}`);
    await loadPino();
    return SERVICE_EXIT.refused;
  };
  if (unusableToken !== undefined) return refuse(unusableToken);

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

  const started = await starting;
  if (!(started instanceof ServiceState)) {
    // A refused plugin stops the start by itself; definitions are listed with all their errors.
    const refusal = started?.diagnostics.find((d) => d.code === 'usage');
    if (refusal) return refuse(refusal.message.replace(/^refusing to start: /, ''));
    return refuse('the definitions have errors', diagnosticLines(started?.diagnostics ?? []));
  }
  const state = started;
  // Under the supervisor: it is handed connections once it can judge, reloads and metrics span every process.
  let stopBySupervisor: (cut: boolean) => void = () => undefined;
  let served: AppCore | undefined;
  const link = supervisorLink({
    prepare: (definitions) => state.prepare(loaderOf(definitions)),
    switchTo: (outcome) => state.switchTo(outcome),
    settled: () => state.settle(),
    serving: () => state.everyProcessServing(),
    stop: (cut) => stopBySupervisor(cut),
    metrics: async () => (served ? served.metrics.asJson() : []),
  });
  if (link) state.joinPeers(link);
  const warnings = state.lastReload.diagnostics;
  if (warnings.length > 0) log.warn({ warnings: diagnosticLines(warnings) }, 'definitions loaded with warnings');
  // The parts every route shares, without express: the process takes requests with them as soon
  // as it can judge, and express loads after (docs/service.md "During start").
  const core = createAppCore({
    state,
    logger: log,
    limits,
    processMetrics: true,
    requirePinned: options.requirePinned === true,
    ...(options.platformDefault ? { platformDefault: options.platformDefault } : {}),
    ...(options.severity ? { severity: options.severity } : {}),
    ...(adminToken === undefined ? {} : { adminToken }),
  });
  served = core;
  // The rest (the workers, express and its routes) loads a moment after the process takes
  // requests: loading blocks this thread for tens of milliseconds, and the probes and validations
  // that come as the supervisor hands the process its first connections are answered first. A
  // request that needs express starts the load at once; what arrived for express meanwhile was
  // held, and goes to it once it has loaded (docs/service.md "During start").
  let loading = false;
  let soon: NodeJS.Timeout | undefined;
  const loadTheRest = () => {
    clearTimeout(soon);
    if (loading) return;
    loading = true;
    takeRequests();
    void core.metrics.startProcessSeries();
    // A failure to load is a failure of the process: it ends, and the supervisor replaces it.
    void loadPino()
      .then(() => import('./serving-express.js'))
      .then(({ expressApp }) => staged.complete(expressApp(core).listener));
  };
  const staged = stagedListener(core, { onHold: loadTheRest });
  wantTheRest = loadTheRest;
  const kurel = { ...core, listener: staged.listener };
  if (link) {
    kurel.metrics.gatherWith(() => link.gatherMetrics());
    link.followInFlight(kurel.requestIdsInFlight);
    // A failure nothing caught ends the process; the supervisor replaces it, and the log says
    // which requests were in flight.
    process.on('uncaughtException', (err) => {
      log.fatal({ err, requestIds: kurel.requestIdsInFlight() }, 'uncaught failure: this process ends and the supervisor replaces it');
      const end = () => {
        destination.flush();
        process.exit(70);
      };
      // Before pino has loaded, the line waits for it: only as long as that takes.
      if (base.settled) end();
      else void loadPino().then(end, end);
    });
  }
  // Under the supervisor, which owns the listening socket, connections are handed over once the
  // link says the process takes them (below, once the signal handlers are in place).
  let handTo: (socket: Socket) => void = (socket) => socket.destroy();
  const handed = link
    ? {
        url: `${tls ? 'https' : 'http'}://${link.address}`,
        connect: (accept: (socket: Socket) => void) => {
          handTo = accept;
        },
      }
    : undefined;
  let running: RunningServer;
  try {
    running = await startServer(kurel, { host: options.host, port: options.port, handed, ...(tls ? { tls } : {}) });
  } catch (err) {
    return refuse(`cannot listen on ${options.host}:${options.port}: ${(err as Error).message}`);
  }
  // Under the supervisor, it watches the folders for every process (one read, one reload).
  let watching: DefinitionsWatch | undefined;
  if (!link && options.watchedDirs && options.watchedDirs.length > 0) {
    const { watchDefinitions } = await import('./supervisor/watch-definitions.js');
    watching = await watchDefinitions(options.watchedDirs, () => void state.reload(), { logger: log });
  } else if (!link && options.watchedDirs) {
    log.warn('--watch-definitions has no --definitions folder to watch');
  }
  const reload = () => void state.reload();
  let stop: (signal: NodeJS.Signals) => void = () => undefined;
  process.on('SIGHUP', reload);
  const stopped = new Promise<number>((resolve) => {
    let cut = false;
    stopBySupervisor = (cutNow) => {
      if (!state.isDraining) stop('SIGTERM');
      else if (cutNow) stop('SIGINT');
    };
    let finished = false;
    stop = (signal) => {
      // A signal that comes after the drain has ended has nothing left to stop.
      if (finished) return;
      if (state.isDraining) {
        log.warn({ signal }, 'second stop signal: closing every connection now');
        cut = true;
        running.server.closeAllConnections();
        return;
      }
      log.info({ signal, graceMs: kurel.limits.shutdownGraceMs }, 'shutting down: finishing requests in flight');
      void running.shutdown().then(({ forced }) => {
        if (forced) log.warn('shutdown grace period over: connections still open were closed');
        finished = true;
        log.info('stopped');
        resolve(forced || cut ? SERVICE_EXIT.cut : SERVICE_EXIT.stopped);
      });
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
  });
  link?.listening(running.url, (socket) => handTo(socket));
  // Logged once the signal handlers are in place: a supervisor may signal as soon as it reads this.
  log.info(
    {
      url: running.url,
      tls: tls !== undefined,
      watchDefinitions: link ? (options.watchedDirs?.length ?? 0) > 0 : watching !== undefined,
      reloadAccess: adminToken === undefined ? 'loopback' : 'token',
      handlers: state.registry.handlers,
      definitions: state.registry.definitions,
      workers,
      ...(options.processes === undefined ? {} : { processes: options.processes }),
      // What is judged on this process: nothing with a plugin loaded, whatever the flag said.
      inlineMaxBytes: options.plugins.length > 0 ? 0 : (options.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES),
      registryDigest: state.registry.digest,
      ...(options.lockfile ? { lockfile: options.lockfile.display } : {}),
      startupMs: Math.round(performance.now()),
      limits: kurel.limits,
    },
    'listening',
  );
  // The rest loads a moment after the process takes requests (see loadTheRest).
  soon = setTimeout(loadTheRest, LOAD_THE_REST_AFTER_MS);
  void state.whenStarted().then((every) => {
    // Once a stop signal has come, the service is draining, not ready, and a pool it closed
    // before every worker loaded is no failure to report.
    if (state.isDraining) return;
    link?.ready(every.ok);
    // Under the supervisor, the service is ready once every process is, and the supervisor says so.
    if (every.ok) {
      log.info({ workers, startupMs: Math.round(performance.now()) }, link ? 'process ready: every worker has loaded' : 'ready: every worker has loaded');
      // What this process's start compiled, for the next start (docs/performance.md, "Warm start").
      keepCompiledCode();
    } else log.error({ errors: diagnosticLines(every.diagnostics) }, 'a worker could not load: the service answers on the others and does not report ready');
  });
  const code = await stopped;
  // Stopped before the rest loaded: what it logged is written all the same.
  await loadPino();
  await watching?.close();
  await state.close();
  process.off('SIGHUP', reload);
  for (const signal of STOP_SIGNALS) process.off(signal, stop);
  link?.close();
  // Whatever handle a dependency left open must not keep a stopped service alive.
  setTimeout(() => process.exit(code), 1000).unref();
  return code;
}
