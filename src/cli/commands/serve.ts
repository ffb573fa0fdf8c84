import cluster from 'node:cluster';
import type { PluginRef } from '../../catalogue/load-plugins.js';
import { availableCpus, defaultWorkers, runService, runSupervisor, type ServiceOptions } from '../../http/entry.js';
import type { ConfigurableOptions } from '../../sources/apply-config.js';
import { isSourceEntry, registeredSourceResolver } from '../../sources/definition-entries.js';
import { useRegistry } from '../../sources/registry-resolver.js';
import { STRICT_CAPABILITY_CODES, severityLayers } from '../../sources/run-config.js';
import { servedSources } from '../../sources/served-sources.js';
import { configureCommand } from '../configure-command.js';
import { EXIT } from '../exit-code.js';
import { formatUsage } from '../format/text.js';
import type { CommandIo } from '../io.js';

/** Options of `kurel serve`. */
export interface ServeCommandOptions extends ConfigurableOptions {
  host: string;
  port: string;
  definitions: string[];
  plugin: PluginRef[];
  /** Serve HTTPS only with this certificate (PEM), reloaded when it changes. */
  tlsCert?: string;
  /** The private key (PEM) of `tlsCert`. */
  tlsKey?: string;
  /** Reload when a file under a `--definitions` folder changes. */
  watchDefinitions?: boolean;
  /** Worker threads of each serving process; the CPUs shared out among the processes when absent. */
  workers?: string;
  /** Serving processes; the CPUs the container is given when absent. */
  processes?: string;
  /** Each worker's heap limit, in MiB. */
  workerMemory: string;
  /** The largest body of a validation or build judged on the serving process itself; 0 for none. */
  inlineMaxBytes: string;
  /** A duration such as `5s` or `500ms`. */
  requestTimeout: string;
  /** A duration such as `30s`. */
  sendTimeout: string;
  /** The file holding the token `POST /v1/reload` requires. */
  adminTokenFile?: string;
  /** `--lockfile FILE`: serve only its locked versions. */
  lockfile?: string;
  /** `--require-pinned`. */
  requirePinned?: boolean;
}

/**
 * The largest `--inline-max-bytes`: work done on the serving process delays its probes and every
 * other request it parses, so it stays within what is judged in milliseconds (docs/service.md).
 */
export const MAX_INLINE_BYTES = 64 * 1024;

/** The smallest heap a worker may have: enough for the built-in catalogue and a typical request. */
export const MIN_WORKER_MEMORY_MIB = 64;

/**
 * Runs `kurel serve` until SIGTERM or SIGINT, with the definitions `.kurel.yaml` and the flags
 * name, or the embedded `definitions/` when they name none: as the supervisor, which keeps
 * `--processes` serving processes, or as one of those processes. Returns the exit code: 0 after a
 * clean drain, 1 when connections had to be cut, 2 when it could not start (a flag it cannot
 * use, or a configuration with a problem, included).
 */
