import type { Catalogue } from '../../catalogue/catalogue.js';
import { performTaskAsText } from './perform.js';
import { summaryOf } from './registry-summary.js';
import type { TaskRunner } from './task.js';

export { summaryOf } from './registry-summary.js';

/**
 * A runner that does each task on the calling thread, for a program embedding the app and for
 * tests that build a catalogue in memory. It cannot cancel a task once begun, so `kurel serve`
 * uses the worker pool instead.
 */
export function inProcessRunner(catalogue: Catalogue): TaskRunner {
  return {
    registry: summaryOf(catalogue),
    ready: Promise.resolve({ ok: true }),
    judgeInline: (task) => performTaskAsText(catalogue, task),
    async run(task, control) {
      control.signal.throwIfAborted();
      Atomics.store(control.started, 0, 1);
      return performTaskAsText(catalogue, task);
    },
    async close() {},
  };
}
