import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import type { EveryWorker, RegistrySummary, TaskRunner } from './work/task.js';

/** The outcome of loading the service's sources: a runner judging with the new catalogue, or the reasons it was refused. */
export type RunnerLoadResult = { ok: true; runner: TaskRunner; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/** Loads the service's sources (plugins and definition folders) afresh into a new runner. */
export type RunnerLoader = () => Promise<RunnerLoadResult>;

/** What the last (re)load did; a failed one left the previous catalogue in service. */
export interface ReloadRecord {
  at: Date;
  ok: boolean;
  /** Definitions in service after it. */
  definitions: number;
  /** Why it failed (errors), or warnings of a load that succeeded. */
  diagnostics: Diagnostic[];
}

/**
 * The runner a service answers with, swapped atomically on reload: a request reads
 * {@link ServiceState.runner} once and keeps that runner (and its catalogue) to its end. A reload
 * loads and checks a complete new runner first; a failed one changes nothing but the record.
 */
export class ServiceState {
  private active: TaskRunner;
  private activeSince: Date;
  private record: ReloadRecord;
  private running: Promise<ReloadRecord> | undefined;
  private waiting: Promise<ReloadRecord> | undefined;
  private draining = false;
  private everyWorkerLoaded = false;
  /** A worker of the runner in service at start could not load. */
  private aWorkerFailed = false;
  /** Ready once the first worker has loaded (under the supervisor), not once every one has. */
  private readyAtFirstWorker = false;
  private peers: { reloadOthers(): Promise<boolean> } | undefined;
  private readonly listeners: ((record: ReloadRecord) => void)[] = [];

  constructor(
    runner: TaskRunner,
    private readonly loader?: RunnerLoader,
    loadDiagnostics: Diagnostic[] = [],
  ) {
    this.active = runner;
    this.activeSince = new Date();
    this.record = { at: this.activeSince, ok: true, definitions: runner.registry.definitions, diagnostics: loadDiagnostics };
    // At start, the service answers once one worker has loaded; it is ready once all have.
    void runner.ready.then((every) => {
      if (this.active !== runner) return;
      this.everyWorkerLoaded = every.ok;
      this.aWorkerFailed = !every.ok;
    });
  }

  /** Loads the first runner with `loader`; resolves to the refusal when it fails. */
  static async start(loader: RunnerLoader): Promise<ServiceState | { ok: false; diagnostics: Diagnostic[] }> {
    const load = await loader();
    if (!load.ok) return load;
    return new ServiceState(load.runner, loader, load.diagnostics);
  }

  /** The runner in service now. */
  get runner(): TaskRunner {
    return this.active;
  }

  /** The catalogue in service now, as `/readyz` and `/metrics` tell it. */
  get registry(): RegistrySummary {
    return this.active.registry;
  }

  /** When the catalogue in service was loaded. */
  get loadedAt(): Date {
    return this.activeSince;
  }

  /** The last load or reload, successful or not. */
  get lastReload(): ReloadRecord {
    return this.record;
  }

  /**
   * True once every worker of the runner in service has loaded (at start; a reloaded runner is
   * put in service only then), or, under the supervisor, once this process takes requests and
   * no worker has failed to load; false once shutdown begins. Replacing a worker never changes it.
   */
  get isReady(): boolean {
    return (this.everyWorkerLoaded || (this.readyAtFirstWorker && !this.aWorkerFailed)) && !this.draining;
  }

  /**
   * Serves beside other processes (under `kurel serve`'s supervisor, which hands this process
   * connections only once it can judge): ready from then on, while its other workers load, and
   * {@link reloadEverywhere} reloads every process.
   */
  joinPeers(peers: { reloadOthers(): Promise<boolean> }): void {
    this.peers = peers;
    this.readyAtFirstWorker = true;
  }

  /**
   * Reloads this process ({@link reload}) and every process serving beside it, and resolves to
   * this process's record once all have finished.
   */
  async reloadEverywhere(): Promise<ReloadRecord> {
    const [record] = await Promise.all([this.reload(), this.peers?.reloadOthers()]);
    return record;
  }

  /** Settles once every worker of the runner in service at start has loaded, or one could not. */
  whenStarted(): Promise<EveryWorker> {
    return this.active.ready;
  }

  /** True once shutdown has begun: readiness fails so load balancers stop sending requests. */
  get isDraining(): boolean {
    return this.draining;
  }

  /** Marks the service as shutting down. */
  beginDrain(): void {
    this.draining = true;
  }

  /** Calls `listener` after every reload attempt. */
  onReload(listener: (record: ReloadRecord) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Loads the sources again and swaps the new runner in when it loads completely. Reloads are
   * coalesced: one asked for while another runs waits for it and then reads the files afresh,
   * and every request arriving meanwhile shares that one, so any number of callers cause at most
   * one reload running and one waiting.
   */
  reload(): Promise<ReloadRecord> {
    if (this.waiting) return this.waiting;
    if (!this.running) {
      const running = this.reloadNow().finally(() => {
        this.running = undefined;
      });
      this.running = running;
      return running;
    }
    const waiting = this.running
      .catch(() => undefined)
      .then(() => {
        this.waiting = undefined;
        return this.reload();
      });
    this.waiting = waiting;
    return waiting;
  }

  /** Closes the runner in service (at shutdown, once no request needs it). */
  close(): Promise<void> {
    return this.active.close();
  }

  private async reloadNow(): Promise<ReloadRecord> {
    let record: ReloadRecord;
    if (!this.loader) {
      record = { at: new Date(), ok: true, definitions: this.active.registry.definitions, diagnostics: [] };
    } else {
      let load: RunnerLoadResult;
      try {
        load = await this.loader();
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        load = { ok: false, diagnostics: [fileDiagnostic('<reload>', 'io-error', `reload failed: ${message}`)] };
      }
      if (load.ok) {
        // A new runner goes into service only once every one of its workers has loaded.
        const every = await load.runner.ready;
        if (!every.ok) {
          await load.runner.close();
          load = { ok: false, diagnostics: every.diagnostics };
        }
      }
      const at = new Date();
      if (load.ok) {
        const previous = this.active;
        this.active = load.runner;
        this.activeSince = at;
        this.everyWorkerLoaded = true;
        // Requests that began with the previous runner finish on it; it then frees its threads.
        void previous.close().catch(() => undefined);
      }
      record = { at, ok: load.ok, definitions: this.active.registry.definitions, diagnostics: load.diagnostics };
    }
    this.record = record;
    for (const listener of this.listeners) listener(record);
    return record;
  }
}
