import type { Catalogue } from '../catalogue/catalogue.js';
import type { Diagnostic } from '../core/diagnostics.js';

/** The outcome of building a catalogue from the service's definitions: complete, or refused with the reasons. */
export type CatalogueLoadResult = { ok: true; catalogue: Catalogue; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/** Builds a new catalogue from the service's sources (plugins and definition folders). */
export type CatalogueLoader = () => Promise<CatalogueLoadResult>;

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
 * The catalogue a service answers with, swapped atomically on reload: a request reads
 * {@link ServiceState.catalogue} once and keeps that catalogue to its end. A reload builds and
 * checks a complete new catalogue first; a failed one changes nothing but the record.
 */
export class ServiceState {
  private active: Catalogue;
  private activeSince: Date;
  private record: ReloadRecord;
  private queue: Promise<unknown> = Promise.resolve();
  private draining = false;
  private readonly listeners: ((record: ReloadRecord) => void)[] = [];

  constructor(
    catalogue: Catalogue,
    private readonly loader?: CatalogueLoader,
    loadDiagnostics: Diagnostic[] = [],
  ) {
    this.active = catalogue;
    this.activeSince = new Date();
    this.record = { at: this.activeSince, ok: true, definitions: catalogue.listDefinitions().length, diagnostics: loadDiagnostics };
  }

  /** Loads the first catalogue with `loader`; resolves to the refusal when it fails. */
  static async start(loader: CatalogueLoader): Promise<ServiceState | { ok: false; diagnostics: Diagnostic[] }> {
    const load = await loader();
    if (!load.ok) return load;
    return new ServiceState(load.catalogue, loader, load.diagnostics);
  }

  /** The catalogue in service now. */
  get catalogue(): Catalogue {
    return this.active;
  }

  /** When the catalogue in service was loaded. */
  get loadedAt(): Date {
    return this.activeSince;
  }

  /** The last load or reload, successful or not. */
  get lastReload(): ReloadRecord {
    return this.record;
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
   * Rebuilds the catalogue and swaps it in when it loads completely; reloads run one at a time,
   * so one asked for during another reads the files again after it.
   */
  reload(): Promise<ReloadRecord> {
    const next = this.queue.then(() => this.reloadNow());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async reloadNow(): Promise<ReloadRecord> {
    let record: ReloadRecord;
    if (!this.loader) {
      record = { at: new Date(), ok: true, definitions: this.active.listDefinitions().length, diagnostics: [] };
    } else {
      let load: CatalogueLoadResult;
      try {
        load = await this.loader();
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        load = {
          ok: false,
          diagnostics: [
            {
              code: 'io-error',
              severity: 'error',
              message: `reload failed: ${message}`,
              file: '<reload>',
              line: 1,
              column: 1,
              endLine: 1,
              endColumn: 1,
              path: '',
            },
          ],
        };
      }
      const at = new Date();
      if (load.ok) {
        this.active = load.catalogue;
        this.activeSince = at;
      }
      record = { at, ok: load.ok, definitions: this.active.listDefinitions().length, diagnostics: load.diagnostics };
    }
    this.record = record;
    for (const listener of this.listeners) listener(record);
    return record;
  }
}
