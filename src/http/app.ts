import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import type { SeverityRules } from '../documents/kurel-config.js';
import { readOpenApiText } from '../files/package-files.js';
import type { Platform } from '../schema/platform-version.js';
import { consoleAssetRoute, consolePageRoute } from './console.js';
import { admission } from './edge/admission.js';
import { edge } from './edge/edge.js';
import { type Logger, silentLogger } from './logger.js';
import { createMetrics, type ServiceMetrics } from './metrics.js';
import { HttpProblem, sendProblem } from './problem.js';
import { type BodyKind, readBody } from './read-body.js';
import { reloadAccess } from './reload-access.js';
import { isAnswered } from './respond.js';
import { codeExplanationRoute } from './routes/codes.js';
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
  const admit = admission(limits);
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
      methods: { post: [admit, ...readBody(['json'], ADMISSION_BODY_BYTES), workRoute(work, admissionTask(versions), reviewOfFailure)] },
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
  return { app, state, metrics, logger, limits, requestIdsInFlight: inFlight.requestIds };
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

/** Body-parser errors by type: what the client did and the status that says it. */
const BODY_ERRORS: Readonly<Record<string, (limitBytes: number) => HttpProblem>> = {
  'entity.too.large': (limitBytes) => new HttpProblem(413, `the request body is larger than the limit of ${limitBytes} bytes`, {}, { limitBytes }),
  'encoding.unsupported': () => new HttpProblem(415, 'the Content-Encoding is not supported; send the body as identity, gzip, deflate or br'),
  'request.aborted': () => new HttpProblem(400, 'the request body ended before it was complete'),
  'request.size.invalid': () => new HttpProblem(400, 'the request body does not match its Content-Length'),
};

/**
 * The edge where errors become answers: request errors are problems with their status; any
 * other failure is a 500 whose detail never holds a stack (the log has it, under the request id).
 */
function answerErrors(logger: Logger, limits: ServiceLimits): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (isAnswered(res)) {
      // Already answered (the deadline): nothing more can be said on this connection once the
      // answer is out; one still waiting for its turn goes out as it is.
      if (res.headersSent) req.socket.destroy();
      return;
    }
    const problem = toProblem(err, req, limits);
    if (problem.status >= 500 && problem.status !== 503) logger.error({ err, requestId: res.locals['requestId'], path: req.path }, 'unexpected failure');
    sendProblem(res, problem);
  };
}

function toProblem(err: unknown, req: Request, limits: ServiceLimits): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const known = err as { type?: unknown; status?: unknown; expose?: unknown; limit?: unknown };
  const byType = typeof known?.type === 'string' ? BODY_ERRORS[known.type] : undefined;
  // The body reader says which limit it applied (a route may have a smaller one than the service's).
  if (byType) return byType(typeof known.limit === 'number' ? known.limit : limits.maxBodyBytes);
  // The router could not decode a path parameter: a bad percent escape, such as `/v1/capabilities/%`.
  if (err instanceof URIError && known.status === 400) return new HttpProblem(400, `the path ${JSON.stringify(req.path)} holds a malformed percent escape`);
  if (typeof known?.status === 'number' && known.status >= 400 && known.status < 500 && known.expose === true) {
    return new HttpProblem(known.status === 415 ? 415 : 400, 'the request could not be read');
  }
  return new HttpProblem(500, 'an unexpected error occurred; the server log has the details under this request id');
}
