// What `kurel serve` needs once its workers are starting: the HTTP stack (express, pino,
// prom-client and kurel's app), loaded on the main thread while the workers load the catalogue.
export { createApp } from './app.js';
export { batchedDestination, createLogger, diagnosticLines } from './logger.js';
export { startServer } from './server.js';
export { watchDefinitions } from './watch-definitions.js';
