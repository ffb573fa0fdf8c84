import { LOG_LEVELS, type LogClock, type Logger, type LogLevel, logLevelOf } from './log-lines.js';

/** A logger whose lines wait for pino (see {@link pendingLogger}). */
export interface PendingLogger extends Logger {
  /**
   * pino has loaded: every line kept is written through `real`, in order, each with the time it
   * was logged (read from `clock`, which `real` must use), and every line from now on goes
   * straight to it.
   */
  settle(real: Logger, clock: LogClock): void;
  /** True once {@link settle} has been called. */
  readonly settled: boolean;
}

interface Kept {
  bindings: readonly Record<string, unknown>[];
  level: LogLevel;
  args: unknown[];
  time: number;
}

/**
 * A logger for a serving process's first moments, before pino has loaded (docs/service.md
 * "During start"): a line at a level `level` lets through is kept with its time and written
 * through pino once {@link PendingLogger.settle} gives it, so the log reads as if pino had been
 * there from the start. Children keep their bindings. At most `maxKept` lines are kept; beyond
 * them (a flood of failing requests in the first milliseconds), the oldest are dropped.
 */
export function pendingLogger(level: string | undefined, maxKept = 10_000): PendingLogger {
  const threshold = logLevelOf(level);
  const minimum = threshold === 'silent' ? Number.POSITIVE_INFINITY : LOG_LEVELS[threshold];
  let kept: Kept[] = [];
  let real: Logger | undefined;
  const enabled = (name: string) => Object.hasOwn(LOG_LEVELS, name) && LOG_LEVELS[name as LogLevel] >= minimum;

  const make = (bindings: readonly Record<string, unknown>[]): Logger => {
    let resolved: Logger | undefined;
    const target = () => {
      if (!real) return undefined;
      resolved ??= bindings.reduce<Logger>((logger, b) => logger.child(b), real);
      return resolved;
    };
    const method =
      (name: LogLevel) =>
      (...args: unknown[]): void => {
        const to = target();
        if (to) return void (to[name] as (...a: unknown[]) => void)(...args);
        if (!enabled(name)) return;
        if (kept.length >= maxKept) kept.shift();
        kept.push({ bindings, level: name, args, time: Date.now() });
      };
    return {
      trace: method('trace'),
      debug: method('debug'),
      info: method('info'),
      warn: method('warn'),
      error: method('error'),
      fatal: method('fatal'),
      isLevelEnabled: (name) => target()?.isLevelEnabled(name) ?? enabled(name),
      child: (more) => make([...bindings, more]),
    };
  };

  const root = make([]);
  return {
    ...root,
    settle(logger, clock) {
      if (real) return;
      real = logger;
      const lines = kept;
      kept = [];
      for (const line of lines) {
        const to = line.bindings.reduce<Logger>((l, b) => l.child(b), logger);
        clock.at(line.time, () => (to[line.level] as (...a: unknown[]) => void)(...line.args));
      }
    },
    get settled() {
      return real !== undefined;
    },
  };
}
