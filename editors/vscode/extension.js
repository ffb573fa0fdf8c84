// Starts `kurel lsp` for the YAML files of the workspace (see docs/editors.md in the kurel repository).
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { workspace } = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

/** The command that runs kurel: the setting, else the workspace's own install, else the PATH's. */
function kurelCommand() {
  const configured = workspace.getConfiguration('kurel').get('path');
  if (configured) return configured;
  for (const folder of workspace.workspaceFolders ?? []) {
    const local = join(folder.uri.fsPath, 'node_modules', '.bin', process.platform === 'win32' ? 'kurel.cmd' : 'kurel');
    if (existsSync(local)) return local;
  }
  return 'kurel';
}

/** Called by VS Code when a YAML file opens or the workspace holds a .kurel.yaml. */
function activate(context) {
  const args = ['lsp', ...workspace.getConfiguration('kurel').get('args', [])];
  // TransportKind.stdio adds --stdio, which kurel lsp accepts.
  const server = { command: kurelCommand(), args, transport: TransportKind.stdio };
  const options = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', pattern: '**/.kurel.yaml' },
    ],
    // Definitions, the lockfile and .kurel.yaml changing on disk re-judge the open profiles.
    synchronize: { fileEvents: workspace.createFileSystemWatcher('**/*.{yaml,yml}') },
  };
  client = new LanguageClient('kurel', 'kurel', server, options);
  context.subscriptions.push(client);
  return client.start();
}

/** Called by VS Code on shutdown: stops the server. */
function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
