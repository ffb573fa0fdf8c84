import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load, pinned } from './helpers.js';

const DIR = new URL('../../definitions/', import.meta.url);
const FILES = readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const read = (url: URL) => readFileSync(url, 'utf8');
const ALL: [string, string][] = FILES.map((f) => [`definitions/${f}`, read(new URL(f, DIR))]);
const profile = (name: string) => read(new URL(`../../profiles/${name}`, import.meta.url));

describe('the definitions folder', () => {
  it('holds the redis-sidecar fixture and at least three more', () => {
    expect(FILES).toContain('redis-sidecar.yaml');
    expect(FILES.length).toBeGreaterThanOrEqual(4);
  });

  it.each(FILES)('%s loads with no diagnostics, under the name of its file', (file) => {
    const loaded = load([[`definitions/${file}`, read(new URL(file, DIR))]]);
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.definition(file.replace(/\.ya?ml$/, ''))?.file).toBe(`definitions/${file}`);
  });

  it('loads as a whole with no conflicts', () => {
    const loaded = load(ALL);
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.listDefinitions()).toHaveLength(FILES.length);
  });
});

describe('the profiles that use the definitions', () => {
  const resolved = (name: string) => {
    const { report } = load(ALL, profile(name));
    expect(pinned({ report })).toEqual([]);
    return report.files.find((f) => f.path === 'cluster.yaml')?.resolved?.capabilities;
  };

  it('custom-managed-postgres.yaml resolves with nested defaults only where objects are present', () => {
    expect(resolved('custom-managed-postgres.yaml')).toEqual({
      expose: { controllerType: 'ingress', ingressClassName: 'nginx' },
      'managed-postgres': {
        version: '16',
        instances: 2,
        storage: { size: '50Gi', storageClassName: 'gp3-encrypted' },
        backup: { schedule: '30 2 * * *', enabled: true, retentionDays: 30 },
        parameters: { max_connections: '200', shared_buffers: '1GB' },
      },
      'managed-postgres.analytics': { version: '17', instances: 1, storage: { size: '500Gi' } },
    });
  });

  it('custom-metrics-scraping.yaml resolves with item defaults in every endpoint', () => {
    expect(resolved('custom-metrics-scraping.yaml')).toEqual({
      'metrics-scraping': {
        endpoints: [
          { port: 'http-metrics', path: '/metrics', interval: '30s', scheme: 'http' },
          { port: 'admin', path: '/admin/metrics', interval: '1m', scheme: 'https' },
        ],
        scrapeTimeoutSeconds: 15,
        honorLabels: false,
        extraLabels: { cluster: 'staging', region: 'eu-west-1' },
      },
    });
  });

  it('custom-rate-limit.yaml resolves the bare and the scoped binding each with its defaults', () => {
    expect(resolved('custom-rate-limit.yaml')).toEqual({
      expose: { controllerType: 'gateway', gatewayName: 'public-gw', gatewayNamespace: 'gateway-system' },
      'rate-limit': {
        requestsPerSecond: 50,
        burst: 100,
        key: 'client-ip',
        responseCode: 429,
        allowlist: ['10.0.0.0/8', '192.168.0.0/16'],
        exemptPaths: ['/healthz', '/readyz'],
      },
      'rate-limit.internal': { requestsPerSecond: 2000.5, burst: 0, key: 'header', headerName: 'X-Tenant-Id', responseCode: 503 },
    });
  });
});
