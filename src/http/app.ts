import type { RequestListener } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { readOpenApiText } from '../files/package-files.js';
import { type AppCore, type AppOptions, createAppCore } from './app-core.js';
import { consoleAssetRoute, consolePageRoute } from './console.js';
import { answerError } from './edge/answer-error.js';
import type { Logger } from './log-lines.js';
import { silentLogger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';
import { HttpProblem, sendProblem } from './problem.js';
import { type BodyKind, bodyBytes, readBody } from './read-body.js';
import { reloadAccess } from './reload-access.js';
import { codeExplanationRoute } from './routes/codes.js';
import { directRoutes } from './routes/direct-routes.js';
import { healthRoute, metricsRoute, openApiRoute, readinessRoute, reloadRoute } from './routes/operations.js';
import {
  admissionTask,
  buildTask,
  capabilitiesTask,
  capabilityTask,
  clusterProfileSchemaTask,
  migrateTask,
  reviewOfFailure,
  validateTask,
  workRoute,
} from './routes/work.js';
import { ADMISSION_BODY_BYTES, type ServiceLimits } from './service-limits.js';
import type { ServiceState } from './service-state.js';

export type { AppOptions } from './app-core.js';

/** An express app serving the kurel API, with what its server needs to run it. */
export interface KurelApp {
  app: Express;
  /** What a server serves: `POST /v1/validate` and `POST /v1/admission` answered before express when the request is ordinary (routes/direct-routes.ts), everything else by {@link KurelApp.app}. */
  listener: RequestListener;
  state: ServiceState;
  metrics: ServiceMetrics;
  logger: Logger;
  limits: ServiceLimits;
  /** The ids of the requests being handled now (for the supervisor, should the process end). */
  requestIdsInFlight(): string[];
}

type Method = 'get' | 'post';

/** A route of the API: its path (express syntax) and its handlers by method. */
interface RouteSpec {
  path: string;
  methods: Partial<Record<Method, RequestHandler[]>>;
}

/** The largest body `POST /v1/reload` reads (and ignores). */
const RELOAD_BODY_BYTES = 1024;

/**
 * Creates the express app of the validation service (docs/service.md), without listening: tests
 * drive it in-process and `startServer` serves it. Every route is in `openapi.yaml`; any other
 * path is 404 and any other method 405, both as `application/problem+json`. The routes that read
 * documents or the catalogue hand their work to the runner (docs/service.md) and share one
 * admission limit; probes, metrics, reload and the static routes answer on the main thread.
 */
export function createApp(options: AppOptions): KurelApp {
  return expressApp(createAppCore({ ...options, logger: options.logger ?? silentLogger() }));
}

/**
 * The express app on the parts `core` already holds (app-core.ts): a serving process takes
 * requests with those parts alone while express loads, then serves with this app
 * (docs/service.md "During start"). The listener is the same as {@link createApp}'s.
 */
export function expressApp(core: AppCore): KurelApp {
  const { state, logger, limits, metrics, versions, work } = core;
  const body = (...kinds: BodyKind[]) => readBody(kinds, limits.maxBodyBytes);
  const admit = core.admission.handler;

  const routes: RouteSpec[] = [
    { path: '/v1/validate', methods: { post: [admit, ...body('json', 'yaml'), workRoute(work, validateTask(versions))] } },
    { path: '/v1/build', methods: { post: [admit, ...body('json'), workRoute(work, buildTask(versions))] } },
    {
      path: '/v1/admission',
      methods: {
        post: [
          admit,
          ...readBody(['json'], ADMISSION_BODY_BYTES),
          workRoute(work, admissionTask(versions), (problem, req) => reviewOfFailure(problem, bodyBytes(req))),
        ],
      },
    },
    { path: '/v1/migrate', methods: { post: [admit, ...body('json'), workRoute(work, migrateTask(versions))] } },
    { path: '/v1/capabilities', methods: { get: [admit, workRoute(work, capabilitiesTask)] } },
    { path: '/v1/capabilities/:type', methods: { get: [admit, workRoute(work, capabilityTask)] } },
    { path: '/v1/schema/cluster-profile', methods: { get: [admit, workRoute(work, clusterProfileSchemaTask)] } },
    {
      path: '/v1/reload',
      methods: { post: [reloadAccess(core.adminToken), ...readBody(['json'], RELOAD_BODY_BYTES), reloadRoute(state)] },
    },
    { path: '/healthz', methods: { get: [healthRoute()] } },
    { path: '/readyz', methods: { get: [readinessRoute(state)] } },
    { path: '/metrics', methods: { get: [metricsRoute(metrics)] } },
    { path: '/openapi.yaml', methods: { get: [openApiRoute(readOpenApiText())] } },
    { path: '/', methods: { get: [consolePageRoute()] } },
    { path: '/assets/:name', methods: { get: [consoleAssetRoute()] } },
    { path: '/codes/:code', methods: { get: [codeExplanationRoute()] } },
  ];

  const app = express();
  app.disable('x-powered-by');
  // Answers are computed per request; hashing each one for an ETag would only cost time.
  app.disable('etag');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use(core.edge.handler);
  for (const spec of routes) {
    const route = app.route(spec.path);
    for (const [method, handlers] of Object.entries(spec.methods) as [Method, RequestHandler[]][]) route[method](...handlers);
    route.all(methodNotAllowed(allowedMethods(spec)));
  }
  app.use(notFound);
  app.use(answerErrors(logger, limits));
  const listener = directRoutes({ edge: core.edge, admission: core.admission, work, logger }, core.direct, app);
  return { app, listener, state, metrics, logger, limits, requestIdsInFlight: core.requestIdsInFlight };
}

/** The methods a route answers, as the `Allow` header lists them (HEAD comes with GET). */
function allowedMethods(spec: RouteSpec): string {
  const methods = Object.keys(spec.methods).map((m) => m.toUpperCase());
  if (methods.includes('GET')) methods.push('HEAD');
  return methods.join(', ');
}

function methodNotAllowed(allow: string): RequestHandler {
  return (req, res) => {
    sendProblem(res, new HttpProblem(405, `method ${req.method} is not allowed on ${req.path}; allowed: ${allow}`, { Allow: allow }));
  };
}

const notFound: RequestHandler = (req, res) => {
  sendProblem(res, new HttpProblem(404, `no route ${req.path}; the routes are listed in /openapi.yaml`));
};

/** The edge where errors become answers (see {@link answerError}). */
function answerErrors(logger: Logger, limits: ServiceLimits): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    answerError(err, { req, res, path: req.path, logger, limits });
  };
}
