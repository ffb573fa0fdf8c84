/// <reference path="./prom-client-parts.d.ts" />
import type { Registry as MetricsRegistry } from 'prom-client';
// prom-client's index loads everything it has: its push gateway (node:https, node:zlib), its
// cluster aggregator and its default metrics, about 10 ms of a serving process's start before it
// can take requests (docs/performance.md). These four are all that takes; the others load when
// they are first used (prom-client-parts.d.ts types them).
import Counter from 'prom-client/lib/counter.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';
import type { ServiceState } from './service-state.js';

/** The Prometheus series of one service (docs/service.md). */
export interface ServiceMetrics {
  registry: MetricsRegistry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
  /** Tells the in-flight gauge how to count requests being handled (read at each scrape). */
  countInFlightWith(count: () => number): void;
  validations: Counter<'operation' | 'verdict'>;
  /** The Prometheus text `GET /metrics` answers: this registry's, or every process's summed (see {@link gatherWith}). */
  exposition(): Promise<string>;
  /**
   * Answers `GET /metrics` with the metrics `gather` collects (every serving process's, as
   * `getMetricsAsJSON` gives them), aggregated: counters and histograms summed, the catalogue's
   * gauges by their own rule.
   */
  gatherWith(gather: () => Promise<unknown[][]>): void;
  /** This registry's metrics, as `getMetricsAsJSON` gives them (for another process's {@link gatherWith}). */
  asJson(): Promise<unknown[]>;
  /** Starts Node's process series when they were asked for (they load apart; a scrape waits for them). */
  startProcessSeries(): Promise<void>;
}

/** prom-client's process series that are gauges with a counter's `_total` suffix (docs/service.md). */
export const MISNAMED_PROCESS_SERIES = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'] as const;

/** Creates the service's metrics on a registry of their own; `processMetrics` adds Node's process series. */
export function createMetrics(state: ServiceState, options: { processMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'kurel_http_requests_total',
    help: 'HTTP requests answered, by method, route (the path template; "unmatched" for 404) and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'kurel_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  let countInFlight = () => 0;
  new Gauge({
    name: 'kurel_http_requests_in_flight',
    help: 'HTTP requests being handled now',
    registers: [registry],
    collect() {
      this.set(countInFlight());
    },
  });
  const validations = new Counter({
    name: 'kurel_validations_total',
    help: 'Profiles validated, applications built, profiles migrated and admission reviews judged, by operation (validate, build, migrate, admission) and verdict (valid, invalid)',
    labelNames: ['operation', 'verdict'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'kurel_definitions_loaded',
    help: 'CapabilityDefinitions in the registry in service',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(state.registry.definitions);
    },
  });
  new Gauge({
    name: 'kurel_registry_info',
    help: 'Always 1, labelled with the registry digest of the definitions, handlers and kurel in service (equal on replicas that serve the same)',
    labelNames: ['digest'] as const,
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.reset();
      this.set({ digest: state.registry.digest }, 1);
    },
  });
  new Gauge({
    name: 'kurel_registry_last_reload_timestamp_seconds',
    help: 'Unix time of the last load or reload of definitions, successful or not',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(state.lastReload.at.getTime() / 1000);
    },
  });
  new Gauge({
    name: 'kurel_registry_last_reload_success',
    help: '1 when the last load or reload of definitions succeeded, 0 when it failed (the previous registry stays in service)',
    registers: [registry],
    aggregator: 'min',
    collect() {
      this.set(state.lastReload.ok ? 1 : 0);
    },
  });
  const reloads = new Counter({
    name: 'kurel_registry_reloads_total',
    help: 'Reloads of definitions since start, by result (success, failure)',
    labelNames: ['result'] as const,
    registers: [registry],
    // Every process reloads together: one reload is counted once.
    aggregator: 'max',
  });
  reloads.inc({ result: 'success' }, 0);
  reloads.inc({ result: 'failure' }, 0);
  state.onReload((record) => reloads.inc({ result: record.ok ? 'success' : 'failure' }));
  let processSeries: Promise<void> | undefined;
  const startProcessSeries = () => {
    processSeries ??= options.processMetrics
      ? import('prom-client/lib/defaultMetrics.js').then(({ default: collectDefaultMetrics }) => {
          collectDefaultMetrics({ register: registry });
          // Gauges named as counters (`_total`), which `promtool check metrics` refuses; each is
          // the sum of the series by type that stays (nodejs_active_handles, ...).
          for (const name of MISNAMED_PROCESS_SERIES) registry.removeSingleMetric(name);
        })
      : Promise.resolve();
    return processSeries;
  };
  let gather: (() => Promise<unknown[][]>) | undefined;
  return {
    registry,
    requests,
    duration,
    validations,
    countInFlightWith(count) {
      countInFlight = count;
    },
    async exposition() {
      await startProcessSeries();
      if (!gather) return registry.metrics();
      const [{ default: AggregatorRegistry }, every] = await Promise.all([import('prom-client/lib/cluster.js'), gather()]);
      return AggregatorRegistry.aggregate(every as Parameters<typeof AggregatorRegistry.aggregate>[0]).metrics();
    },
    gatherWith(collect) {
      gather = collect;
    },
    async asJson() {
      await startProcessSeries();
      return registry.getMetricsAsJSON();
    },
    startProcessSeries,
  };
}
