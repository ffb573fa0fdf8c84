import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { PROFILE_WITH_MISTAKES } from '../helpers/profile.js';
import { findTool, skipWithout } from '../helpers/real-tool.js';

// Debian's Neovim (0.7.2) runs the setup docs/editors.md gives for Neovim 0.7, headless: it opens
// a profile, waits until the server's diagnostics arrive, writes them to a file and quits.
const NVIM = findTool('nvim', ['--version']);
const EDITORS = fileURLToPath(new URL('../../docs/editors.md', import.meta.url));

/** The Lua of the Neovim 0.7 setup, as the page shows it, running the built CLI. */
function documentedSetup(): string {
  const page = readFileSync(EDITORS, 'utf8');
  const section = page.slice(page.indexOf('Neovim 0.7 ('));
  const lua = /```lua\n([\s\S]*?)```/.exec(section)?.[1];
  if (lua === undefined || !lua.includes("cmd = { 'kurel', 'lsp' },")) throw new Error('docs/editors.md has no Neovim 0.7 setup running kurel lsp');
  return lua.replace("cmd = { 'kurel', 'lsp' },", `cmd = { ${JSON.stringify(process.execPath)}, ${JSON.stringify(CLI)}, 'lsp' },`);
}

// Waits (vim.wait checks the condition as events arrive) until the buffer has diagnostics.
const DRIVE = `
local found = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, string.format('%d:%d-%d:%d %s %s %s', d.lnum + 1, d.col + 1, d.end_lnum + 1, d.end_col + 1,
    vim.diagnostic.severity[d.severity], tostring(d.code), d.message))
end
if not found then out = { 'no diagnostics within 60 s' } end
vim.fn.writefile(out, os.getenv('KUREL_NVIM_OUT'))
vim.cmd('qall!')
`;

const MISTAKES = PROFILE_WITH_MISTAKES;
const MISINDENTED = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: edge
spec:
  capabilities:
    expose:
      rendering:
        controllerType: gateway
       gatewayName: public-gw
`;
const ALLOWED =
  'controllerType, ingressClassName, certManagerClusterIssuer, allowedHostnameWildcard, sslRedirect, forceSslRedirect, authURL, authSigninURL, authResponseHeaders, networkPolicy';

let dir: string;
let repo: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-neovim-'));
  repo = join(dir, 'repo');
  mkdirSync(join(repo, 'clusters'), { recursive: true });
  writeFileSync(join(repo, '.kurel.yaml'), 'strictCapabilities: false\n');
  writeFileSync(join(repo, 'clusters', 'prod.yaml'), MISTAKES);
  writeFileSync(join(repo, 'clusters', 'edge.yaml'), MISINDENTED);
  writeFileSync(join(dir, 'init.lua'), documentedSetup());
  writeFileSync(join(dir, 'drive.lua'), DRIVE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opens `file` in headless Neovim with the documented setup; the diagnostics it shows. */
function diagnosticsIn(file: string): string[] {
  const out = join(dir, `${file.replaceAll('/', '-')}.out`);
  const run = spawnSync(NVIM.command, ['--headless', '-u', join(dir, 'init.lua'), '-c', `luafile ${join(dir, 'drive.lua')}`, file], {
    cwd: repo,
    env: { ...process.env, KUREL_NVIM_OUT: out },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return readFileSync(out, 'utf8').trimEnd().split('\n');
}

describe.skipIf(skipWithout(NVIM))(`Neovim with the documented 0.7 setup (${NVIM.version})`, () => {
  it("shows the server's diagnostics of an open profile at their exact ranges, with their codes", () => {
    expect(diagnosticsIn('clusters/prod.yaml')).toEqual([
      '8:7-8:16 ERROR missing-required capability "expose": ingressClassName is required when controllerType is ingress',
      `10:9-10:24 ERROR unknown-field capability "expose": unknown field "ingresClassName" (allowed: ${ALLOWED})`,
      '11:5-11:16 WARN unknown-capability capability "servicemesh" is known to no handler or definition; its rendering is not validated',
    ]);
  });

  it('shows a YAML indentation mistake on the misindented key, not at the start of its line', () => {
    expect(diagnosticsIn('clusters/edge.yaml')).toEqual(['10:8-10:30 ERROR yaml-syntax all mapping items must start at the same column']);
  });
});
