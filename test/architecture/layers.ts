import { dirname, join, normalize } from 'node:path';

/** A module of the repository: its path from the repository's root and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/**
 * The floors of ARCHITECTURE.md and what each may import, lowest first. A module imports
 * only its own floor and the floors listed for it; the CLI reaches the HTTP service and the
 * language server through their entries, and neither of those imports the CLI or the other;
 * the browser console imports nothing of the service's code but the keyword table.
 */
export const FLOORS: Readonly<Record<string, readonly string[]>> = {
  'src/core': [],
  'src/files': ['src/core'],
  'src/yaml': ['src/core'],
  'src/schema': ['src/core'],
  'src/registry': ['src/core', 'src/files'],
  'src/documents': ['src/core', 'src/yaml', 'src/schema'],
  handlers: ['src/core', 'src/schema'],
  'src/catalogue': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'handlers'],
  'src/operations': ['src/core', 'src/yaml', 'src/schema', 'src/documents', 'src/catalogue'],
  // Where a run's definitions, plugins, lockfile and configuration come from: the one answer the CLI, the language server and the service ask.
  'src/sources': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'src/catalogue', 'src/operations', 'src/registry'],
  'src/http': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'src/catalogue', 'src/operations', 'src/sources'],
  'src/lsp': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'src/catalogue', 'src/operations', 'src/sources'],
  'src/cli': [
    'src/core',
    'src/files',
    'src/yaml',
    'src/schema',
    'src/documents',
    'src/catalogue',
    'src/operations',
    'src/sources',
    'src/registry',
    'src/http/entry.ts',
    'src/lsp/entry.ts',
  ],
  'src/index.ts': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'handlers', 'src/catalogue', 'src/operations'],
  // The keyword table alone: what the console says of a keyword is its entry (ARCHITECTURE.md, "Where each rule lives").
  console: ['src/schema/keywords.ts'],
};

/** Where a package may be imported (or required): floors, folders or single files. */
interface PackageRule {
  where: readonly string[];
  /** Where it may only be imported as a type (`import type`), never loaded. */
  typesIn?: readonly string[];
  /** How a problem names the rule, when `only in <where>` would not say it. */
  rule?: string;
}

/**
 * Every package the code imports, and where (ARCHITECTURE.md, "Packages"). A package missing
 * here is a problem too: a new dependency gets its floor when it is added. Node's built-ins
 * (`node:`) are free, but for handlers (see the purity test).
 */
export const PACKAGES: Readonly<Record<string, PackageRule>> = {
  '@sinclair/typebox': { where: ['src/schema', 'src/documents', 'handlers', 'src/catalogue', 'src/operations'] },
  canonicalize: { where: ['src/documents'] },
  semver: { where: ['src/core'] },
  tinyglobby: { where: ['src/files'] },
  'tar-stream': { where: ['src/registry'] },
  ignore: { where: ['src/files'] },
  'js-yaml': { where: ['src/yaml'] },
  yaml: { where: ['src/yaml/yaml-lib.ts', 'console'], typesIn: ['src/yaml'], rule: 'only as a type, or through src/yaml/yaml-lib.ts' },
  ajv: { where: ['src/schema'] },
  re2js: { where: ['src/schema', 'src/files'] },
  regjsparser: { where: ['src/schema'] },
  regjsgen: { where: ['src/schema'] },
  diff: { where: ['src/operations'] },
  express: { where: ['src/http'] },
  pino: { where: ['src/http'] },
  'prom-client': { where: ['src/http'] },
  piscina: { where: ['src/http'] },
  chokidar: { where: ['src/http', 'src/lsp'] },
  commander: { where: ['src/cli'] },
  'json-schema-to-typescript': { where: ['src/cli'] },
  'vscode-languageserver': { where: ['src/lsp'] },
  'vscode-languageserver-textdocument': { where: ['src/lsp'] },
  codemirror: { where: ['console'] },
  '@codemirror/lang-yaml': { where: ['console'] },
  '@codemirror/language': { where: ['console'] },
  '@codemirror/lint': { where: ['console'] },
  '@codemirror/state': { where: ['console'] },
  '@codemirror/view': { where: ['console'] },
  '@lezer/highlight': { where: ['console'] },
};

/** One import (or require) of a module. */
export interface Import {
  from: string;
  /** The specifier as written. */
  spec: string;
  /** `import type` / `export type`: erased, loads nothing. */
  typeOnly: boolean;
}

/** What is wrong with the imports of a set of modules; each list empty when nothing is. */
export interface ImportProblems {
  unplaced: string[];
  wrongFloor: string[];
  wrongPackage: string[];
  cycles: string[];
  /** Circles of modules (one imports another that, through any others, imports it back), anywhere. */
  moduleCycles: string[];
}

