import type { RequestListener } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { SeverityRules } from '../documents/kurel-config.js';
import { readOpenApiText } from '../files/package-files.js';
import type { Platform } from '../schema/platform-version.js';
import { consoleAssetRoute, consolePageRoute } from './console.js';
import { admission } from './edge/admission.js';
import { answerError } from './edge/answer-error.js';
import { edge } from './edge/edge.js';
import { type Logger, silentLogger } from './logger.js';
import { createMetrics, type ServiceMetrics } from './metrics.js';
import { HttpProblem, sendProblem } from './problem.js';
import { type BodyKind, bodyBytes, readBody } from './read-body.js';
import { reloadAccess } from './reload-access.js';
import { codeExplanationRoute } from './routes/codes.js';
import { type DirectRoute, directRoutes } from './routes/direct-routes.js';
import { healthRoute, logReloads, metricsRoute, openApiRoute, readinessRoute, reloadRoute } from './routes/operations.js';
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
import { ADMISSION_BODY_BYTES, DEFAULT_LIMITS, type ServiceLimits } from './service-limits.js';
import { ServiceState } from './service-state.js';
import type { TaskRunner, VersionOptions } from './work/task.js';

/** What an app serves from: a runner over a fixed catalogue, or a service state that can reload. */
export type AppOptions = ({ runner: TaskRunner; state?: undefined } | { state: ServiceState; runner?: undefined }) & {
  logger?: Logger;
  limits?: Partial<ServiceLimits>;
  /** Add Node's process series (memory, CPU, event loop) to `/metrics`. */
  processMetrics?: boolean;
  /** The admin token `POST /v1/reload` requires; without one, only loopback callers may reload. */
  adminToken?: string;
  /** `--require-pinned`: a request's binding of a versioned definition without `version` is an error. */
  requirePinned?: boolean;
  /** The config file's `platform`, under each request's profile and its `platform` member. */
  platformDefault?: Platform | undefined;
  /** The config file's severities, applied to every validation as lint applies them. */
  severity?: SeverityRules | undefined;
};

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

/** Paths whose answers have no request deadline: a reload is bounded by the loading of its workers. */
const NO_DEADLINE = new Set(['/v1/reload']);

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
  const state = options.state ?? new ServiceState(options.runner);
  const logger = options.logger ?? silentLogger();
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const metrics = createMetrics(state, { processMetrics: options.processMetrics ?? false });
  logReloads(state, logger);
  const body = (...kinds: BodyKind[]) => readBody(kinds, limits.maxBodyBytes);
  const admitted = admission(limits);
  const admit = admitted.handler;
  const work = { state, metrics, limits };
  const versions: VersionOptions = {
    requirePinned: options.requirePinned === true,
    ...(options.platformDefault ? { platformDefault: options.platformDefault } : {}),
    ...(options.severity ? { severity: options.severity } : {}),
  };

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
      methods: { post: [reloadAccess(options.adminToken), ...readBody(['json'], RELOAD_BODY_BYTES), reloadRoute(state)] },
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
  const inFlight = edge({ logger, metrics, state, limits, noDeadline: NO_DEADLINE });
  app.use(inFlight.handler);
  for (const spec of routes) {
    const route = app.route(spec.path);
    for (const [method, handlers] of Object.entries(spec.methods) as [Method, RequestHandler[]][]) route[method](...handlers);
    route.all(methodNotAllowed(allowedMethods(spec)));
  }
  app.use(notFound);
  app.use(answerErrors(logger, limits));
  const direct: DirectRoute[] = [
    {
      path: '/v1/validate',
      accepted: ['json', 'yaml'],
      maxBytes: limits.maxBodyBytes,
      task: (bodyKind, bytes) => ({ kind: 'validate', bodyKind, body: bytes, versions }),
    },
    {
      path: '/v1/admission',
      accepted: ['json'],
      maxBytes: ADMISSION_BODY_BYTES,
      // A copy for the worker, as admissionTask makes: the request keeps its own bytes for reviewOfFailure.
      task: (_kind, bytes) => ({ kind: 'admission', body: new Uint8Array(bytes), versions }),
      answerFailure: reviewOfFailure,
    },
  ];
  const listener = directRoutes({ edge: inFlight, admission: admitted, work, logger }, direct, app);
  return { app, listener, state, metrics, logger, limits, requestIdsInFlight: inFlight.requestIds };
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
