// What a serving process needs to take requests once its catalogue is built (docs/service.md
// "During start"): the metrics (the parts of prom-client they need), a logger whose lines wait for
// pino, the edge, the probes and the routes answered before express, and the server; loaded on
// the main thread while the catalogue is built. pino, express and the rest of the routes come
// after (logger.ts, serving-express.ts).
export { createAppCore } from './app-core.js';
export { stagedListener } from './early-listener.js';
export { batchedDestination, diagnosticLines, logClock } from './log-lines.js';
export { pendingLogger } from './pending-logger.js';
export { startServer } from './server.js';
