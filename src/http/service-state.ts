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
  /** Under the supervisor: ready once every process of the service takes requests, while their other workers load. */
  private everyProcessServes = false;
  private peers: { reloadEverywhere(): Promise<void> } | undefined;
  /** A catalogue built for a reload of every process, not yet put in service (see {@link prepare}). */
  private pending: TaskRunner | undefined;
  /** Between this process's switch to a reload's catalogue and every process's: what `/readyz` waits for. */
  private unsettled: { promise: Promise<void>; settle: () => void } | undefined;
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
   * put in service only then), or, under the supervisor, once every process of the service takes
   * requests and no worker of this one has failed to load; false once shutdown begins. Replacing
   * a worker (or a process) never changes it.
   */
  get isReady(): boolean {
    if (this.draining) return false;
    return this.peers ? this.everyProcessServes && !this.aWorkerFailed : this.everyWorkerLoaded;
  }

  /**
   * Serves beside other processes, under `kurel serve`'s supervisor, which reads the definitions
   * for all of them (docs/service.md "Processes and the supervisor"): a reload, whoever asks for
   * it, is the supervisor's ({@link prepare}, {@link switchTo}, {@link settle} in every process),
   * and the process is ready once the supervisor says every process serves ({@link everyProcessServing}).
   */
  joinPeers(peers: { reloadEverywhere(): Promise<void> }): void {
    this.peers = peers;
  }

  /** Every process of the service takes requests (under the supervisor). */
  everyProcessServing(): void {
    this.everyProcessServes = true;
  }

  /** Reloads every process (under the supervisor), else this one ({@link reload}); resolves to this process's record once done. */
  async reloadEverywhere(): Promise<ReloadRecord> {
    if (!this.peers) return this.reload();
    await this.peers.reloadEverywhere();
    return this.record;
  }

  /**
   * Under the supervisor, a reload's first step in every process: builds a runner with `load`
   * (from the definitions the supervisor read) and waits for every one of its workers, without
   * putting it in service; resolves to whether it could.
   */
  async prepare(load: RunnerLoader): Promise<{ ok: boolean; diagnostics: Diagnostic[] }> {
    await this.drop();
    let loaded: RunnerLoadResult;
    try {
      loaded = await load();
    } catch (err) {
      loaded = { ok: false, diagnostics: [fileDiagnostic('<reload>', 'io-error', `reload failed: ${err instanceof Error ? err.message : String(err)}`)] };
    }
    if (!loaded.ok) return loaded;
    const every = await loaded.runner.ready;
    if (!every.ok) {
      await loaded.runner.close();
      return { ok: false, diagnostics: every.diagnostics };
    }
    this.pending = loaded.runner;
    return { ok: true, diagnostics: loaded.diagnostics };
  }

  /**
   * The outcome of a reload, the same in every process: `ok` puts the prepared runner in service
   * (what `/readyz` says then waits for {@link settle}); otherwise it is dropped and the previous
   * one stays. Records the outcome either way, as {@link reload} does.
   */
  switchTo(outcome: { ok: boolean; at: Date; diagnostics: Diagnostic[] }): void {
    const next = this.pending;
    this.pending = undefined;
    const ok = outcome.ok && next !== undefined;
    if (ok) {
      const previous = this.active;
      this.active = next;
      this.activeSince = outcome.at;
      this.everyWorkerLoaded = true;
      this.aWorkerFailed = false;
      void previous.close().catch(() => undefined);
      let settle: () => void = () => undefined;
      const promise = new Promise<void>((resolve) => {
        settle = resolve;
      });
      this.unsettled?.settle();
      this.unsettled = { promise, settle };
    } else void next?.close().catch(() => undefined);
    this.publish({ at: outcome.at, ok, definitions: this.active.registry.definitions, diagnostics: outcome.diagnostics });
  }

  /** Every process has switched to the catalogue in service here. */
  settle(): void {
    this.unsettled?.settle();
    this.unsettled = undefined;
  }

  /**
   * Undefined when what this process serves is what every process serves; otherwise settles once
   * it is (a reload's switch is under way in the other processes). `/readyz` answers after it, so
   * the digest it reports is the one every answer from then on uses.
   */
  get settling(): Promise<void> | undefined {
    return this.unsettled?.promise;
  }

  private async drop(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    await pending?.close().catch(() => undefined);
  }

  private publish(record: ReloadRecord): void {
    this.record = record;
    for (const listener of this.listeners) listener(record);
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
    // Under the supervisor, every process reloads together from one read.
    if (this.peers) return this.reloadEverywhere();
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

  /** Closes the runner in service (at shutdown, once no request needs it), and one prepared for a reload. */
  async close(): Promise<void> {
    this.settle();
    await Promise.all([this.drop(), this.active.close()]);
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
    this.publish(record);
    return record;
  }
}
