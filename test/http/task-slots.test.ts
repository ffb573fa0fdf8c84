import { describe, expect, it } from 'vitest';
import { TaskSlots } from '../../src/http/work/task-slots.js';

/** A task that settles when the test says. */
function gate(): { promise: Promise<string>; open(value: string): void } {
  let open: (value: string) => void = () => undefined;
  const promise = new Promise<string>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('TaskSlots', () => {
  it('runs at most its size at once, the rest in arrival order as slots free', async () => {
    const slots = new TaskSlots(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      slots.run(new AbortController().signal, () => {
        started.push(i);
        return g.promise;
      }),
    );
    await turn();
    expect(started).toEqual([0, 1]);
    gates[1]!.open('b');
    await turn();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open('a');
    gates[2]!.open('c');
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[3]!.open('d');
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('takes a waiting task out of line when its signal aborts, and frees no slot for it', async () => {
    const slots = new TaskSlots(1);
    const running = gate();
    const first = slots.run(new AbortController().signal, () => running.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = slots.run(controller.signal, async () => {
      ran = true;
      return 'never';
    });
    const reason = new Error('the request deadline passed');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    const after = slots.run(new AbortController().signal, async () => 'after');
    running.open('first');
    expect([await first, await after, ran]).toEqual(['first', 'after', false]);
  });

  it('refuses a task whose signal has already aborted', async () => {
    const slots = new TaskSlots(1);
    const running = gate();
    void slots.run(new AbortController().signal, () => running.promise);
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(slots.run(controller.signal, async () => 'never')).rejects.toThrow('gone');
    running.open('x');
  });

  it('settles idle once nothing runs or waits', async () => {
    const slots = new TaskSlots(1);
    await slots.idle();
    const gates = [gate(), gate()];
    const runs = gates.map((g) => slots.run(new AbortController().signal, () => g.promise));
    let idle = false;
    void slots.idle().then(() => {
      idle = true;
    });
    gates[0]!.open('a');
    await turn();
    expect(idle).toBe(false);
    gates[1]!.open('b');
    await Promise.all(runs);
    await turn();
    expect(idle).toBe(true);
  });
});
