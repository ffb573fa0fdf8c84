import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { inlineRunner, judgedInline } from '../../src/http/work/inline-runner.js';
import { poolLoader } from '../../src/http/work/pool-loader.js';
import type { ServedAnswer, TaskRunner, VersionOptions, WorkTask } from '../../src/http/work/task.js';
import { runKurel } from '../helpers/cli.js';
import { GATEWAY_DOCUMENT, GATEWAY_PROFILE, REDIS_DEFINITION, REDIS_PROFILE } from './support.js';

// The worker threads run dist/serve-worker.cjs: build before running this file.
const DEFINITIONS = fileURLToPath(new URL('../../definitions', import.meta.url));
const VERSIONS: VersionOptions = { requirePinned: false };
const QUIET = { info: () => undefined, error: () => undefined };

async function runnerOf(inlineMaxBytes: number, plugins: string[] = []): Promise<TaskRunner> {
  const loaded = await poolLoader({
    definitionFolders: [{ path: DEFINITIONS, name: 'definitions' }],
    plugins,
    cwd: process.cwd(),
    workers: 1,
    workerMemoryMiB: 128,
    inlineMaxBytes,
    logger: QUIET,
  })();
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
  return loaded.runner;
}

function control() {
  return { signal: new AbortController().signal, started: new Int32Array(new SharedArrayBuffer(4)) };
}

const text = (s: string) => new TextEncoder().encode(s);
const json = (v: unknown) => text(JSON.stringify(v));
const TYPO = GATEWAY_PROFILE.replace('gatewayName: public-gw', 'gatewayNme: public-gw');
const MISTAKES = `${GATEWAY_PROFILE}    rate-limit:\n      rendering: {requestsPerSecond: -1, burst: x, key: bad, nope: 1}\n`;
const ALIASES = `${GATEWAY_PROFILE.replace('public-gw', '&g public-gw')}    rate-limit:\n      rendering: {requestsPerSecond: 1, exemptPaths: [*g, *g, "/a"]}\n`;