export async function runServe(flags: ServeCommandOptions, io: CommandIo): Promise<number> {
  // The configuration is read once, at start (docs/service.md): a reload re-reads the folders only.
  const configured = configureCommand(flags, io);
  if (!configured.ok) return configured.exitCode;
  const { options, run } = configured;
  const usage = (message: string) => {
    io.stderr(`${formatUsage(message)}\n`);
    return EXIT.usage;
  };
  const port = parseInteger(options.port, 0, 65535);
  if (port === undefined) return usage(`--port must be an integer from 0 to 65535, found ${JSON.stringify(options.port)}`);
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    return usage(`--tls-cert and --tls-key go together; found only ${options.tlsCert === undefined ? '--tls-key' : '--tls-cert'}`);
  }
  const processes = options.processes === undefined ? undefined : parseInteger(options.processes, 1, 256);
  if (options.processes !== undefined && processes === undefined)
    return usage(`--processes must be an integer from 1 to 256, found ${JSON.stringify(options.processes)}`);
  const workers = options.workers === undefined ? undefined : parseInteger(options.workers, 1, 256);
  if (options.workers !== undefined && workers === undefined)
    return usage(`--workers must be an integer from 1 to 256, found ${JSON.stringify(options.workers)}`);
  const workerMemoryMiB = parseInteger(options.workerMemory, MIN_WORKER_MEMORY_MIB, 1024 * 1024);
  if (workerMemoryMiB === undefined) {
    return usage(`--worker-memory must be a whole number of MiB, at least ${MIN_WORKER_MEMORY_MIB}, found ${JSON.stringify(options.workerMemory)}`);
  }
  const inlineMaxBytes = parseInteger(options.inlineMaxBytes, 0, MAX_INLINE_BYTES);
  if (inlineMaxBytes === undefined) {
    return usage(`--inline-max-bytes must be a whole number of bytes from 0 to ${MAX_INLINE_BYTES}, found ${JSON.stringify(options.inlineMaxBytes)}`);
  }
  const requestTimeoutMs = parseDuration(options.requestTimeout);
  if (requestTimeoutMs === undefined) return usage(`--request-timeout must be a duration such as 5s or 500ms, found ${JSON.stringify(options.requestTimeout)}`);
  const sendTimeoutMs = parseDuration(options.sendTimeout);
  if (sendTimeoutMs === undefined) return usage(`--send-timeout must be a duration such as 30s or 500ms, found ${JSON.stringify(options.sendTimeout)}`);
  // The definitions named by the configuration and the flags, else the embedded ones; the lockfile only when one is named.
  const sources = servedSources(options, run, io.cwd);
  const severity = severityLayers(run, {}, io.cwd, () => false, STRICT_CAPABILITY_CODES)('request');
  // The supervisor (node:cluster's primary) forks the serving processes and sends each the
  // options below; the CPUs are the container's quota, not the host's.
  const cpus = availableCpus();
  const processCount = processes ?? cpus;
  const tls = options.tlsCert !== undefined && options.tlsKey !== undefined ? { certFile: options.tlsCert, keyFile: options.tlsKey } : undefined;
  const service: ServiceOptions = {
    ...(sources.lockfile ? { lockfile: sources.lockfile } : {}),
    requirePinned: options.requirePinned === true,
    ...(options.platformDefault ? { platformDefault: options.platformDefault } : {}),
    ...(Object.keys(severity).length > 0 ? { severity } : {}),
    host: options.host,
    port,
    definitionFolders: sources.definitionFolders,
    definitionFiles: sources.definitionFiles ?? [],
    registry: {
      insecureRegistries: [...(run?.config.insecureRegistries ?? []), ...(options.insecureRegistry ?? [])],
      ...(options.offline ? { offline: true } : {}),
    },
    watchedDirs: options.watchDefinitions ? options.definitions.filter((entry) => !isSourceEntry(entry)) : undefined,
    plugins: options.plugin,
    cwd: io.cwd,
    ...(tls ? { tls } : {}),
    workers: workers ?? defaultWorkers(cpus, processCount),
    processes: processCount,
    limits: { workerMemoryMiB, requestTimeoutMs, sendTimeoutMs },
    inlineMaxBytes,
    adminTokenFile: options.adminTokenFile,
  };
  // Each serving process is sent `service` by the supervisor rather than reading the command line
  // and the configuration again (it loads no CLI, so it can judge sooner).
  if (cluster.isPrimary) {
    // The supervisor reads the definitions every process serves, for as long as it runs: its
    // registry sources are resolved here, from the cache when the registry cannot be reached
    // (docs/registries.md). One registered for the process (an embedder's, a test's) wins.
    if (registeredSourceResolver() === undefined) useRegistry({ env: io.env, ...service.registry, cacheWhenUnreachable: true });
    const { definitionFolders, definitionFiles, cwd, lockfile: locked, watchedDirs } = service;
    const definitions = { definitionFolders, definitionFiles: definitionFiles ?? [], cwd, ...(locked ? { lockfile: locked } : {}) };
    return runSupervisor({ processes: processCount, host: options.host, port, tls: tls !== undefined, service, definitions, watchedDirs }, io);
  }
  const code = await runService(service, io);
  // The channel to the supervisor would keep a stopped or refused process alive; closed this
  // way, node:cluster lets the process end with its own exit code.
  if (cluster.isWorker && process.connected) cluster.worker?.disconnect();
  return code;
}

/** Milliseconds of a duration written as whole seconds or milliseconds (`4s`, `500ms`); undefined for anything else, zero included. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s)$/.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * (match[2] === 's' ? 1000 : 1);
  return ms > 0 ? ms : undefined;
}

function parseInteger(text: string, min: number, max: number): number | undefined {
  if (!/^\d{1,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}
