import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The pages whose `console` blocks a test runs, command after command, and the test that does.
const RUN_BY = {
  'README.md': 'test/docs/readme-tour.test.ts',
  'docs/compat.md': 'test/versions/readme-compat.test.ts',
  'docs/migrate.md': 'test/versions/readme-versions.test.ts',
  'docs/versions.md': 'test/versions/readme-versions.test.ts',
} as const;

it('every page that shows a console session is one a walkthrough test runs', () => {
  const pages = ['README.md', 'CONTRIBUTING.md', ...readdirSync(`${ROOT}docs`, { recursive: true, encoding: 'utf8' }).map((f) => `docs/${f}`)]
    .filter((page) => page.endsWith('.md'))
    .filter((page) => readFileSync(`${ROOT}${page}`, 'utf8').includes('```console\n'));
  expect(pages.sort()).toEqual(Object.keys(RUN_BY).sort());
  for (const [page, test] of Object.entries(RUN_BY)) expect(readFileSync(`${ROOT}${test}`, 'utf8'), test).toContain(`readmeWalkthrough('${page}'`);
});
