/**
 * At most `size` tasks at once, the rest waiting in arrival order. A waiting task whose signal
 * aborts leaves the line and rejects with the signal's reason, as a task queued in the pool
 * would; `idle()` settles once nothing runs or waits.
 */
export class TaskSlots {
  private running = 0;
  private readonly waiting: { start: () => void; signal: AbortSignal; leave: () => void }[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Runs `task` once a slot is free (at once when one is), and frees the slot when it settles. */
  async run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await this.wait(signal);
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.next();
    }
  }

  /** Settles once no task runs or waits. */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wait(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const entry = {
        signal,
        start: () => {
          signal.removeEventListener('abort', entry.leave);
          resolve();
        },
        leave: () => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal.reason);
          this.settleIdle();
        },
      };
      signal.addEventListener('abort', entry.leave, { once: true });
      this.waiting.push(entry);
    });
  }

  private next(): void {
    const entry = this.waiting.shift();
    if (entry) entry.start();
    else this.settleIdle();
  }

  private settleIdle(): void {
    if (this.running > 0 || this.waiting.length > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
