import type { SeverityRules } from '../documents/kurel-config.js';
import type { Platform } from '../schema/platform-version.js';
import { type Admission, admission } from './edge/admission.js';
import { type Edge, edge } from './edge/edge.js';
import type { Logger } from './log-lines.js';
import { createMetrics, type ServiceMetrics } from './metrics.js';
import type { DirectRoute } from './routes/direct-routes.js';
import { logReloads } from './routes/operations.js';
import { reviewOfFailure, type WorkRouteOptions } from './routes/work.js';
import { ADMISSION_BODY_BYTES, DEFAULT_LIMITS, type ServiceLimits } from './service-limits.js';
import { ServiceState } from './service-state.js';
import type { TaskRunner, VersionOptions } from './work/task.js';

/** What an app serves from: a runner over a fixed catalogue, or a service state that can reload. */
export type AppOptions = ({ runner: TaskRunner; state?: undefined } | { state: ServiceState; runner?: undefined }) & {
  /** Where the app logs; nothing is logged without one. */
  logger?: Logger;
  limits?: Partial<ServiceLimits>;
  /** Add Node's process series (memory, CPU, event loop) to `/metrics`. */
  processMetrics?: boolean;
  /** The admin token `POST /v1/reload` requires; without one, only loopback callers may reload. */
  adminToken?: string;
  /** `--require-pinned`: a request's binding of a versioned definition without `version` is an error. */
  requirePinned?: boolean;
  /** The platform of the configuration file, under each request's profile and its `platform` member. */
  platformDefault?: Platform | undefined;
  /** The configuration file's severities, applied to every validation as lint applies them. */
  severity?: SeverityRules | undefined;
};

/**
 * The parts of the service that need no express (docs/service.md "During start"): the state,
 * the logger, the metrics, the edge that follows every request, the admission limit, and the
 * routes answered before express. A serving process builds them first and takes requests with
 * them at once; the express app (app.ts) is built on the same parts once express has loaded, so
 * a request is counted, logged, admitted and held to its deadline alike whichever answers it.
 */
export interface AppCore {
  state: ServiceState;
  logger: Logger;
  limits: ServiceLimits;
  metrics: ServiceMetrics;
  edge: Edge;
  admission: Admission;
  work: WorkRouteOptions;
  versions: VersionOptions;
  adminToken: string | undefined;
  /** Paths without a request deadline. */
  noDeadline: ReadonlySet<string>;
  /** `POST /v1/validate` and `POST /v1/admission`, answered on node:http when the request is ordinary (routes/direct-routes.ts). */
  direct: DirectRoute[];
  /** The ids of the requests being handled now (for the supervisor, should the process end). */
  requestIdsInFlight(): string[];
}

/** Paths whose answers have no request deadline: a reload is bounded by the loading of its workers. */
const NO_DEADLINE = new Set(['/v1/reload']);

/** Builds the parts of the service every route shares (see {@link AppCore}); loads neither express nor the console. */
export function createAppCore(options: AppOptions & { logger: Logger }): AppCore {
  const state = options.state ?? new ServiceState(options.runner);
  const { logger } = options;
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const metrics = createMetrics(state, { processMetrics: options.processMetrics ?? false });
  logReloads(state, logger);
  const versions: VersionOptions = {
    requirePinned: options.requirePinned === true,
    ...(options.platformDefault ? { platformDefault: options.platformDefault } : {}),
    ...(options.severity ? { severity: options.severity } : {}),
  };
  const inFlight = edge({ logger, metrics, state, limits, noDeadline: NO_DEADLINE });
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
  return {
    state,
    logger,
    limits,
    metrics,
    edge: inFlight,
    admission: admission(limits),
    work: { state, metrics, limits },
    versions,
    adminToken: options.adminToken,
    noDeadline: NO_DEADLINE,
    direct,
    requestIdsInFlight: inFlight.requestIds,
  };
}
