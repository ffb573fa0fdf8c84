import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FLOORS, importProblems, type SourceFile } from './layers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const KNOWN_FOLDER_CYCLES = [
  'console -> console/catalogue -> console',
  'console/playground -> console -> console/playground',
  'src/cli -> src/cli/commands -> src/cli',
  'src/http -> src/http/edge -> src/http',
  'src/http/routes -> src/http -> src/http/routes',
  'src/http/work -> src/http -> src/http/work',
];

// A module that imports another which imports it back, through any others. Each one is listed so
// that no new one comes in unnoticed; the shared types or helpers of a circle go to a module both
// sides import (ARCHITECTURE.md, "Cycles").
const KNOWN_MODULE_CYCLES = ['src/catalogue/catalogue.ts -> src/catalogue/load-definitions.ts -> src/catalogue/catalogue.ts'];

const read = (path: string): SourceFile => ({ path, text: readFileSync(join(ROOT, path), 'utf8') });

describe('architecture (ARCHITECTURE.md, "Floors" and "Packages")', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('handlers'), ...sourceFiles('console')].map(read);
  const problems = importProblems(files);

  it('places every module of src/, handlers/ and console/ on a floor', () => {
    expect(problems.unplaced).toEqual([]);
  });

  it('has no import that goes up a floor or sideways', () => {
    expect(problems.wrongFloor).toEqual([]);
  });

  it('imports each package only on the floors its table names', () => {
    expect(problems.wrongPackage).toEqual([]);
  });

  it('has no cycle between a folder and its subfolders, or between folders of one floor, but the known ones', () => {
    // Each of these is a folder whose top files (the program, the app, the page) import its
    // subfolders, which import the folder's shared modules back. They are listed so that no new
    // one comes in unnoticed; a move that breaks one removes it here (ARCHITECTURE.md, "Cycles").
    expect(problems.cycles).toEqual(KNOWN_FOLDER_CYCLES);
  });

  it('has no circle of modules but the known ones', () => {
    expect(problems.moduleCycles).toEqual(KNOWN_MODULE_CYCLES);
  });

  it('lets none of the CLI, the language server and the service import another, but the CLI reach the other two through their entries', () => {
    // Where a run's definitions, lockfile and configuration come from is src/sources/'s to say, below all three.
    const adapters = ['src/cli', 'src/lsp', 'src/http'];
    const reach = Object.fromEntries(
      adapters.map((from) => [from, FLOORS[from]!.filter((place) => adapters.some((to) => to !== from && (place === to || place.startsWith(`${to}/`))))]),
    );
    expect(reach).toEqual({ 'src/cli': ['src/http/entry.ts', 'src/lsp/entry.ts'], 'src/lsp': [], 'src/http': [] });
    for (const from of adapters) expect(FLOORS[from]).toContain('src/sources');
  });

  it('keeps handlers pure: no file system, no YAML text, no HTTP', () => {
    const impure = files.filter((file) => file.path.startsWith('handlers/') && /from '(node:fs|node:http|yaml|express)/.test(file.text));
    expect(impure.map((file) => file.path)).toEqual([]);
  });
});

describe('the layers check itself', () => {
  const file = (path: string, ...imports: string[]): SourceFile => ({ path, text: imports.map((spec) => `import x from '${spec}';`).join('\n') });

  it('fails on a package imported on the wrong floor, named with the floors it may be on', () => {
    const problems = importProblems([
      file('src/core/clock.ts', 'express', 'node:fs'),
      file('src/operations/run.ts', '@sinclair/typebox/value', 'commander'),
      file('src/yaml/parse.ts', 'yaml'),
      file('src/http/app.ts', 'express', 'pino'),
    ]);
    expect(problems.wrongPackage).toEqual([
      'src/core/clock.ts -> express (only in src/http)',
      'src/operations/run.ts -> commander (only in src/cli)',
      'src/yaml/parse.ts -> yaml (only as a type, or through src/yaml/yaml-lib.ts)',
    ]);
  });

  it('fails on a package the table does not know, and on one required or imported lazily', () => {
    const problems = importProblems([
      { path: 'src/files/x.ts', text: "const y = await import('left-pad');\nconst z = requireLazily('express');\nconst a = require('ajv/dist/2020.js');" },
    ]);
    expect(problems.wrongPackage).toEqual([
      'src/files/x.ts -> left-pad (not in the package table)',
      'src/files/x.ts -> express (only in src/http)',
      'src/files/x.ts -> ajv (only in src/schema)',
    ]);
  });

  it('fails on an import up a floor, and on console/ reaching into src/', () => {
    const problems = importProblems([file('src/core/a.ts', '../operations/lint.js'), file('console/main.ts', '../src/core/data.js')]);
    expect(problems.wrongFloor).toEqual(['src/core/a.ts -> src/operations/lint.ts', 'console/main.ts -> src/core/data.ts']);
  });

  it('fails on a cycle between a folder and its subfolder', () => {
    const problems = importProblems([file('src/http/app.ts', './edge/admission.js'), file('src/http/edge/admission.ts', '../limits.js')]);
    expect(problems.cycles).toEqual(['src/http -> src/http/edge -> src/http']);
  });

  it('fails on a circle of modules, a type-only import included, and on none without one', () => {
    const circle = importProblems([
      { path: 'src/cli/commands/lint.ts', text: "import { prepare } from '../judging.js';" },
      { path: 'src/cli/judging.ts', text: "import type { Options } from './commands/lint.js';" },
    ]);
    expect(circle.moduleCycles).toEqual(['src/cli/commands/lint.ts -> src/cli/judging.ts -> src/cli/commands/lint.ts']);
    const shared = importProblems([
      { path: 'src/cli/commands/lint.ts', text: "import { prepare } from '../judging.js';\nimport type { Options } from '../options.js';" },
      { path: 'src/cli/judging.ts', text: "import type { Options } from './options.js';" },
    ]);
    expect(shared.moduleCycles).toEqual([]);
  });
});
