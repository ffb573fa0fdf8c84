import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const EXTENSION = fileURLToPath(new URL('../../editors/vscode/extension.js', import.meta.url));
const MANIFEST = JSON.parse(readFileSync(fileURLToPath(new URL('../../editors/vscode/package.json', import.meta.url)), 'utf8')) as {
  main: string;
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
    expect(MANIFEST.main).toBe('./extension.js');
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
