import { createHash, createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { type FSWatcher, readFileSync, watch } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import { dirname } from 'node:path';
import { createSecureContext } from 'node:tls';
import { Counter, Gauge, type Registry as MetricsRegistry } from 'prom-client';
import type { Logger } from './log-lines.js';

/** The certificate and key files `kurel serve --tls-cert --tls-key` names. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** A certificate and its private key that belong together, as read from their files. */
export interface TlsPair {
  cert: Buffer;
  key: Buffer;
  /** When the (first) certificate expires. */
  notAfter: Date;
  /** SHA-256 fingerprint of the certificate, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string;
}

/** Why a pair could not be loaded; `mismatch` means both files parse but do not belong together. */
export class TlsPairError extends Error {
  constructor(
    message: string,
    readonly reason: 'unreadable' | 'invalid' | 'mismatch',
  ) {
    super(message);
    this.name = 'TlsPairError';
  }
}

/** Reads and checks a pair; throws {@link TlsPairError} saying which file is wrong and how. */
export function loadTlsPair(files: TlsFiles): TlsPair {
  const cert = readPem(files.certFile);
  const key = readPem(files.keyFile);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw new TlsPairError(`${files.certFile} does not hold a PEM certificate`, 'invalid');
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new TlsPairError(`${files.keyFile} does not hold an unencrypted PEM private key`, 'invalid');
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new TlsPairError(`the key in ${files.keyFile} does not belong to the certificate in ${files.certFile}`, 'mismatch');
  }
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    throw new TlsPairError(`${files.certFile} and ${files.keyFile} cannot serve TLS: ${(err as Error).message}`, 'invalid');
  }
  return { cert, key, notAfter: new Date(certificate.validTo), fingerprint: certificate.fingerprint256 };
}

