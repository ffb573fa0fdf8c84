import { DEFAULT_HOST, DEFAULT_PORT } from '../../core/listen-defaults.js';

// Where `kurel serve` listens, read from its command line before the CLI loads (early-start.ts).

/** Where `kurel serve` listens, from its command line, when the supervisor can open its front before the CLI loads. */
export interface FrontArguments {
  host: string;
  port: number;
  tls: boolean;
}

/**
 * The host, port and TLS choice of `kurel serve <args>` as the CLI will read them, or undefined
 * when the arguments are not plainly those of a start (help, a value missing or malformed, an
 * option given as the last word): then the supervisor opens its front after the CLI has read
 * them, and the CLI reports what is wrong.
 */
export function frontArguments(args: readonly string[]): FrontArguments | undefined {
  let host = DEFAULT_HOST;
  let portText = DEFAULT_PORT;
  let tls = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h' || arg === '--') return undefined;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name !== '--host' && name !== '--port' && name !== '--tls-cert' && name !== '--tls-key') continue;
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) return undefined;
    if (name === '--host') host = value;
    else if (name === '--port') portText = value;
    else tls = true;
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) return undefined;
  return { host, port: Number(portText), tls };
}
