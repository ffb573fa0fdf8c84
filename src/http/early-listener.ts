import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AppCore } from './app-core.js';
import { markArrival } from './edge/in-flight.js';
import { HttpProblem, sendProblem } from './problem.js';
import type { Answerable } from './respond.js';
import { directRoutes } from './routes/direct-routes.js';
import { answerHealth, answerReadiness } from './routes/operations.js';

/** A listener that serves before express has loaded, and as the express app once it has. */
export interface StagedListener {
  listener: RequestListener;
  /** Express has loaded: `app` (app.ts's listener over the same core) serves every request from now on, the held ones first. */
  complete(app: RequestListener): void;
}

/** Requests held for express at most (unless told otherwise); more are answered 503 with `Retry-After: 1` (express loads in tens of milliseconds). */
export const MAX_HELD = 1024;

const PROBES: ReadonlyMap<string, (core: AppCore, res: Answerable) => void> = new Map([
  ['/healthz', (_core: AppCore, res: Answerable) => answerHealth(res)],
  ['/readyz', (core: AppCore, res: Answerable) => answerReadiness(core.state, res)],
]);

/**
 * The listener of a serving process from the moment it can judge until express has loaded
 * (docs/service.md "During start"): `GET` and `HEAD` of `/healthz` and `/readyz` are answered
 * here, ordinary `POST /v1/validate` and `POST /v1/admission` by the direct routes, each through
 * the edge with the same answer, access log line and metrics as once express serves; every
 * other request (and a direct-route request express is to read) is held, never refused, and
 * handed to express once it has loaded, its deadline counted from its arrival (`onHold` is called
 * for each, so that express can be loaded at once). Once
 * {@link StagedListener.complete} is called the listener is app.ts's, and nothing is answered
 * here any more.
 */
export function stagedListener(core: AppCore, options: { maxHeld?: number; onHold?: () => void } = {}): StagedListener {
  const maxHeld = options.maxHeld ?? MAX_HELD;
  const held: { req: IncomingMessage; res: ServerResponse; at: number }[] = [];
  let app: RequestListener | undefined;
  const hold: RequestListener = (req, res) => {
    if (app) return app(req, res);
    const at = markArrival(req);
    if (held.length >= maxHeld) return refuse(core, req, res, STARTING);
    const entry = { req, res, at };
    held.push(entry);
    options.onHold?.();
    // A client that leaves while its request is held is forgotten at once.
    res.once('close', () => {
      const at = held.indexOf(entry);
      if (at >= 0) held.splice(at, 1);
    });
  };
  const direct = directRoutes({ edge: core.edge, admission: core.admission, work: core.work, logger: core.logger }, core.direct, hold);
  const early: RequestListener = (req, res) => {
    const probe = req.method === 'GET' || req.method === 'HEAD' ? probeOf(req.url) : undefined;
    if (probe === undefined || core.edge.draining()) return direct(req, res);
    const answerable = res as ServerResponse & Partial<Answerable>;
    answerable.locals = Object.create(null) as Record<string, unknown>;
    core.edge.follow(req, answerable as Answerable, probe, probe);
    PROBES.get(probe)!(core, answerable as Answerable);
  };
  let current: RequestListener = early;
  return {
    listener: (req, res) => current(req, res),
    complete(done) {
      if (app) return;
      app = done;
      current = done;
      const { requestTimeoutMs } = core.limits;
      const now = performance.now();
      for (const { req, res, at } of held.splice(0)) {
        if (res.destroyed) continue;
        // Past its deadline already: answered as a request still queued then would be.
        if (now - at > requestTimeoutMs && !core.noDeadline.has(pathOf(req.url))) refuse(core, req, res, lateProblem(requestTimeoutMs));
        else done(req, res);
      }
    },
  };
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function probeOf(url: string | undefined): string | undefined {
  const path = pathOf(url);
  return PROBES.has(path) ? path : undefined;
}

const STARTING = new HttpProblem(503, 'the service is still starting; retry shortly', { 'Retry-After': '1' });

function lateProblem(ms: number): HttpProblem {
  return new HttpProblem(503, `the service was still starting when the time limit of ${ms} ms passed; retry shortly`, { 'Retry-After': '1' }, { limitMs: ms });
}

/** Answers a held request with `problem`, followed by the edge (counted under `unmatched`: it was never routed). */
function refuse(core: AppCore, req: IncomingMessage, res: ServerResponse, problem: HttpProblem): void {
  const answerable = res as ServerResponse & Partial<Answerable>;
  answerable.locals = Object.create(null) as Record<string, unknown>;
  core.edge.follow(req, answerable as Answerable, pathOf(req.url), 'unmatched');
  sendProblem(answerable as Answerable, problem);
}
