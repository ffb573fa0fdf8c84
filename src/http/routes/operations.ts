import type { RequestHandler } from 'express';
import type { Diagnostic } from '../../core/diagnostics.js';
import { diagnosticLines, type Logger } from '../log-lines.js';
import type { ServiceMetrics } from '../metrics.js';
import { type Answerable, endInTurn, sendJson, sendText } from '../respond.js';
import type { ReloadRecord, ServiceState } from '../service-state.js';

/** `GET /healthz`: the process is up and answering. */
export function healthRoute(): RequestHandler {
  return (_req, res) => answerHealth(res);
}

/** The answer of `GET /healthz`, without express (also given before express has loaded, see early-listener.ts). */
export function answerHealth(res: Answerable): void {
  sendJson(res, 200, { status: 'ok' });
}

/**
 * `GET /readyz`: 200 once every worker has loaded the registry and while the service takes
 * requests; 503 while workers are still loading at start (`starting`: the service already
 * answers, on the workers loaded) and once shutdown has begun (`draining`). Either way it tells
 * which registry is in service and how the last reload went (a failed reload leaves the previous
 * registry in service, so the service stays ready). Replacing a worker never changes readiness.
 */
export function readinessRoute(state: ServiceState): RequestHandler {
  return (_req, res) => answerReadiness(state, res);
}

/**
 * The answer of `GET /readyz` (see {@link readinessRoute}), without express (also given before
 * express has loaded, see early-listener.ts). While a reload's switch is under way in the other
 * processes it waits for them (a moment), so the digest it reports is the one every process
 * serves (docs/service.md "Reload").
 */
export function answerReadiness(state: ServiceState, res: Answerable): void {
  const settling = state.settling;
  if (settling) {
    void settling.then(() => answerReadiness(state, res));
    return;
  }
  const registry = state.registry;
  const status = readiness(state);
  sendJson(res, status === 'ready' ? 200 : 503, {
    status,
    registry: { loadedAt: state.loadedAt.toISOString(), handlers: registry.handlers, definitions: registry.definitions, digest: registry.digest },
    lastReload: describeReload(state.lastReload),
  });
}

function readiness(state: ServiceState): 'starting' | 'ready' | 'draining' {
  if (state.isDraining) return 'draining';
  return state.isReady ? 'ready' : 'starting';
}

/**
 * `POST /v1/reload`: reloads the definitions as SIGHUP does; 200 with the outcome, failed or
 * not. It takes no admission slot, and concurrent reloads are coalesced (see
 * {@link ServiceState.reload}); who may call it is checked before (`reloadAccess`).
 */
export function reloadRoute(state: ServiceState): RequestHandler {
  return async (_req, res) => {
    const record = await state.reloadEverywhere();
    sendJson(res, 200, { reloaded: record.ok, ...describeReload(record) });
  };
}

/** `GET /metrics`: the Prometheus text exposition. */
export function metricsRoute(metrics: ServiceMetrics): RequestHandler {
  return async (_req, res) => {
    const text = await metrics.exposition();
    res.statusCode = 200;
    res.setHeader('Content-Type', metrics.registry.contentType);
    endInTurn(res, text);
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
