import type { LogFn } from 'pino';
import type { Diagnostic } from '../core/diagnostics.js';

// What the service logs through, without pino itself: a serving process takes requests before
// pino has loaded (docs/service.md "During start"), with a pending logger (pending-logger.ts)
// that writes through pino once it has.

/** The service's structured JSON logger: pino's (logger.ts), or a pending one until pino has loaded. */
export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  fatal: LogFn;
  isLevelEnabled(level: string): boolean;
  child(bindings: Record<string, unknown>): Logger;
}

/** The methods that write a line, by pino's value of their level. */
export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** A level that writes lines. */
export type LogLevel = keyof typeof LOG_LEVELS;

/** The level `LOG_LEVEL` names (`silent` writes nothing); `info` when it names none. */
export function logLevelOf(text: string | undefined): LogLevel | 'silent' {
  return text === 'silent' || (text !== undefined && Object.hasOwn(LOG_LEVELS, text)) ? (text as LogLevel | 'silent') : 'info';
}

/**
 * The clock of the log lines' `time`: now, or, while a line logged earlier is written, the time
 * it was logged (see {@link LogClock.at}).
 */
export interface LogClock {
  now(): number;
  /** Runs `write` with the clock at `time`. */
  at(time: number, write: () => void): void;
}

/** A clock at the time of day, unless told otherwise for a moment. */
export function logClock(): LogClock {
  let fixed: number | undefined;
  return {
    now: () => fixed ?? Date.now(),
    at(time, write) {
      fixed = time;
      try {
        write();
      } finally {
        fixed = undefined;
      }
    },
  };
}

/** Where log lines go: pino's destination interface, which this satisfies without loading pino. */
export interface BatchedDestination {
  write(line: string): void;
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

/** Diagnostics as log fields: one `file:line:column severity code message` string each. */
export function diagnosticLines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`);
}