// Valid and invalid, YAML and JSON, bare and in envelopes with definitions, and bodies the
// service answers with a problem: each judged by a worker and inline must be the same bytes.
const TASKS: [string, WorkTask][] = [
  ['a valid YAML profile', { kind: 'validate', bodyKind: 'yaml', body: text(GATEWAY_PROFILE), versions: VERSIONS }],
  ['a YAML profile with a typo', { kind: 'validate', bodyKind: 'yaml', body: text(TYPO), versions: VERSIONS }],
  ['a YAML profile with many mistakes', { kind: 'validate', bodyKind: 'yaml', body: text(MISTAKES), versions: VERSIONS }],
  ['a YAML profile with aliases', { kind: 'validate', bodyKind: 'yaml', body: text(ALIASES), versions: VERSIONS }],
  [
    'a YAML profile nested beyond the depth limit',
    {
      kind: 'validate',
      bodyKind: 'yaml',
      body: text(`${GATEWAY_PROFILE}    x:\n      rendering: {a: ${'['.repeat(900)}${']'.repeat(900)}}\n`),
      versions: VERSIONS,
    },
  ],
  ['YAML that does not parse', { kind: 'validate', bodyKind: 'yaml', body: text('not: valid: yaml: ['), versions: VERSIONS }],
  ['an empty YAML body', { kind: 'validate', bodyKind: 'yaml', body: text(''), versions: VERSIONS }],
  ['a valid JSON profile', { kind: 'validate', bodyKind: 'json', body: json(GATEWAY_DOCUMENT), versions: VERSIONS }],
  ['a JSON profile pinned', { kind: 'validate', bodyKind: 'json', body: json(GATEWAY_DOCUMENT), versions: { requirePinned: true } }],
  ['JSON that does not parse', { kind: 'validate', bodyKind: 'json', body: text('{"profile": '), versions: VERSIONS }],
  [
    'an envelope with definitions',
    { kind: 'validate', bodyKind: 'json', body: json({ profile: REDIS_PROFILE, definitions: [REDIS_DEFINITION] }), versions: VERSIONS },
  ],
  [
    'an envelope whose definition is broken',
    {
      kind: 'validate',
      bodyKind: 'json',
      body: json({ profile: REDIS_PROFILE, definitions: [REDIS_DEFINITION.replace('type: integer', 'type: whole')] }),
      versions: VERSIONS,
    },
  ],
  [
    'a build envelope',
    {
      kind: 'build',
      body: json({ profile: GATEWAY_PROFILE, application: 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata: {name: a}\n' }),
      versions: VERSIONS,
    },
  ],
  ['a build envelope without its application', { kind: 'build', body: json({ profile: GATEWAY_PROFILE }), versions: VERSIONS }],
];

describe('judging small requests on the main thread', () => {
  let pooled: TaskRunner;
  let inline: TaskRunner;
  beforeAll(async () => {
    [pooled, inline] = await Promise.all([runnerOf(0), runnerOf(64 * 1024)]);
  });
  afterAll(async () => {
    await Promise.all([pooled?.close(), inline?.close()]);
  });

  it.each(TASKS)('answers %s with the same bytes as a worker', async (_name, task) => {
    const fromPool = await pooled.run(structuredClone(task), control());
    const fromInline = await inline.run(structuredClone(task), control());
    expect(decoded(fromInline)).toEqual(decoded(fromPool));
  });

  it('serves the same catalogue on both paths', () => {
    expect(inline.registry).toEqual(pooled.registry);
  });
});

describe('judgedInline', () => {
  const body = new Uint8Array(100);
  it('takes validations and builds up to the limit, inclusive, and nothing else', () => {
    expect(judgedInline({ kind: 'validate', bodyKind: 'yaml', body, versions: VERSIONS }, 100)).toBe(true);
    expect(judgedInline({ kind: 'build', body, versions: VERSIONS }, 100)).toBe(true);
    expect(judgedInline({ kind: 'validate', bodyKind: 'json', body, versions: VERSIONS }, 99)).toBe(false);
    expect(judgedInline({ kind: 'migrate', body, versions: VERSIONS }, 1000)).toBe(false);
    expect(judgedInline({ kind: 'admission', body, versions: VERSIONS }, 1000)).toBe(false);
    expect(judgedInline({ kind: 'capabilities' }, 1000)).toBe(false);
  });
});

// The answer as text, so that a difference shows as one (a worker answers bytes, the inline path the text).
function decoded(answer: ServedAnswer): unknown {
  if (!('body' in answer)) return answer;
  return { ...answer, body: typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body) };
}

describe('kurel serve --inline-max-bytes', () => {
  it.each(['-1', '1.5', '65537', 'x', '', '4k'])('refuses %j before anything starts, exit 2', async (value) => {
    const run = await runKurel(['serve', '--no-config', '--inline-max-bytes', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `<command line>:1:1 error usage --inline-max-bytes must be a whole number of bytes from 0 to 65536, found ${JSON.stringify(value)}\n`,
    );
  });
});

describe('inlineRunner', () => {
  // A pool that answers every task it is given with the same marker, and counts them.
  function fakePool(): TaskRunner & { given: WorkTask[] } {
    const given: WorkTask[] = [];
    return {
      given,
      registry: { handlers: 0, definitions: 0, digest: '' },
      ready: Promise.resolve({ ok: true }),
      async run(task) {
        given.push(task);
        return { status: 299, mediaType: 'text/plain', body: text('from the pool') };
      },
      async close() {},
    };
  }

  it('judges a small validation itself, and hands over a larger one and every other kind', async () => {
    const pool = fakePool();
    const runner = inlineRunner(pool, createCatalogue(), 1024);
    const small = await runner.run({ kind: 'validate', bodyKind: 'yaml', body: text(GATEWAY_PROFILE), versions: VERSIONS }, control());
    expect(small).toMatchObject({ status: 200, verdict: { operation: 'validate', valid: true } });
    expect(pool.given).toEqual([]);
    await runner.run({ kind: 'validate', bodyKind: 'yaml', body: text(GATEWAY_PROFILE.padEnd(1025)), versions: VERSIONS }, control());
    await runner.run({ kind: 'capabilities' }, control());
    expect(pool.given.map((t) => t.kind)).toEqual(['validate', 'capabilities']);
  });

  it('hands an answer reporting nesting too deep to the pool, whose answer stands, the task not begun', async () => {
    const pool = fakePool();
    const runner = inlineRunner(pool, createCatalogue(), 4096);
    const deep = `${GATEWAY_PROFILE}    x:\n      rendering: {a: ${'['.repeat(900)}${']'.repeat(900)}}\n`;
    const started = control();
    const answer = await runner.run({ kind: 'validate', bodyKind: 'yaml', body: text(deep), versions: VERSIONS }, started);
    expect(pool.given).toHaveLength(1);
    expect(answer).toEqual({ status: 299, mediaType: 'text/plain', body: text('from the pool') });
    expect(started.started[0]).toBe(0);
  });

  it('hands a small body whose estimated work passes the budget to the pool, the task not begun', async () => {
    // Under 2 KiB, but its pattern compiles to 98,002 instructions run over 1,400 characters:
    // seconds of work, which only a worker's deadline can stop.
    const pool = fakePool();
    const runner = inlineRunner(pool, createCatalogue(), 2048);
    const body = json(costlyPatternEnvelope(1400));
    expect(body.byteLength).toBeLessThan(2048);
    const started = control();
    const answer = await runner.run({ kind: 'validate', bodyKind: 'json', body, versions: VERSIONS }, started);
    expect(answer).toEqual({ status: 299, mediaType: 'text/plain', body: text('from the pool') });
    expect(pool.given).toHaveLength(1);
    expect(started.started[0]).toBe(0);
    expect(runner.judgeInline?.({ kind: 'validate', bodyKind: 'json', body, versions: VERSIONS })).toBeUndefined();
  });

  it('still judges itself an envelope of the same size whose pattern is short, its estimate under the budget', async () => {
    const pool = fakePool();
    const runner = inlineRunner(pool, createCatalogue(), 2048);
    const answer = await runner.run({ kind: 'validate', bodyKind: 'json', body: json(costlyPatternEnvelope(1400, '^a*$')), versions: VERSIONS }, control());
    expect(answer).toMatchObject({ status: 200, verdict: { operation: 'validate', valid: true } });
    expect(pool.given).toEqual([]);
  });

  it('refuses a task whose deadline has passed before it begins', async () => {
    const pool = fakePool();
    const runner = inlineRunner(pool, createCatalogue(), 4096);
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      runner.run({ kind: 'validate', bodyKind: 'yaml', body: text(GATEWAY_PROFILE), versions: VERSIONS }, { ...control(), signal: aborted.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.given).toEqual([]);
  });
});

/** A validation envelope bringing a definition whose pattern is 98,002 instructions (unless told), and a value of `length` `a`s for it. */
function costlyPatternEnvelope(length: number, pattern = `^(?:${'a?'.repeat(49)}){1000}$`): unknown {
  const definition = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: slow\nspec:\n  rendering:\n    properties:\n      v: {type: string, pattern: '${pattern}'}\n`;
  const rendering = { v: 'a'.repeat(length) };
  const profile = {
    apiVersion: 'launcher.gokure.dev/v1alpha1',
    kind: 'ClusterProfile',
    metadata: { name: 'p' },
    spec: { capabilities: { slow: { rendering } } },
  };
  return { profile, definitions: [definition] };
}
