import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findTool, skipWithout } from '../helpers/real-tool.js';

const EXTENSION = fileURLToPath(new URL('../../editors/vscode/extension.js', import.meta.url));
const MANIFEST = JSON.parse(readFileSync(fileURLToPath(new URL('../../editors/vscode/package.json', import.meta.url)), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
  activationEvents: string[];
  contributes: { configuration: { properties: Record<string, unknown> } };
};

interface Started {
  id: string;
  server: { command: string; args: string[]; transport: number };
  options: { documentSelector: unknown[] };
}

type Resolver = (request: string, ...rest: unknown[]) => string;
const moduleWithResolver = Module as unknown as { _resolveFilename: Resolver };
const original = moduleWithResolver._resolveFilename;

/** Loads the extension with stand-ins for the modules VS Code provides; returns what it started. */
function activate(settings: Record<string, unknown>, folders: string[]): Started[] {
  const started: Started[] = [];
  const fakes: Record<string, unknown> = {
    vscode: {
      workspace: {
        getConfiguration: () => ({ get: (key: string, fallback?: unknown) => settings[key] ?? fallback }),
        workspaceFolders: folders.map((fsPath) => ({ uri: { fsPath } })),
        createFileSystemWatcher: (glob: string) => ({ glob }),
      },
    },
    'vscode-languageclient/node': {
      TransportKind: { stdio: 0 },
      LanguageClient: class {
        constructor(id: string, _name: string, server: Started['server'], options: Started['options']) {
          started.push({ id, server, options });
        }
        start() {
          return Promise.resolve();
        }
      },
    },
  };
  const dir = mkdtempSync(join(tmpdir(), 'kurel-vscode-'));
  moduleWithResolver._resolveFilename = (request, ...rest) => {
    if (!(request in fakes)) return original(request, ...rest);
    const file = join(dir, `${request.replace(/\W/g, '-')}.cjs`);
    return file;
  };
  const require = createRequire(import.meta.url);
  for (const [name, value] of Object.entries(fakes)) {
    const file = join(dir, `${name.replace(/\W/g, '-')}.cjs`);
    writeFileSync(file, '');
    const fake = new Module(file);
    fake.exports = value;
    fake.loaded = true;
    (require.cache as Record<string, unknown>)[file] = fake;
  }
  delete require.cache[EXTENSION];
  const extension = require(EXTENSION) as { activate(context: { subscriptions: unknown[] }): Promise<void> };
  void extension.activate({ subscriptions: [] });
  return started;
}

describe('the VS Code extension (editors/vscode)', () => {
  afterEach(() => {
    moduleWithResolver._resolveFilename = original;
  });

  it('starts kurel lsp over standard input and output with the configured arguments', () => {
    // VS Code runs the bundle that vsce's prepublish step makes of extension.js, the file tested here.
    expect([MANIFEST.main, MANIFEST.scripts['vscode:prepublish']?.split(' ').slice(0, 2)]).toEqual(['./dist/extension.js', ['esbuild', 'extension.js']]);
    expect(Object.keys(MANIFEST.contributes.configuration.properties)).toEqual(['kurel.path', 'kurel.args']);
    const [started] = activate({ path: '/opt/kurel/bin/kurel', args: ['--platform', 'kubernetes=1.30'] }, []);
    expect(started?.server).toEqual({ command: '/opt/kurel/bin/kurel', args: ['lsp', '--platform', 'kubernetes=1.30'], transport: 0 });
  });

  it("runs the workspace's own kurel when no path is set, else kurel on the PATH", () => {
    const folder = mkdtempSync(join(tmpdir(), 'kurel-workspace-'));
    expect(activate({}, [folder])[0]?.server.command).toBe('kurel');
    mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(folder, 'node_modules', '.bin', 'kurel'), '');
    expect(activate({}, [folder])[0]?.server.command).toBe(join(folder, 'node_modules', '.bin', 'kurel'));
  });
});

// `vsce package` itself (docs/editors.md, "VS Code"; docs/integrations.md), as the extension's
// README says to run it: npm ci in a copy of editors/vscode installs @vscode/vsce, esbuild and the
// language client from the extension's lockfile (the npm registry), then vsce bundles and packs.
const NPM = findTool('npm');
const EXTENSION_DIR = fileURLToPath(new URL('../../editors/vscode/', import.meta.url));

describe.skipIf(skipWithout(NPM))('vsce package (@vscode/vsce from editors/vscode/package-lock.json)', () => {
  let copy: string;
  let packaged: { status: number | null; output: string };
  const entry = (name: string) => execFileSync('unzip', ['-p', join(copy, 'kurel-0.1.0.vsix'), name], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'kurel-vsce-'));
    cpSync(EXTENSION_DIR, copy, { recursive: true, filter: (from) => !/[\\/](node_modules|dist)$|\.vsix$/.test(from) });
    execFileSync(NPM.command, ['ci', '--no-audit', '--no-fund'], { cwd: copy, stdio: 'ignore', timeout: 600_000 });
    const run = spawnSync(join(copy, 'node_modules', '.bin', 'vsce'), ['package'], {
      cwd: copy,
      encoding: 'utf8',
      input: '',
      timeout: 300_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    packaged = { status: run.status, output: `${run.stdout}${run.stderr}` };
  }, 900_000);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('packages without an error or a warning', () => {
    expect(packaged.status, packaged.output).toBe(0);
    expect(packaged.output).toContain('Packaged: ');
    expect(packaged.output).not.toMatch(/WARNING|ERROR/);
  });

  it('packs the bundled extension, its manifest, README and LICENSE, and nothing else', () => {
    const listing = execFileSync('zipinfo', ['-1', join(copy, 'kurel-0.1.0.vsix')], { encoding: 'utf8' });
    expect(listing.split('\n').filter(Boolean).sort()).toEqual([
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/LICENSE.txt',
      'extension/dist/extension.js',
      'extension/package.json',
      'extension/readme.md',
    ]);
    expect(entry('extension/LICENSE.txt')).toBe(readFileSync(fileURLToPath(new URL('../../LICENSE', import.meta.url)), 'utf8'));
    expect((JSON.parse(entry('extension/package.json')) as { main: string }).main).toBe('./dist/extension.js');
  });

  it('bundles the language client: the extension requires only what VS Code and Node provide', () => {
    const required = new Set([...entry('extension/dist/extension.js').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
    expect(required.has('vscode')).toBe(true);
    expect([...required].filter((name) => name !== 'vscode' && !builtinModules.includes(name.replace(/^node:/, '')))).toEqual([]);
  });
});
