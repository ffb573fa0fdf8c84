import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { createMetrics } from '../../src/http/metrics.js';
import { ServiceState } from '../../src/http/service-state.js';
import { inProcessRunner } from '../../src/http/work/in-process.js';

// The service's metrics load prom-client's parts apart (src/http/metrics.ts): Node's process
// series and the aggregation of several processes come with the first scrape that needs them.

const state = () => new ServiceState(inProcessRunner(createCatalogue()));

describe('the service metrics', () => {
  it("adds Node's process series to a scrape only when asked for, and keeps the service's own", async () => {
    const plain = createMetrics(state());
    const withProcess = createMetrics(state(), { processMetrics: true });
    plain.requests.inc({ method: 'GET', route: '/healthz', status: '200' });
    withProcess.requests.inc({ method: 'GET', route: '/healthz', status: '200' });
    const [without, withSeries] = [await plain.exposition(), await withProcess.exposition()];
    for (const text of [without, withSeries]) expect(text).toContain('kurel_http_requests_total{method="GET",route="/healthz",status="200"} 1\n');
    expect(without).not.toContain('process_cpu_seconds_total');
    expect(withSeries).toContain('# TYPE process_cpu_seconds_total counter\n');
    expect((await withProcess.asJson()).some((metric) => (metric as { name: string }).name === 'nodejs_heap_size_used_bytes')).toBe(true);
  });

  it('sums the counters of every process gathered, and keeps a gauge of the catalogue by its own rule', async () => {
    const [one, two] = [createMetrics(state()), createMetrics(state())];
    one.requests.inc({ method: 'POST', route: '/v1/validate', status: '200' }, 2);
    two.requests.inc({ method: 'POST', route: '/v1/validate', status: '200' }, 3);
    one.gatherWith(async () => [await one.asJson(), await two.asJson()]);
    const text = await one.exposition();
    expect(text).toContain('kurel_http_requests_total{method="POST",route="/v1/validate",status="200"} 5\n');
    // Each process loaded its catalogue: 1 by the gauge's own rule (the least of them), not summed to 2.
    expect(text).toContain('\nkurel_registry_last_reload_success 1\n');
  });
});