const STATIC = /(?:^|\n)\s*(?:import|export)(\s+type\b)?[^'";]*?\bfrom\s*'([^']+)'/g;
const SIDE_EFFECT = /(?:^|\n)\s*import\s*'([^']+)'/g;
const LOADED = /\b(?:import|require|requireLazily)\(\s*'([^']+)'\s*\)/g;

/** Every import, dynamic import, `require` and `requireLazily` of a module. */
export function importsOf(file: SourceFile): Import[] {
  const found: Import[] = [];
  for (const match of file.text.matchAll(STATIC)) found.push({ from: file.path, spec: match[2]!, typeOnly: match[1] !== undefined });
  for (const match of file.text.matchAll(SIDE_EFFECT)) found.push({ from: file.path, spec: match[1]!, typeOnly: false });
  for (const match of file.text.matchAll(LOADED)) found.push({ from: file.path, spec: match[1]!, typeOnly: false });
  return found;
}

/** The floor a path is on: the longest floor it is or lies under. */
export function floorOf(path: string): string | undefined {
  return Object.keys(FLOORS)
    .filter((floor) => within(path, floor))
    .sort((a, b) => b.length - a.length)[0];
}

const within = (path: string, place: string) => path === place || path.startsWith(`${place}/`);

/** The repository path a relative specifier names, with `.js` read as the `.ts` it is built from. */
function target(edge: Import): string {
  return normalize(join(dirname(edge.from), edge.spec)).replace(/\.js$/, '.ts');
}

function packageOf(spec: string): string {
  const parts = spec.split('/');
  return (spec.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** Checks every import of `files` against the floors, the package table and for cycles between folders. */
export function importProblems(files: readonly SourceFile[]): ImportProblems {
  const problems: ImportProblems = { unplaced: [], wrongFloor: [], wrongPackage: [], cycles: [], moduleCycles: [] };
  const folders = new Map<string, Set<string>>();
  const modules = new Map<string, Set<string>>();
  for (const file of files) {
    const fromFloor = floorOf(file.path);
    if (fromFloor === undefined) problems.unplaced.push(file.path);
    for (const edge of importsOf(file)) {
      if (edge.spec.startsWith('node:')) continue;
      if (!edge.spec.startsWith('.')) {
        const problem = packageProblem(file.path, packageOf(edge.spec), edge.typeOnly);
        if (problem) problems.wrongPackage.push(`${file.path} -> ${packageOf(edge.spec)} (${problem})`);
        continue;
      }
      const to = target(edge);
      const toFloor = floorOf(to);
      const imported = modules.get(file.path) ?? new Set<string>();
      imported.add(to);
      modules.set(file.path, imported);
      if (fromFloor === undefined || toFloor === undefined || (fromFloor !== toFloor && !FLOORS[fromFloor]!.some((place) => within(to, place)))) {
        problems.wrongFloor.push(`${file.path} -> ${to}`);
      }
      if (fromFloor !== undefined && fromFloor === toFloor && dirname(file.path) !== dirname(to)) {
        const edges = folders.get(dirname(file.path)) ?? new Set<string>();
        edges.add(dirname(to));
        folders.set(dirname(file.path), edges);
      }
    }
  }
  problems.cycles = cyclesOf(folders);
  problems.moduleCycles = cyclesOf(modules);
  return problems;
}

function packageProblem(path: string, name: string, typeOnly: boolean): string | undefined {
  const rule = PACKAGES[name];
  if (rule === undefined) return 'not in the package table';
  if (rule.where.some((place) => within(path, place))) return undefined;
  if (typeOnly && rule.typesIn?.some((place) => within(path, place))) return undefined;
  return rule.rule ?? `only in ${rule.where.join(', ')}`;
}

/**
 * The cycles of a graph of folders (an edge where a module of one folder imports a module of
 * another on the same floor) or of modules: one shortest cycle per strongly connected set,
 * starting from its first member by name.
 */
function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  for (const start of [...graph.keys()].sort()) {
    if (done.has(start)) continue;
    const path = shortestReturn(graph, start);
    if (path === undefined) continue;
    for (const folder of path) done.add(folder);
    cycles.push([...path, start].join(' -> '));
  }
  return cycles;
}

/** The shortest path from `start` back to itself (without the closing `start`), if any. */
function shortestReturn(graph: ReadonlyMap<string, ReadonlySet<string>>, start: string): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i += 1) {
    const folder = queue[i]!;
    for (const next of [...(graph.get(folder) ?? [])].sort()) {
      if (next === start) {
        const path = [folder];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(next)) {
        previous.set(next, folder);
        queue.push(next);
      }
    }
  }
  return undefined;
}
