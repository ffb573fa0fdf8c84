import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { PluginRef } from '../../catalogue/load-plugins.js';
import { locateLockfile } from '../../files/lockfile-location.js';
import { embeddedDefinitionsDir } from '../../files/package-files.js';
import { runService } from '../../http/entry.js';
import { type ConfigurableOptions, configOf, configureCommand } from '../apply-config.js';
import { EXIT } from '../exit-code.js';
import { globMatcher } from '../glob.js';
import type { CommandIo } from '../io.js';
import { STRICT_CAPABILITY_CODES, severityLayers } from '../run-config.js';

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
  /** `--lockfile FILE`: serve only its locked versions. */
  lockfile?: string;
  /** `--require-pinned`. */
  requirePinned?: boolean;
}

/**
 * Runs `kurel serve` until SIGTERM or SIGINT, with the definitions the configuration and the
 * flags name, or the embedded `definitions/` when they name none. Returns the exit code: 0 after a clean drain, 1 when connections had
 * to be cut, 2 when it could not start.
 */
export async function runServe(flags: ServeCommandOptions, io: CommandIo): Promise<number> {
  // The configuration is read once, at start (DESIGN §11): a reload re-reads the folders only.
  const configured = configureCommand(flags, io);
  if (!configured.ok) return configured.exitCode;
  const { options, run } = configured;
  const port = parsePort(options.port);
  if (port === undefined) {
    io.stderr(`error: --port must be an integer from 0 to 65535, found ${JSON.stringify(options.port)}\n`);
    return EXIT.usage;
  }
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    io.stderr(`error: --tls-cert and --tls-key go together; found only ${options.tlsCert === undefined ? '--tls-key' : '--tls-cert'}\n`);
    return EXIT.usage;
  }
  // A service follows a lockfile only when one is named, so a stray file in a container's working directory never stops it.
  const lockfile = locateLockfile({ flag: options.lockfile, config: configOf(run), cwd: io.cwd, namedOnly: true });
  return runService(
    {
      ...(lockfile ? { lockfile: { path: lockfile.path, display: lockfile.display } } : {}),
      requirePinned: options.requirePinned === true,
      platformDefault: options.platformDefault,
      // The config's severities, as lint applies them (a flag-less service has no --strict-capabilities).
      severityOf: severityLayers(run, {}, io.cwd, await globMatcher(run), STRICT_CAPABILITY_CODES),
      host: options.host,
      port,
      // The embedded definitions are a default (DESIGN §5.1, §11): definitions named by the
      // configuration or a flag replace them, so the service judges as CI does, and a team's
      // versioned redis-sidecar never meets the embedded unversioned one.
      definitionDirs: options.definitions.length + options.capabilityDef.length > 0 ? options.definitions : embeddedDirs(io.cwd),
      definitionFiles: options.capabilityDef,
      watchedDirs: options.watchDefinitions ? options.definitions : undefined,
      plugins: options.plugin,
      cwd: io.cwd,
      ...(options.tlsCert !== undefined && options.tlsKey !== undefined ? { tls: { certFile: options.tlsCert, keyFile: options.tlsKey } } : {}),
    },
    io,
  );
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
