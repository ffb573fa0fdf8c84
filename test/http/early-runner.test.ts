import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { fileDiagnostic } from '../../src/core/diagnostics.js';
import { runnerBeforeThePool } from '../../src/http/work/early-runner.js';
import { summaryOf } from '../../src/http/work/in-process.js';
import type { PoolStart } from '../../src/http/work/pool.js';
import { poolLoader } from '../../src/http/work/pool-loader.js';
import type { EveryWorker, RegistrySummary, TaskRunner, VersionOptions, WorkTask } from '../../src/http/work/task.js';
import { GATEWAY_PROFILE, REDIS_DEFINITION, REDIS_PROFILE } from './support.js';

const VERSIONS: VersionOptions = { requirePinned: false };
const text = (s: string) => new TextEncoder().encode(s);
const SMALL: WorkTask = { kind: 'validate', bodyKind: 'yaml', body: text(GATEWAY_PROFILE), versions: VERSIONS };
const LARGE: WorkTask = { kind: 'validate', bodyKind: 'yaml', body: text(GATEWAY_PROFILE.padEnd(4096)), versions: VERSIONS };

function control(signal = new AbortController().signal) {
  return { signal, started: new Int32Array(new SharedArrayBuffer(4)) };
}

// A pool start the test settles by hand, and a pool that answers every task with a marker.
function startingPool(registry: RegistrySummary) {
  const given: WorkTask[] = [];
  let closed = 0;
  let settleEvery: (every: EveryWorker) => void = () => undefined;
  const pool: TaskRunner = {
    registry,
    ready: new Promise<EveryWorker>((resolve) => {
      settleEvery = resolve;
    }),
    async run(task) {
      given.push(task);
      return { status: 299, mediaType: 'text/plain', body: text('from the pool') };
    },
    async close() {
      closed++;
    },
  };
  let settle: (start: PoolStart) => void = () => undefined;
  const starting = new Promise<PoolStart>((resolve) => {
    settle = resolve;
  });
  return {
    starting,
    given,
    closed: () => closed,
    start: () => settle({ ok: true, pool, diagnostics: [] }),
    fail: (message: string) => settle({ ok: false, diagnostics: [fileDiagnostic('<worker>', 'usage', message)] }),
    everyLoaded: () => settleEvery({ ok: true }),
  };
}