function readPem(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TlsPairError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'error')}`, 'unreadable');
  }
}

/** How often and how patiently a served pair is reloaded. */
export interface TlsReloadTiming {
  /** How often the files are read to see whether they changed (they are also watched where the platform allows). */
  pollIntervalMs: number;
  /**
   * How long a changed pair that fails to load is retried before the failure is reported:
   * a certificate and key written one after the other do not match for a moment.
   */
  settleMs: number;
}

/** The timing `kurel serve` runs with. */
export const DEFAULT_TLS_TIMING: TlsReloadTiming = { pollIntervalMs: 2_000, settleMs: 30_000 };

/** What a reload of the pair did. */
export type TlsReloadEvent = { ok: true; pair: TlsPair } | { ok: false; error: TlsPairError };

/**
 * Watches a pair's files and hands every new pair that loads to `apply`; the pair in service
 * changes only then. A changed pair that fails is retried (at each poll and file event) until
 * it loads or `settleMs` has passed, when the failure is reported once; a pair whose bytes
 * have not changed since is not reported again.
 */
export class TlsPairWatcher {
  private served: string;
  private failing: { digest: string; since: number; reported: boolean } | undefined;
  private poll: NodeJS.Timeout | undefined;
  private watchers: FSWatcher[] = [];
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly files: TlsFiles,
    initial: TlsPair,
    private readonly apply: (pair: TlsPair) => void,
    private readonly report: (event: TlsReloadEvent) => void,
    private readonly timing: TlsReloadTiming = DEFAULT_TLS_TIMING,
    private readonly now: () => number = Date.now,
  ) {
    this.served = digestOf(initial.cert, initial.key);
  }

  /** Starts polling and, where it works, watching the files' folders (a Secret volume swaps a `..data` link there). */
  start(): void {
    this.poll ??= setInterval(() => this.check(), this.timing.pollIntervalMs).unref();
    for (const dir of new Set([dirname(this.files.certFile), dirname(this.files.keyFile)])) {
      try {
        const watcher = watch(dir, { persistent: false }, () => this.checkSoon());
        // A watch that breaks (its folder removed, say) leaves polling in charge.
        watcher.on('error', () => watcher.close());
        this.watchers.push(watcher);
      } catch {
        // Some file systems cannot be watched; polling covers them.
      }
    }
  }

  /** Stops polling and watching. */
  stop(): void {
    clearInterval(this.poll);
    clearTimeout(this.pending);
    this.poll = undefined;
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }

  /** Reads the files now and reloads when they changed. */
  check(): void {
    let digest: string;
    try {
      digest = digestOf(readFileSync(this.files.certFile), readFileSync(this.files.keyFile));
    } catch (err) {
      digest = `unreadable:${(err as NodeJS.ErrnoException).code ?? 'error'}`;
    }
    if (digest === this.served) {
      this.failing = undefined;
      return;
    }
    if (this.failing?.digest === digest && this.failing.reported) return;
    let pair: TlsPair;
    try {
      pair = loadTlsPair(this.files);
    } catch (err) {
      if (!(err instanceof TlsPairError)) throw err;
      if (this.failing?.digest !== digest) this.failing = { digest, since: this.now(), reported: false };
      if (this.now() - this.failing.since >= this.timing.settleMs) {
        this.failing.reported = true;
        this.report({ ok: false, error: err });
      }
      return;
    }
    // The files may have changed again between the two reads; the pair loaded is what counts.
    this.served = digestOf(pair.cert, pair.key);
    this.failing = undefined;
    this.apply(pair);
    this.report({ ok: true, pair });
  }

  // A swap raises several events in a row; one read after they settle is enough.
  private checkSoon(): void {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.check(), 50).unref();
  }
}

function digestOf(cert: Buffer, key: Buffer): string {
  return createHash('sha256').update(cert).update('\0').update(key).digest('hex');
}

/** What an HTTPS server needs besides its request listener. */
export interface HttpsServing {
  files: TlsFiles;
  /** The pair to start with, already loaded (so a bad one refuses the start). */
  pair: TlsPair;
  logger: Logger;
  /** Where the reload counter and the expiry gauge are registered. */
  metrics: MetricsRegistry;
  timing?: TlsReloadTiming;
  connectionsCheckingInterval: number;
  /** Time a connection may take to complete its TLS handshake; then it is closed, as an idle plain connection is. */
  handshakeTimeoutMs: number;
}

/**
 * Creates an HTTPS (HTTP/1.1 over TLS) server whose certificate follows its files: a new pair
 * serves new connections from the moment it loads, connections already open keep theirs.
 * Reloads are logged and counted in `kurel_tls_reloads_total`; watching starts when the server
 * listens and stops when it closes.
 */
export function createHttpsServer(serving: HttpsServing, listener: RequestListener): Server {
  const { files, logger } = serving;
  const server = createServer(
    {
      cert: serving.pair.cert,
      key: serving.pair.key,
      ALPNProtocols: ['http/1.1'],
      connectionsCheckingInterval: serving.connectionsCheckingInterval,
      handshakeTimeout: serving.handshakeTimeoutMs,
    },
    listener,
  );
  const reloads = new Counter({
    name: 'kurel_tls_reloads_total',
    help: 'Reloads of the TLS certificate and key after their files changed, by result (success; failure: the previous pair stays in service)',
    labelNames: ['result'] as const,
    registers: [serving.metrics],
    // Every serving process reloads the same files: a rotation is counted once.
    aggregator: 'max',
  });
  reloads.inc({ result: 'success' }, 0);
  reloads.inc({ result: 'failure' }, 0);
  let notAfter = serving.pair.notAfter;
  new Gauge({
    name: 'kurel_tls_certificate_expiry_timestamp_seconds',
    help: 'Unix time at which the certificate in service expires',
    registers: [serving.metrics],
    aggregator: 'min',
    collect() {
      this.set(notAfter.getTime() / 1000);
    },
  });
  const watcher = new TlsPairWatcher(
    files,
    serving.pair,
    (pair) => {
      server.setSecureContext({ cert: pair.cert, key: pair.key });
      notAfter = pair.notAfter;
    },
    (event) => {
      if (event.ok) {
        reloads.inc({ result: 'success' });
        logger.info({ certFile: files.certFile, fingerprint: event.pair.fingerprint, notAfter: event.pair.notAfter.toISOString() }, 'tls certificate reloaded');
      } else {
        reloads.inc({ result: 'failure' });
        logger.error({ certFile: files.certFile, keyFile: files.keyFile, reason: event.error.reason, error: event.error.message }, 'tls reload failed');
      }
    },
    serving.timing,
  );
  server.once('listening', () => watcher.start());
  server.once('close', () => watcher.stop());
  return server;
}
