import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as kurel from '../../src/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPORT = join(ROOT, 'api', 'kurel.api.md');
const UPDATE = 'npm run api:report';

/** What one exported name is: a class, a function, a constant, or a type (erased: nothing at run time). */
type ExportKind = 'class' | 'function' | 'const' | 'type';

function kindOf(value: unknown): Exclude<ExportKind, 'type'> {
  if (typeof value !== 'function') return 'const';
  return /^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
}

/** The names `src/index.ts` exports as types only (`type X` in a list, or `export type { … }`). */
function typeExports(source: string): string[] {
  const names: string[] = [];
  for (const [, typeOnly, list] of source.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from/g)) {
    for (const item of list!.split(',').map((s) => s.trim())) {
      if (item === '') continue;
      const typeName = /^type\s+(\w+)$/.exec(item)?.[1];
      if (typeOnly) names.push(item);
      else if (typeName) names.push(typeName);
    }
  }
  return names;
}

/** The API report: every exported name and its kind, sorted, as a Markdown table. */
function apiReport(): string {
  const rows = new Map<string, ExportKind>();
  for (const [name, value] of Object.entries(kurel)) rows.set(name, kindOf(value));
  for (const name of typeExports(readFileSync(join(ROOT, 'src', 'index.ts'), 'utf8'))) rows.set(name, 'type');
  const names = [...rows.keys()].sort((a, b) => (a < b ? -1 : 1));
  return [
    '# The kurel package API',
    '',
    `What \`import … from 'kurel'\` offers: every name \`src/index.ts\` exports, with its kind. The`,
    'test `test/architecture/public-api.test.ts` fails when the exports differ from this list; after',
    `a deliberate change of the API, \`${UPDATE}\` rewrites it (and the change is reviewed here).`,
    '',
    '| name | kind |',
    '|---|---|',
    ...names.map((name) => `| \`${name}\` | ${rows.get(name)} |`),
    '',
  ].join('\n');
}

describe('the public API (api/kurel.api.md)', () => {
  it(`is what the committed report lists (after a deliberate change: ${UPDATE})`, () => {
    const report = apiReport();
    if (process.env['KUREL_UPDATE_API'] === '1') writeFileSync(REPORT, report);
    const committed = readFileSync(REPORT, 'utf8');
    expect(report, `src/index.ts exports differ from api/kurel.api.md; if the change is deliberate, run ${UPDATE}`).toBe(committed);
  });

  it('exports no internals: no helper of an operation, no YAML editing, no version arithmetic', () => {
    const internals = ['mergeProperties', 'migrationChain', 'convertRendering', 'editYamlText', 'readYaml', 'checkSchema', 'resolvePin', 'unifiedDiff'];
    expect(internals.filter((name) => name in kurel)).toEqual([]);
  });

  it('lists each type once and reads them from src/index.ts as written', () => {
    expect(typeExports("export { a, type B } from './x.js';\nexport type { C, D } from './y.js';")).toEqual(['B', 'C', 'D']);
  });
});
