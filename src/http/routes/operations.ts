import type { RequestHandler } from 'express';
import { registryDigest } from '../../catalogue/registry-digest.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import { diagnosticLines, type Logger } from '../logger.js';
import type { ServiceMetrics } from '../metrics.js';
import { sendJson, sendText } from '../respond.js';
import type { ReloadRecord, ServiceState } from '../service-state.js';

/** `GET /healthz`: the process is up and answering. */
export function healthRoute(): RequestHandler {
  return (_req, res) => {
    sendJson(res, 200, { status: 'ok' });
  };
}

/**
 * `GET /readyz`: 200 while the service takes requests, 503 once shutdown has begun. Either way
 * it tells which registry is in service and how the last reload went (a failed reload leaves
 * the previous registry in service, so the service stays ready).
 */
export function readinessRoute(state: ServiceState): RequestHandler {
  return (_req, res) => {
    const catalogue = state.catalogue;
    sendJson(res, state.isDraining ? 503 : 200, {
      status: state.isDraining ? 'draining' : 'ready',
      registry: {
        loadedAt: state.loadedAt.toISOString(),
        handlers: catalogue.listHandlers().length,
        definitions: catalogue.listDefinitions().length,
        digest: registryDigest(catalogue),
      },
      lastReload: describeReload(state.lastReload),
    });
  };
}

/** `POST /v1/reload`: reloads the definitions as SIGHUP does; 200 with the outcome, failed or not. */
export function reloadRoute(state: ServiceState): RequestHandler {
  return async (_req, res) => {
    const record = await state.reload();
    sendJson(res, 200, { reloaded: record.ok, ...describeReload(record) });
  };
}

/** `GET /metrics`: the Prometheus text exposition. */
export function metricsRoute(metrics: ServiceMetrics): RequestHandler {
  return async (_req, res) => {
    const text = await metrics.registry.metrics();
    res.statusCode = 200;
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.end(text);
  };
}

/** `GET /openapi.yaml`: the service's contract. */
export function openApiRoute(text: string): RequestHandler {
  return (_req, res) => {
    sendText(res, 200, 'application/yaml', text);
  };
}

/** Logs every reload attempt: what is in service after it, and why a failed one was refused. */
export function logReloads(state: ServiceState, logger: Logger): void {
  state.onReload((record) => {
    if (record.ok) {
      logger.info({ definitions: record.definitions, warnings: diagnosticLines(record.diagnostics) }, 'definitions reloaded');
    } else {
      logger.error({ definitions: record.definitions, errors: diagnosticLines(record.diagnostics) }, 'reload failed: the previous definitions stay in service');
    }
  });
}

function describeReload(record: ReloadRecord): { at: string; ok: boolean; definitions: number; diagnostics: Diagnostic[] } {
  return { at: record.at.toISOString(), ok: record.ok, definitions: record.definitions, diagnostics: record.diagnostics };
}
