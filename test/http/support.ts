import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import type { Catalogue } from '../../src/catalogue/catalogue.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { type AppOptions, createApp, type KurelApp } from '../../src/http/app.js';
import { createLogger } from '../../src/http/logger.js';
import { inProcessRunner } from '../../src/http/work/in-process.js';

/** A valid profile: one gateway binding, whose namespace the built-in defaults. Line 10 is `gatewayName`. */
export const GATEWAY_PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: edge
spec:
  capabilities:
    expose:
      rendering:
        controllerType: gateway
        gatewayName: public-gw
`;

/** What {@link GATEWAY_PROFILE} resolves to. */
export const GATEWAY_RESOLVED = {
  gitopsEngine: 'fluxcd',
  capabilities: { expose: { controllerType: 'gateway', gatewayName: 'public-gw', gatewayNamespace: 'gateway-system' } },
  versions: {},
};

/** {@link GATEWAY_PROFILE} as a JSON document. */
export const GATEWAY_DOCUMENT = {
  apiVersion: 'launcher.gokure.dev/v1alpha1',
  kind: 'ClusterProfile',
  metadata: { name: 'edge' },
  spec: { capabilities: { expose: { rendering: { controllerType: 'gateway', gatewayName: 'public-gw' } } } },
};

/** A CapabilityDefinition of `redis-sidecar`: `image` required, `port` defaults to 6379. */
export const REDIS_DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: redis-sidecar
spec:
  description: Injects a Redis sidecar container
  rendering:
    properties:
      image: {type: string, required: true}
      port: {type: integer, default: 6379}
`;

/** A profile binding `redis-sidecar`; line 9 is `image`. */
export const REDIS_PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: cache
spec:
  capabilities:
    redis-sidecar:
      rendering:
        image: redis:7
`;

/** Log lines an app wrote, parsed. */
export interface CapturedLog {
  lines: Record<string, unknown>[];
}

/** An app over the built-in handlers (or the catalogue or state given), judging on the test's thread and logging into memory. */
export function testApp(options: Partial<AppOptions> & { catalogue?: Catalogue; logLevel?: string } = {}): KurelApp & { log: CapturedLog } {
  const log: CapturedLog = { lines: [] };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) log.lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const { catalogue, logLevel, ...rest } = options;
  const base = options.state ? { state: options.state } : { runner: inProcessRunner(catalogue ?? createCatalogue()) };
  const kurel = createApp({ ...rest, ...base, logger: createLogger(logLevel ?? 'info', sink) } as AppOptions);
  return { ...kurel, log };
}

/** An answer read off the wire. */
export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Starts a request whose body arrives in two parts: the headers (with the full Content-Length)
 * and `first` go out now; `finish` sends the rest. `response` settles when the server answers.
 */
export function startSlowRequest(
  url: string,
  path: string,
  body: string,
  options: { first?: number; contentType?: string; requestId?: string } = {},
): { response: Promise<WireResponse>; finish(): void } {
  const first = options.first ?? Math.floor(body.length / 2);
  const target = new URL(path, url);
  const req = httpRequest(target, {
    method: 'POST',
    headers: {
      'Content-Type': options.contentType ?? 'application/yaml',
      'Content-Length': Buffer.byteLength(body),
      ...(options.requestId === undefined ? {} : { 'X-Request-Id': options.requestId }),
    },
  });
  const response = new Promise<WireResponse>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  req.write(body.slice(0, first));
  return { response, finish: () => req.end(body.slice(first)) };
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
