import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type LintCommandOptions, runLint } from '../../src/cli/commands/lint.js';
import type { LintFormat } from '../../src/cli/format/index.js';
import type { CommandIo } from '../../src/cli/io.js';
import { FILES_PER_BATCH } from '../../src/cli/parallel-lint.js';
import { runCaptured } from '../helpers/cli.js';
import { REDIS_SIDECAR_DEFINITION } from '../helpers/profile.js';
import { propertyRuns } from '../helpers/property.js';

// `kurel lint --jobs N` (docs/performance.md): for every set of files, the output and exit code
// are exactly those of `--jobs 1`, whichever thread judged which batch. The workers run the
// built dist/lint-worker.js. A few hundred files take this thread less time than a worker
// takes to start, so the runs with threads leave every batch to the workers (`workersOnly`),
// and one run of the command itself shows the main thread's share alike.

const root = mkdtempSync(join(tmpdir(), 'kurel-jobs-property-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function profile(name: string, lines: readonly string[]): string {
  return [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: ClusterProfile',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  capabilities:',
    '    expose:',
    '      rendering:',
    '        controllerType: ingress',
    ...lines,
    '',
  ].join('\n');
}

// What a file may hold besides a clean profile: each kind a different path through a run
// (fast path or full reader, positions by the scan or by a parse, suppressions, texts kept).
const SPECIAL: readonly ((i: number) => string | Buffer)[] = [
  (i) => profile(`c${i}`, ['        ingressClasName: nginx']),
  (i) => profile(`c${i}`, ['        ingressClassName: ""']),
  (i) => profile(`c${i}`, ['        ingressClassName: nginx', '        tls: yes']),
  (i) => profile(`c${i}`, ['        # kurel-disable-next-line unknown-field -- kept', '        legacy: true']),
  (i) => profile(`c${i}`, ['        ingressClassName: &a nginx', '        other: *a']),
  (i) => profile(`c${i}`, ['        ingressClassName: nginx', '    redis-sidecar:', '      rendering:', `        image: ${i % 2 === 0 ? 7 : 'redis'}`]),
  (i) => profile(`c${i}`, ['        ingressClassName: nginx', '        ingressClassName: traefik']),
  (i) => profile(`c${i}`, ['        ingressClassName: {name: nginx, extra: [1, 2]}']),
  () => 'apiVersion: [\n',
  () => '',
  () => Buffer.from([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a]),
  () => `${profile('first', [])}---\n${profile('second', [])}`,
  () => REDIS_SIDECAR_DEFINITION,
];

const fileSet = fc.record({
  count: fc.integer({ min: FILES_PER_BATCH + 1, max: FILES_PER_BATCH * 3 }),
  specials: fc.array(fc.tuple(fc.nat(), fc.nat({ max: SPECIAL.length - 1 })), { maxLength: 40 }),
  jobs: fc.constantFrom(2, 3),
  format: fc.constantFrom<LintFormat>('text', 'json'),
});

let runs = 0;

// `kurel lint . --format FORMAT` run as the command runs it, with these threads.
async function lint(dir: string, format: LintFormat, jobs: number, workersOnly: boolean): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const io: CommandIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    stdin: async () => new Uint8Array(),
    cwd: dir,
    env: { NO_COLOR: '1' },
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  const flags: LintCommandOptions = { definitions: [], capabilityDef: [], plugin: [], format: [{ format }], jobs, workersOnly };
  const code = await runLint(['.'], flags, io);
  return { code, stdout };
}

function writeSet(dir: string, count: number, specials: readonly [number, number][]): void {
  mkdirSync(dir);
  const kinds = new Map(specials.map(([at, kind]) => [at % count, kind]));
  for (let i = 0; i < count; i++) {
    const kind = kinds.get(i);
    writeFileSync(
      join(dir, `f${String(i).padStart(4, '0')}.yaml`),
      kind === undefined ? profile(`c${i}`, ['        ingressClassName: nginx']) : SPECIAL[kind]!(i),
    );
  }
}

describe('kurel lint --jobs N against --jobs 1 (property)', () => {
  it('prints the same output and exits alike for every set of files, the workers judging them', async () => {
    await fc.assert(
      fc.asyncProperty(fileSet, async ({ count, specials, jobs, format }) => {
        const dir = join(root, `set-${runs++}`);
        writeSet(dir, count, specials);
        const one = await lint(dir, format, 1, false);
        const many = await lint(dir, format, jobs, true);
        rmSync(dir, { recursive: true, force: true });
        expect(many).toEqual(one);
      }),
      { numRuns: propertyRuns(12) },
    );
  }, 300_000);

  it('prints the same through the command line, every kind of file among them', async () => {
    const dir = join(root, 'all-kinds');
    writeSet(
      dir,
      FILES_PER_BATCH * 2 + 5,
      SPECIAL.map((_, kind) => [kind * 31, kind]),
    );
    const run = (jobs: string) => runCaptured(['lint', '.', '--jobs', jobs], { cwd: dir, env: { NO_COLOR: '1' } });
    const one = await run('1');
    expect(one.code).toBe(1);
    expect(await run('2')).toEqual(one);
  }, 60_000);
});
