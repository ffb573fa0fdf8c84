// What a serving process needs to take requests once its catalogue is built (docs/service.md
// "During start"): the logger (pino), the metrics (prom-client), the edge, the probes and the
// routes answered before express, and the server; loaded on the main thread while the catalogue
// is built. Express and the rest of the routes come after, from serving-express.ts.
export { createAppCore } from './app-core.js';
export { stagedListener } from './early-listener.js';
export { batchedDestination, createLogger, diagnosticLines } from './logger.js';
export { startServer } from './server.js';
