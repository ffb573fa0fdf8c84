import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeControls } from '../../src/cli/format/escape.js';
import { runKurel } from '../helpers/cli.js';

// Issue #10, item 12 (docs/profiles.md): keys, values, source lines and file paths are printed
// with control characters and bidirectional controls escaped, tabs kept. An ESC sequence in a
// key cleared the screen in text output, and a newline in a key started a `::error` line.
const ESC = '\u001b';
const RLO = '\u202e';
const HEADER = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n';
// Line 9: unknown keys whose names hold an ESC sequence and a workflow command after a newline.
const KEYS = `${HEADER}    pvc:\n      rendering:\n        "\\e[2J\\e[H": 1\n        "x\\n::error file=cluster.yaml,line=1::owned": 2\n`;
// Line 8: a raw right-to-left override and a tab before the unknown key `bogus` at column 68.
const LINE = `      rendering: {controllerType: ingress, ingressClassName: "${RLO}a",\tbogus: 1}`;
const ALIGN = `${HEADER}    expose:\n${LINE}\n`;
const EVIL_FILE = `evil\n::error file=x::owned${ESC}[2J.yaml`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-inject-'));
  writeFileSync(join(dir, 'keys.yaml'), KEYS);
  writeFileSync(join(dir, 'align.yaml'), ALIGN);
  writeFileSync(join(dir, EVIL_FILE), 'kind: 1\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lint = (format: string) => runKurel(['lint', 'keys.yaml', 'align.yaml', EVIL_FILE, '--format', format], { cwd: dir });

describe('escaping what the input holds', () => {
  it.each(['text', 'github', 'junit'])('prints no control or bidirectional character of the input in %s output', async (format) => {
    const run = await lint(format);
    expect(run.code).toBe(1);
    expect([...run.stdout].filter((c) => c === ESC || c === RLO || c === '\r')).toEqual([]);
    // The only workflow commands are kurel's own annotations, one per diagnostic, in GitHub output.
    const commands = run.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(
      commands.every((line) => /^::(error|warning) file=(keys\.yaml|align\.yaml|evil\\n%3A%3Aerror file=x%3A%3Aowned\\u001b\[2J\.yaml),line=/.test(line)),
    ).toBe(true);
    expect(commands.length).toBe(format === 'github' ? 4 : 0);
  });

  it('prints keys and file names with escapes in text output', async () => {
    const run = await lint('text');
    const headers = run.stdout.split('\n').filter((line) => /^\S+:\d+:\d+ /.test(line) || line.startsWith('evil'));
    expect(headers).toEqual([
      'align.yaml:8:68 error unknown-field capability "expose": unknown field "bogus" (allowed: controllerType, ingressClassName, certManagerClusterIssuer, allowedHostnameWildcard, sslRedirect, forceSslRedirect, authURL, authSigninURL, authResponseHeaders, networkPolicy)',
      'evil\\n::error file=x::owned\\u001b[2J.yaml:1:7 error invalid-value kind must be ClusterProfile or CapabilityDefinition, found 1',
      'keys.yaml:9:9 error unknown-field capability "pvc": unknown field "\\u001b[2J\\u001b[H" (allowed: storageClassName)',
      'keys.yaml:10:9 error unknown-field capability "pvc": unknown field "x\\n::error file=cluster.yaml,line=1::owned" (allowed: storageClassName)',
    ]);
  });

  it('keeps the caret under the column it points at: tabs kept, escapes widened', async () => {
    const run = await lint('text');
    const lines = run.stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith('align.yaml:8:68'));
    const before = LINE.slice(0, 67);
    expect(lines.slice(at + 1, at + 3)).toEqual([`  ${escapeControls(LINE)}`, `  ${before.replace(RLO, '      ').replace(/[^\t]/g, ' ')}^^^^^`]);
  });
});

describe('escapeControls', () => {
  it.each([
    ['ESC and BEL', `a${ESC}[31mb\u0007`, 'a\\u001b[31mb\\u0007'],
    ['line breaks', 'a\nb\r\nc', 'a\\nb\\r\\nc'],
    ['DEL and C1 controls', 'a\u007fb\u0085c\u009b', 'a\\u007fb\\u0085c\\u009b'],
    ['bidirectional controls', '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069', '\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a\\u2028b\\u2029'],
    ['a tab, kept', 'a\tb', 'a\tb'],
    ['text that needs nothing', 'é ü 日本 🙂 \u00a0', 'é ü 日本 🙂 \u00a0'],
  ])('escapes %s', (_name, raw, escaped) => {
    expect(escapeControls(raw)).toBe(escaped);
  });
});
