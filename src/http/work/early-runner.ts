import type { Catalogue } from '../../catalogue/catalogue.js';
import { inlineRunner } from './inline-runner.js';
import type { PoolLog, PoolStart } from './pool.js';
import { summaryOf } from './registry-summary.js';
import type { EveryWorker, ServedAnswer, TaskControl, TaskRunner, WorkTask } from './task.js';

/**
 * A runner in service before its pool's first worker has loaded (docs/service.md "During start"):
 * small validations and builds are judged at once on the calling thread with `catalogue`, which
 * the main thread built and checked from the same bytes as the workers; every other task waits
 * for the first worker, with its deadline, and is never refused for that reason. `ready` settles
 * once every worker has loaded or the pool could not start; a pool that cannot start answers the
 * tasks that need it with 503; `wanted` is called when a task needs the pool before it has
 * started (its workers may be waiting to start). Should the workers' catalogue differ in any way from `catalogue`
 * (it cannot, from the same bytes), every task goes to the pool once it has started.
 */
export function runnerBeforeThePool(starting: Promise<PoolStart>, catalogue: Catalogue, maxBytes: number, logger: PoolLog, wanted?: () => void): TaskRunner {
  const own = summaryOf(catalogue);
  const pool = poolOnceStarted(starting, own, wanted);
  const inline = inlineRunner(pool, catalogue, maxBytes);
  let agreed = true;
  void starting.then((started) => {
    if (!started.ok || started.pool.registry.digest === own.digest) return;
    agreed = false;
    logger.error(
      { digest: own.digest, workerDigest: started.pool.registry.digest },
      "the workers' catalogue differs from the serving thread's: every request goes to the workers",
    );
  });
  return {
    get registry() {
      return pool.registry;
    },
    ready: pool.ready,
    judgeInline: (task) => (agreed ? inline.judgeInline?.(task) : undefined),
    run: (task, control) => (agreed ? inline.run(task, control) : pool.run(task, control)),
    close: () => pool.close(),
  };
}

/**
 * The pool `starting` will give, as a runner from now on: a task waits for the first worker (or
 * its signal), `registry` is `before` until the pool has started, and closing waits for the start
 * to settle (bounded by the pool's load timeout) and then closes the pool.
 */
function poolOnceStarted(starting: Promise<PoolStart>, before: TaskRunner['registry'], wanted?: () => void): TaskRunner {
  let started: PoolStart | undefined;
  void starting.then((outcome) => {
    started = outcome;
  });
  const ready: Promise<EveryWorker> = starting.then((outcome) => (outcome.ok ? outcome.pool.ready : { ok: false, diagnostics: outcome.diagnostics }));
  return {
    get registry() {
      return started?.ok ? started.pool.registry : before;
    },
    ready,
    async run(task: WorkTask, control: TaskControl): Promise<ServedAnswer> {
      if (!started) wanted?.();
      const outcome = started ?? (await untilSettledOrAborted(starting, control.signal));
      if (!outcome.ok) {
        const reasons = outcome.diagnostics.map((d) => d.message).join('; ');
        return { problem: { status: 503, detail: `no worker of this process could load, so it cannot judge this request: ${reasons}` } };
      }
      return outcome.pool.run(task, control);
    },
    async close() {
      const outcome = await starting;
      if (outcome.ok) await outcome.pool.close();
    },
  };
}

/** `promise`'s value, or a rejection with `signal`'s reason once it aborts, whichever comes first. */
function untilSettledOrAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(err);
      },
    );
  });
}
