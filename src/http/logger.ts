import { type DestinationStream, pino } from 'pino';
import { type LogClock, type Logger, logLevelOf } from './log-lines.js';

export { type BatchedDestination, batchedDestination, diagnosticLines, type Logger } from './log-lines.js';

/**
 * The service's structured JSON logger (one line per event, pino); `level` falls back to `info`
 * when unknown. Each line's `time` is read from `clock` when one is given (see pending-logger.ts).
 */
export function createLogger(level: string | undefined, destination?: DestinationStream, clock?: LogClock): Logger {
  const options = {
    level: logLevelOf(level),
    base: { service: 'kurel' },
    ...(clock ? { timestamp: () => `,"time":${clock.now()}` } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
