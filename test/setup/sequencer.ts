import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The files that take longest, longest first, by project (measured with `--reporter=json`). A
// clean clone has no duration cache, so vitest would start files in an arbitrary order and one of
// these, started last, would run alone at the end while the other workers sit idle.
const LONGEST: Record<string, readonly string[]> = {
  e2e: [
    'test/http/supervisor.test.ts',
    'test/http/isolation.test.ts',
    'test/hostile/many-diagnostics.test.ts',
    'test/console/browser.test.ts',
    'test/hostile/linear-positioning.test.ts',
    'test/http/serve.test.ts',
    'test/package.test.ts',
    'test/http/serve-tls-watch.test.ts',
    'test/deploy/docker.test.ts',
    'test/http/contract.test.ts',
    'test/lsp/bounds.test.ts',
    'test/hostile/merge-amplification.test.ts',
    'test/cli/config-versions.test.ts',
    'test/http/server.test.ts',
  ],
  unit: [
    'test/operations/fast-path.test.ts',
    'test/property/compat.test.ts',
    'test/cli/lint-jobs.test.ts',
    'test/yaml/locate-by-scan.test.ts',
    'test/schema/agreement.test.ts',
    'test/docs/readme-tour.test.ts',
    'test/property/round-trip.test.ts',
  ],
};

// Projects in this order: the end-to-end files mostly wait on the processes they start, so they
// go first and the in-process files fill the cores around them.
const PROJECTS = ['e2e', 'unit', 'unit-isolated'];

/**
 * Vitest's sequencer with the order fixed where it matters for the wall time: projects in the
 * order above (each kept together, so a worker thread goes on to the next file of its project
 * with its modules loaded), and in each project the longest files first, then vitest's own
 * order (the last run's durations when it has them).
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification): [number, number] => {
      const project = file.project.name;
      const projectRank = PROJECTS.indexOf(project);
      const longest = LONGEST[project] ?? [];
      const index = longest.indexOf(relative(root, file.moduleId).replaceAll('\\', '/'));
      return [projectRank === -1 ? PROJECTS.length : projectRank, index === -1 ? longest.length : index];
    };
    const position = new Map(sorted.map((file, i) => [file, i]));
    return [...sorted].sort((a, b) => {
      const [pa, la] = rank(a);
      const [pb, lb] = rank(b);
      return pa - pb || la - lb || position.get(a)! - position.get(b)!;
    });
  }
}
