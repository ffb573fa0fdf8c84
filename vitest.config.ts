import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/setup/sequencer.js';

// The tests whose point is a real process: the built CLI spawned (under a heap ceiling, with
// signals, real pipes and its start), `kurel serve` listening, Chromium, `npm pack`, Docker,
// kubectl and tsc. Everything else runs in-process (the CLI through `runCli`): the `unit` project.
const E2E = [
  'test/package.test.ts',
  'test/deploy/**/*.test.ts',
  'test/console/browser.test.ts',
  // Hostile inputs at scale: through the built CLI under a small heap ceiling (test/hostile/bounded-cli.ts)
  // or with its real stack, and the positioning of tens of thousands of problems.
  'test/hostile/*.test.ts',
  'test/http/serve.test.ts',
  'test/http/serve-tls-watch.test.ts',
  'test/http/contract.test.ts',
  'test/http/metrics.test.ts',
  'test/http/errors.test.ts',
  'test/http/isolation.test.ts',
  'test/http/reload.test.ts',
  'test/http/server.test.ts',
  'test/http/start.test.ts',
  'test/http/supervisor.test.ts',
  'test/http/one-catalogue.test.ts',
  'test/http/tls.test.ts',
  'test/http/versions.test.ts',
  'test/cli/spawned.test.ts',
  // Real writers racing on one file (docs/migrate.md, "Writing files").
  'test/migrate/concurrent-writes.test.ts',
  'test/cli/broken-pipe.test.ts',
  // Reports read by the tools that read them: the SARIF multitool, xmllint.
  'test/cli/sarif-multitool.test.ts',
  'test/cli/junit-xmllint.test.ts',
  // The language server over stdio, the pre-commit hook and the GitHub Action as their tools run them.
  'test/lsp/*.test.ts',
  'test/cli/start-path.test.ts',
  // The built CLI's code cache, as its processes keep and read it.
  'test/cli/warm-start.test.ts',
  'test/cli/types.test.ts',
  'test/cli/config-versions.test.ts',
  'test/definitions/definition-patterns.test.ts',
  'test/versions/readme-*.test.ts',
  'test/docs/readme-service.test.ts',
  // A real distribution registry and skopeo serve and read what kurel pushes and pulls.
  'test/registry-oci/*.test.ts',
];

// Under a second Node major (.ci/run runs the suite again on Node 22, the runtime image's), the
// in-process tests run whole and, of the end-to-end ones, those whose point is how the process
// itself starts and runs on that Node: its code cache (keyed by the Node version), the modules
// its start loads, the installed package and the image, signals and pipes, the service's start
// and the language server's lifecycle. KUREL_TEST_SCOPE=node-matrix selects them.
const NODE_MATRIX_E2E = [
  'test/cli/warm-start.test.ts',
  'test/cli/start-path.test.ts',
  'test/package.test.ts',
  'test/deploy/docker.test.ts',
  'test/cli/spawned.test.ts',
  'test/cli/broken-pipe.test.ts',
  'test/http/start.test.ts',
  'test/lsp/lifecycle.test.ts',
];
const nodeMatrix = process.env['KUREL_TEST_SCOPE'] === 'node-matrix';

// In-process tests that need modules of their own: one looks at what a fresh start loads, two
// replace a Node module (node:fs, node:v8) with vi.mock (a module another file loaded first
// would keep the real one).
const FRESH_MODULES = ['test/schema/pattern.test.ts', 'test/migrate/cli-writes.test.ts', 'test/cli/lint-young-generation.test.ts'];

export default defineConfig({
  test: {
    // Ceilings for a hung test, not speed checks: generous, as files share the cores with the
    // processes other files start.
    testTimeout: 60_000,
    // Vitest's default is one file fewer than the cores: one at a time on two. The end-to-end
    // files spend much of their time waiting on the processes they start, so one file more than
    // the cores runs at once (three on two cores) and the cores stay busy. Every project shares
    // the count: vitest runs projects with different counts one after the other.
    maxWorkers: availableParallelism() + 1,
    // The longest files start first, then end-to-end before in-process (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    hookTimeout: 120_000,
    // dist/ rebuilt when older than its sources (test/setup/build-dist.ts); property run counts (test/helpers/property.ts).
    globalSetup: ['test/setup/build-dist.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...E2E, ...FRESH_MODULES],
          // In-process tests share a worker thread's loaded modules from file to file: about half
          // the time of loading kurel again for each file. Nothing in them changes process-wide
          // state (runKurel passes the folder, environment and input through the CLI's io).
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', include: FRESH_MODULES, pool: 'threads' },
      },
      {
        extends: true,
        // Threads sharing their loaded modules from file to file, as in `unit`: the processes these
        // tests start are separate anyway, and no file changes process-wide state.
        test: { name: 'e2e', include: nodeMatrix ? NODE_MATRIX_E2E : E2E, pool: 'threads', isolate: false },
      },
    ],
  },
});
