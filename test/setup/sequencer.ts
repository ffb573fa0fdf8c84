import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The files that take longest, longest first, whatever their project (measured with
// `--reporter=json` in a whole run). A clean clone has no duration cache, so vitest would start
// files in an arbitrary order and one of these, started last, would run alone at the end while
// the other workers sit idle.
const LONGEST: readonly string[] = [
  'e2e test/lsp/pre-commit-hook.test.ts',
  'e2e test/http/isolation.test.ts',
  'e2e test/hostile/many-diagnostics.test.ts',
  'e2e test/console/browser.test.ts',
  'e2e test/http/supervisor.test.ts',
  'e2e test/http/serve.test.ts',
  'e2e test/http/serve-tls-watch.test.ts',
  'e2e test/cli/sarif-multitool.test.ts',
  'e2e test/lsp/vscode-extension.test.ts',
  'e2e test/http/start.test.ts',
  'e2e test/lsp/judge-cache.test.ts',
  'e2e test/cli/warm-start.test.ts',
  'e2e test/hostile/empty-documents.test.ts',
  'e2e test/http/one-catalogue.test.ts',
  'e2e test/registry-oci/done-when.test.ts',
  'e2e test/migrate/concurrent-writes.test.ts',
  'unit test/yaml/locate-by-scan.test.ts',
  'e2e test/package.test.ts',
  'e2e test/deploy/docker.test.ts',
  'e2e test/http/contract.test.ts',
  'unit test/operations/fast-path.test.ts',
  'unit test/operations/fast-path-generated.test.ts',
  'e2e test/hostile/linear-positioning.test.ts',
  'e2e test/lsp/bounds.test.ts',
  'unit test/schema/agreement.test.ts',
  'unit test/property/compat.test.ts',
];

// The other files by project, in this order, each project kept together so a worker thread
// goes on to the next file of its project with its modules loaded: the end-to-end files mostly
// wait on the processes they start, so they go first and the in-process files fill the cores.
const PROJECTS = ['e2e', 'unit', 'unit-isolated'];

/**
 * Vitest's sequencer with the order fixed where it matters for the wall time: the longest files
 * first, then the others by project in the order above, each project in vitest's own order (the
 * last run's durations when it has them).
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification): [number, number] => {
      const project = file.project.name;
      const longest = LONGEST.indexOf(`${project} ${relative(root, file.moduleId).replaceAll('\\', '/')}`);
      if (longest !== -1) return [longest, 0];
      const projectRank = PROJECTS.indexOf(project);
      return [LONGEST.length, projectRank === -1 ? PROJECTS.length : projectRank];
    };
    const position = new Map(sorted.map((file, i) => [file, i]));
    return [...sorted].sort((a, b) => {
      const [pa, la] = rank(a);
      const [pb, lb] = rank(b);
      return pa - pb || la - lb || position.get(a)! - position.get(b)!;
    });
  }
}
