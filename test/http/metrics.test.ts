import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { createMetrics, MISNAMED_PROCESS_SERIES } from '../../src/http/metrics.js';
import { ServiceState } from '../../src/http/service-state.js';
import { inProcessRunner } from '../../src/http/work/in-process.js';
import { findTool, skipWithout } from '../helpers/real-tool.js';
import { type ServedProcess, startServe } from '../helpers/serve.js';
import { GATEWAY_PROFILE, REDIS_DEFINITION, REDIS_PROFILE } from './support.js';

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

// Prometheus' own linter reads a live scrape of `kurel serve` (docs/service.md) after traffic on
// every route, so that every series and label value the service writes is there.
const PROMTOOL = findTool('promtool', ['--version']);

describe.skipIf(skipWithout(PROMTOOL))(`a live scrape under promtool check metrics (${PROMTOOL.version})`, () => {
  let served: ServedProcess;
  beforeAll(async () => {
    served = await startServe(['--host', '127.0.0.1', '--port', '0', '--processes', '2']);
  }, 60_000);
  afterAll(() => served?.stop());

  const call = async (method: string, path: string, body?: string, type = 'application/json') => {
    const res = await fetch(`${served.url}${path}`, { method, ...(body !== undefined ? { body, headers: { 'Content-Type': type } } : {}) });
    await res.arrayBuffer();
    return res.status;
  };

  it('passes with no complaint, every operation of kurel_validations_total documented and counted', async () => {
    const kind = { group: 'launcher.gokure.dev', version: 'v1alpha1', kind: 'ClusterProfile' };
    const review = (capabilities: Record<string, unknown>) =>
      JSON.stringify({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'u1',
          kind,
          operation: 'CREATE',
          object: { apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfile', metadata: { name: 'a' }, spec: { capabilities } },
        },
      });
    const versioned = REDIS_DEFINITION.replace('spec:\n', 'spec:\n  version: 1.0.0\n');
    const statuses = [
      await call('POST', '/v1/validate', GATEWAY_PROFILE, 'application/yaml'),
      await call('POST', '/v1/validate', GATEWAY_PROFILE.replace('controllerType', 'controlerType'), 'application/yaml'),
      await call('POST', '/v1/build', JSON.stringify({ application: 'x: [', profile: GATEWAY_PROFILE })),
      await call('POST', '/v1/admission', review({})),
      await call('POST', '/v1/admission', review({ expose: { rendering: { controllerType: 'ingress' } } })),
      await call('POST', '/v1/migrate', JSON.stringify({ profile: REDIS_PROFILE, to: ['redis-sidecar@1.0.0'], definitions: [versioned] })),
      await call('POST', '/v1/reload', '{}'),
      await call('GET', '/v1/capabilities'),
      await call('GET', '/v1/capabilities/expose'),
      await call('GET', '/v1/schema/cluster-profile'),
      await call('GET', '/healthz'),
      await call('GET', '/readyz'),
      await call('HEAD', '/readyz'),
      await call('GET', '/openapi.yaml'),
      await call('GET', '/'),
      await call('GET', '/assets/nothing-here.js'),
      await call('GET', '/codes/unknown-field'),
      await call('GET', '/no-such-route'),
      await call('DELETE', '/v1/validate'),
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 200, 404, 405]);
    const scrape = await (await fetch(`${served.url}/metrics`)).text();
    const lint = spawnSync(PROMTOOL.command, ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
    expect({ status: lint.status, stdout: lint.stdout, stderr: lint.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
    for (const operation of ['validate', 'build', 'migrate', 'admission'])
      expect(scrape).toMatch(new RegExp(`\\nkurel_validations_total\\{operation="${operation}",verdict="\\w+"\\} [1-9]`));
    expect(scrape).toContain(
      '# HELP kurel_validations_total Profiles validated, applications built, profiles migrated and admission reviews judged, by operation (validate, build, migrate, admission) and verdict (valid, invalid)\n',
    );
    expect(scrape).toContain('# TYPE nodejs_active_handles gauge\n');
    for (const name of MISNAMED_PROCESS_SERIES) expect(scrape).not.toContain(`\n${name}`);
  });
});
