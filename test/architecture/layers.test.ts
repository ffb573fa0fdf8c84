import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The floors of ARCHITECTURE.md and what each may import, lowest first. A module imports
 * only its own floor and the floors listed for it; the CLI reaches the HTTP service and the
 * language server through their entries.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'src/core': [],
  'src/files': ['src/core'],
  'src/yaml': ['src/core'],
  'src/schema': ['src/core'],
  'src/documents': ['src/core', 'src/yaml', 'src/schema'],
  handlers: ['src/core', 'src/schema'],
  'src/catalogue': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'handlers'],
  'src/operations': ['src/core', 'src/yaml', 'src/schema', 'src/documents', 'src/catalogue'],
  'src/http': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'src/catalogue', 'src/operations'],
  // The language server puts a repository together with the modules `kurel lint` uses for its configuration, handlers, lockfile, globs and platform flags.
  'src/lsp': [
    'src/core',
    'src/files',
    'src/yaml',
    'src/schema',
    'src/documents',
    'src/catalogue',
    'src/operations',
    'src/cli/apply-config.ts',
    'src/cli/command-catalogue.ts',
    'src/cli/command-lockfile.ts',
    'src/cli/glob.ts',
    'src/cli/io.ts',
    'src/cli/platform-flags.ts',
    'src/cli/run-config.ts',
  ],
  'src/cli': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'src/catalogue', 'src/operations', 'src/http/entry.ts', 'src/lsp/entry.ts'],
  'src/index.ts': ['src/core', 'src/files', 'src/yaml', 'src/schema', 'src/documents', 'handlers', 'src/catalogue', 'src/operations'],
};

interface Edge {
  from: string;
  to: string;
}

function floorOf(file: string): string | undefined {
  return Object.keys(ALLOWED)
    .filter((floor) => file === floor || file.startsWith(`${floor}/`))
    .sort((a, b) => b.length - a.length)[0];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): Edge[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const edges: Edge[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = relative(ROOT, resolve(ROOT, dirname(file), match[1]!)).replace(/\.js$/, '.ts');
    edges.push({ from: file, to: target });
  }
  return edges;
}

function isAllowed(edge: Edge): boolean {
  const from = floorOf(edge.from);
  const to = floorOf(edge.to);
  if (from === undefined || to === undefined) return false;
  if (from === to) return true;
  return ALLOWED[from]!.some((floor) => edge.to === floor || edge.to.startsWith(`${floor}/`));
}

describe('architecture', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('handlers')];

  it('places every module of src/ and handlers/ on a floor', () => {
    expect(files.filter((file) => floorOf(file) === undefined)).toEqual([]);
  });

  it('has no import that goes up a floor or sideways', () => {
    const wrong = files.flatMap(importsOf).filter((edge) => !isAllowed(edge));
    expect(wrong.map((edge) => `${edge.from} -> ${edge.to}`)).toEqual([]);
  });

  it('keeps handlers pure: no file system, no YAML text, no HTTP', () => {
    const impure = sourceFiles('handlers').filter((file) => /from '(node:fs|node:http|yaml|express)/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(impure).toEqual([]);
  });
});
