import { type DestinationStream, type Logger, pino } from 'pino';
import type { Diagnostic } from '../core/diagnostics.js';

export type { Logger } from 'pino';

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** The service's structured JSON logger (one line per event); `level` falls back to `info` when unknown. */
export function createLogger(level: string | undefined, destination?: DestinationStream): Logger {
  const options = { level: level && LEVELS.has(level) ? level : 'info', base: { service: 'kurel' } };
  return destination ? pino(options, destination) : pino(options);
}

/** A log destination that batches: lines logged in one turn of the event loop go out in one write. */
export interface BatchedDestination extends DestinationStream {
  /** Writes what is pending now (at exit, say). */
  flush(): void;
}

/**
 * Batches log lines into `write` (standard output, say): a busy service then makes one write
 * per turn of the event loop instead of one per request, and a quiet one still writes each
 * line at once.
 */
export function batchedDestination(write: (text: string) => void): BatchedDestination {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    write(text);
  };
  return {
    write(line: string) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

/** A logger that writes nothing. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** Diagnostics as log fields: one `file:line:column severity code message` string each. */
export function diagnosticLines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`);
}