const QUIET = { info: () => undefined, error: () => undefined };
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('runnerBeforeThePool', () => {
  const catalogue = createCatalogue();
  const own = summaryOf(catalogue);

  it('judges a small validation at once, before the first worker has loaded, with the registry of its own catalogue', async () => {
    const pool = startingPool(own);
    const runner = runnerBeforeThePool(pool.starting, catalogue, 2048, QUIET);
    expect(runner.registry).toEqual(own);
    expect(runner.judgeInline?.(SMALL)).toMatchObject({ status: 200, verdict: { operation: 'validate', valid: true } });
    expect(await runner.run(SMALL, control())).toMatchObject({ status: 200, verdict: { operation: 'validate', valid: true } });
    expect(pool.given).toEqual([]);
  });

  it('keeps a larger body waiting, not refused, until the first worker has loaded, then hands it to the pool', async () => {
    const pool = startingPool(own);
    const runner = runnerBeforeThePool(pool.starting, catalogue, 2048, QUIET);
    expect(runner.judgeInline?.(LARGE)).toBeUndefined();
    let answered = false;
    const answer = runner.run(LARGE, control()).then((a) => {
      answered = true;
      return a;
    });
    await settled();
    expect(answered).toBe(false);
    expect(pool.given).toEqual([]);
    pool.start();
    expect(await answer).toEqual({ status: 299, mediaType: 'text/plain', body: text('from the pool') });
    expect(pool.given).toEqual([LARGE]);
  });

  it('gives a waiting task up when its deadline aborts it, as queued (never begun)', async () => {
    const pool = startingPool(own);
    const runner = runnerBeforeThePool(pool.starting, catalogue, 2048, QUIET);
    const deadline = new AbortController();
    const waiting = control(deadline.signal);
    const answer = runner.run(LARGE, waiting);
    deadline.abort(new DOMException('the deadline passed', 'AbortError'));
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    expect(waiting.started[0]).toBe(0);
    pool.start();
    await settled();
    expect(pool.given).toEqual([]);
  });

  it('answers the tasks that need a worker with 503 when no worker can load, and is never ready', async () => {
    const pool = startingPool(own);
    const runner = runnerBeforeThePool(pool.starting, catalogue, 2048, QUIET);
    const answer = runner.run(LARGE, control());
    pool.fail('a worker thread ran out of memory while loading (--worker-memory 64 MiB)');
    expect(await answer).toEqual({
      problem: {
        status: 503,
        detail:
          'no worker of this process could load, so it cannot judge this request: a worker thread ran out of memory while loading (--worker-memory 64 MiB)',
      },
    });
    expect(await runner.ready).toEqual({
      ok: false,
      diagnostics: [fileDiagnostic('<worker>', 'usage', 'a worker thread ran out of memory while loading (--worker-memory 64 MiB)')],
    });
    // Small bodies are still judged: the process keeps answering what it can.
    expect(runner.judgeInline?.(SMALL)).toMatchObject({ status: 200 });
  });

  it('is ready once every worker has loaded, and closes the pool once it has started', async () => {
    const pool = startingPool(own);
    const runner = runnerBeforeThePool(pool.starting, catalogue, 2048, QUIET);
    let ready = false;
    void runner.ready.then(() => {
      ready = true;
    });
    pool.start();
    await settled();
    expect(ready).toBe(false);
    pool.everyLoaded();
    expect(await runner.ready).toEqual({ ok: true });
    await runner.close();
    expect(pool.closed()).toBe(1);
  });

  it("sends every task to the pool, and tells its registry, once the workers' catalogue turns out to differ", async () => {
    const pool = startingPool({ ...own, digest: 'sha256:other' });
    const errors: string[] = [];
    const runner = runnerBeforeThePool(pool.starting, catalogue, 2048, { info: () => undefined, error: (_fields, message) => errors.push(message) });
    pool.start();
    await settled();
    expect(runner.registry.digest).toBe('sha256:other');
    expect(runner.judgeInline?.(SMALL)).toBeUndefined();
    expect(await runner.run(SMALL, control())).toEqual({ status: 299, mediaType: 'text/plain', body: text('from the pool') });
    expect(errors).toEqual(["the workers' catalogue differs from the serving thread's: every request goes to the workers"]);
  });
});

