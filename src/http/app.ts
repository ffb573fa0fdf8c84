import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Catalogue } from '../catalogue/catalogue.js';
import { readOpenApiText } from '../files/package-files.js';
import type { SeverityOf } from '../operations/severity.js';
import type { Platform } from '../schema/platform-version.js';
import { type BodyKind, readBody } from './body.js';
import { consoleAssetRoute, consolePageRoute } from './console.js';
import { edge } from './edge.js';
import { DEFAULT_LIMITS, type ServiceLimits } from './limits.js';
import { type Logger, silentLogger } from './logger.js';
import { createMetrics, type ServiceMetrics } from './metrics.js';
import { HttpProblem, sendProblem } from './problem.js';
import { buildRoute } from './routes/build.js';
import { capabilitiesRoute, capabilityRoute, clusterProfileSchemaRoute } from './routes/catalog.js';
import { codeExplanationRoute } from './routes/codes.js';
import { migrateRoute } from './routes/migrate.js';
import { healthRoute, logReloads, metricsRoute, openApiRoute, readinessRoute, reloadRoute } from './routes/operations.js';
import { validateRoute } from './routes/validate.js';
import { ServiceState } from './service-state.js';

/** What an app serves from: a fixed catalogue, or a service state that can reload. */
export type AppOptions = ({ catalogue: Catalogue; state?: undefined } | { state: ServiceState; catalogue?: undefined }) & {
  logger?: Logger;
  limits?: Partial<ServiceLimits>;
  /** Add Node's process series (memory, CPU, event loop) to `/metrics`. */
  processMetrics?: boolean;
  /** `--require-pinned`: a request's binding of a versioned definition without `version` is an error. */
  requirePinned?: boolean;
  /** The repository's default platform (the config file's `platform`), under each profile's own and a request's `platform`. */
  platformDefault?: Platform | undefined;
  /** The severities of the config file (DESIGN §11), applied to every validation as lint applies them. */
  severityOf?: SeverityOf | undefined;
};

/** An express app serving the kurel API, with what its server needs to run it. */
export interface KurelApp {
  app: Express;
  state: ServiceState;
  metrics: ServiceMetrics;
  logger: Logger;
  limits: ServiceLimits;
}

type Method = 'get' | 'post';

/** A route of the API: its path (express syntax) and its handlers by method. */
interface RouteSpec {
  path: string;
  methods: Partial<Record<Method, RequestHandler[]>>;
}

/** Paths never refused by the concurrency limit, so an overloaded service still reports. */
const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Creates the express app of the validation service (DESIGN §5.2), without listening: tests
 * drive it in-process and `startServer` serves it. Every route is in `openapi.yaml`; any other
 * path is 404 and any other method 405, both as `application/problem+json`.
 */
export function createApp(options: AppOptions): KurelApp {
  const state = options.state ?? new ServiceState(options.catalogue);
  const logger = options.logger ?? silentLogger();
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const metrics = createMetrics(state, { processMetrics: options.processMetrics ?? false });
  logReloads(state, logger);
  const body = (...kinds: BodyKind[]) => readBody(kinds, limits.maxBodyBytes);
  const versionOptions = { requirePinned: options.requirePinned === true, platform: { repositoryDefault: options.platformDefault } };
  const lintOptions = { ...versionOptions, ...(options.severityOf ? { severityOf: options.severityOf } : {}) };

  const routes: RouteSpec[] = [
    { path: '/v1/validate', methods: { post: [...body('json', 'yaml'), validateRoute(state, metrics, lintOptions)] } },
    { path: '/v1/build', methods: { post: [...body('json'), buildRoute(state, metrics, versionOptions)] } },
    { path: '/v1/migrate', methods: { post: [...body('json'), migrateRoute(state, metrics, versionOptions)] } },
    { path: '/v1/capabilities', methods: { get: [capabilitiesRoute(state)] } },
    { path: '/v1/capabilities/:type', methods: { get: [capabilityRoute(state)] } },
    { path: '/v1/schema/cluster-profile', methods: { get: [clusterProfileSchemaRoute(state)] } },
    { path: '/v1/reload', methods: { post: [reloadRoute(state)] } },
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
  app.use(edge({ logger, metrics, state, limits, exempt: OPERATIONS_PATHS }));
  for (const spec of routes) {
    const route = app.route(spec.path);
    for (const [method, handlers] of Object.entries(spec.methods) as [Method, RequestHandler[]][]) route[method](...handlers);
    route.all(methodNotAllowed(allowedMethods(spec)));
  }
  app.use(notFound);
  app.use(answerErrors(logger, limits));
  return { app, state, metrics, logger, limits };
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
const BODY_ERRORS: Readonly<Record<string, (limits: ServiceLimits) => HttpProblem>> = {
  'entity.too.large': (limits) =>
    new HttpProblem(413, `the request body is larger than the limit of ${limits.maxBodyBytes} bytes`, {}, { limitBytes: limits.maxBodyBytes }),
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
    if (res.headersSent) {
      // Already answered (the time limit); nothing more can be said on this connection.
      req.socket.destroy();
      return;
    }
    const problem = toProblem(err, limits);
    if (problem.status >= 500) logger.error({ err, requestId: res.locals['requestId'], path: req.path }, 'unexpected failure');
    sendProblem(res, problem);
  };
}

function toProblem(err: unknown, limits: ServiceLimits): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const known = err as { type?: unknown; status?: unknown; expose?: unknown };
  const byType = typeof known?.type === 'string' ? BODY_ERRORS[known.type] : undefined;
  if (byType) return byType(limits);
  if (typeof known?.status === 'number' && known.status >= 400 && known.status < 500 && known.expose === true) {
    return new HttpProblem(known.status === 415 ? 415 : 400, 'the request could not be read');
  }
  return new HttpProblem(500, 'an unexpected error occurred; the server log has the details under this request id');
}