// The worker threads run dist/serve-worker.cjs: build before running this part.
describe('poolLoader, with small bodies judged on the serving thread', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  function loaderFor(definition: string, inlineMaxBytes: number, workersWait?: () => Promise<void> | undefined, workersWanted?: () => void) {
    dir ||= mkdtempSync(join(tmpdir(), 'kurel-early-'));
    writeFileSync(join(dir, 'redis.yaml'), definition);
    return poolLoader({
      definitionFolders: [{ path: dir, name: 'defs' }],
      plugins: [],
      cwd: process.cwd(),
      workers: 1,
      workerMemoryMiB: 128,
      inlineMaxBytes,
      logger: QUIET,
      ...(workersWait ? { workersWait } : {}),
      ...(workersWanted ? { workersWanted } : {}),
    });
  }

  /** A gate the test opens by hand, as the service opens it once the process takes requests. */
  function gate() {
    let open = false;
    let opened: () => void = () => undefined;
    const wait = new Promise<void>((resolve) => {
      opened = () => {
        open = true;
        resolve();
      };
    });
    return { workersWait: () => (open ? undefined : wait), open: () => opened() };
  }

  it('starts no worker until the process takes requests, and judges small bodies meanwhile', async () => {
    const { workersWait, open } = gate();
    let wanted = 0;
    let asked: () => void = () => undefined;
    const workersAsked = new Promise<void>((resolve) => (asked = resolve));
    const loaded = await loaderFor(REDIS_DEFINITION, 2048, workersWait, () => {
      wanted++;
      asked();
    })();
    if (!loaded.ok) throw new Error('the definitions were refused');
    try {
      const task: WorkTask = { kind: 'validate', bodyKind: 'yaml', body: text(REDIS_PROFILE), versions: VERSIONS };
      expect(loaded.runner.judgeInline?.(task)).toMatchObject({ status: 200, verdict: { operation: 'validate', valid: true } });
      expect(wanted).toBe(0);
      // A large body waits for the first worker, which has not started; it asks for the workers.
      let settled = false;
      const large = loaded.runner.run({ ...task, body: text(REDIS_PROFILE.padEnd(4096)) }, control());
      void Promise.race([loaded.runner.ready, large]).then(() => (settled = true));
      // Waits on the event, not a time: the runner asks for the workers, and nothing is answered while the gate holds.
      await workersAsked;
      expect(wanted).toBe(1);
      expect(settled).toBe(false);
      open();
      expect(await loaded.runner.ready).toEqual({ ok: true });
      expect(await large).toMatchObject({ status: 200, verdict: { operation: 'validate', valid: true } });
    } finally {
      open();
      await loaded.runner.close();
    }
  });

  it('starts the workers at once when it cannot judge here: they check the definitions', async () => {
    const broken = REDIS_DEFINITION.replace('port: {type: integer, default: 6379}', 'port: {type: integer, default: six}');
    // Refused here, the first worker's report says why: the gate does not hold it.
    const refused = await loaderFor(broken, 2048, gate().workersWait)();
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.length).toBeGreaterThan(0);
    const pooled = await loaderFor(REDIS_DEFINITION, 0, gate().workersWait)();
    if (!pooled.ok) throw new Error('the definitions were refused');
    try {
      expect(await pooled.runner.ready).toEqual({ ok: true });
    } finally {
      await pooled.runner.close();
    }
  });

  it('refuses definitions with an error exactly as the first worker does', async () => {
    const broken = REDIS_DEFINITION.replace('port: {type: integer, default: 6379}', 'port: {type: integer, default: six}');
    const checkedHere = await loaderFor(broken, 2048)();
    const checkedByTheWorker = await loaderFor(broken, 0)();
    expect(checkedHere.ok).toBe(false);
    expect(checkedByTheWorker.ok).toBe(false);
    expect(checkedHere.diagnostics.length).toBeGreaterThan(0);
    expect(checkedHere.diagnostics).toEqual(checkedByTheWorker.diagnostics);
  });

  it("serves the workers' registry and verdicts, judging small bodies here and the rest on the pool", async () => {
    const loaded = await loaderFor(REDIS_DEFINITION, 2048)();
    const byTheWorker = await loaderFor(REDIS_DEFINITION, 0)();
    if (!loaded.ok || !byTheWorker.ok) throw new Error('the definitions were refused');
    try {
      const before = loaded.runner.registry;
      expect(await loaded.runner.ready).toEqual({ ok: true });
      expect(loaded.runner.registry).toEqual(before);
      expect(before).toEqual(byTheWorker.runner.registry);
      const task: WorkTask = { kind: 'validate', bodyKind: 'yaml', body: text(REDIS_PROFILE), versions: VERSIONS };
      const here = loaded.runner.judgeInline?.(task);
      expect(here).toMatchObject({ status: 200, verdict: { operation: 'validate', valid: true } });
      const there = await byTheWorker.runner.run(task, control());
      expect(here && 'body' in here ? here.body : undefined).toBe(there && 'body' in there ? Buffer.from(there.body).toString('utf8') : 'none');
      const large: WorkTask = { ...task, body: text(REDIS_PROFILE.padEnd(4096)) };
      expect(loaded.runner.judgeInline?.(large)).toBeUndefined();
      expect(await loaded.runner.run(large, control())).toMatchObject({ status: 200, verdict: { operation: 'validate', valid: true } });
    } finally {
      await Promise.all([loaded.runner.close(), byTheWorker.runner.close()]);
    }
  });
});
