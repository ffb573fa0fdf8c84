import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBounded, located } from './bounded-cli.js';

// Issue #7: binary files and invalid UTF-8 get a diagnostic at the first bad byte (docs/profiles.md), in a
// profile named on the command line, on standard input, and among definitions.
const PROFILE = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\n';
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

const BINARY = 'the file holds binary data (a NUL byte), not YAML text';
const CASES: [name: string, content: Buffer, line: number, column: number, message: string][] = [
  // A PNG header: its first NUL byte opens line 3.
  ['png.yaml', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), 3, 1, BINARY],
  // UTF-16 with its byte order mark is named as such, not as binary data (issue #10, item 14).
  [
    'utf16.yaml',
    Buffer.concat([bytes([0xff, 0xfe]), Buffer.from(PROFILE, 'utf16le')]),
    1,
    1,
    'the file is UTF-16 (little-endian) text (it starts with that byte order mark); kurel reads UTF-8 only',
  ],
  ['nul-in-value.yaml', bytes(PROFILE, 'spec:\n  x: ab', [0], '\n'), 6, 8, BINARY],
  // Latin-1 é (one byte 0xE9) where UTF-8 needs two.
  [
    'latin1.yaml',
    bytes(PROFILE, 'spec:\n  capabilities:\n    ingress:\n      rendering: {owner: Andr', [0xe9], '}\n'),
    8,
    30,
    'the file is not valid UTF-8 text (byte 149)',
  ],
  ['overlong.yaml', bytes(PROFILE, '# ', [0xc0, 0xaf], '\n'), 5, 3, 'the file is not valid UTF-8 text (byte 87)'],
  // A UTF-16 surrogate encoded as UTF-8, after two valid two-byte characters.
  ['surrogate.yaml', bytes(PROFILE, '# éé ', [0xed, 0xa0, 0x80], '\n'), 5, 6, 'the file is not valid UTF-8 text (byte 92)'],
  ['truncated.yaml', bytes(PROFILE, [0xe2, 0x82]), 5, 1, 'the file is not valid UTF-8 text (byte 85)'],
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-binary-'));
  for (const [name, content] of CASES) writeFileSync(join(dir, name), content);
  writeFileSync(join(dir, 'good.yaml'), PROFILE);
  mkdirSync(join(dir, 'definitions'));
  writeFileSync(
    join(dir, 'definitions', 'cache.yaml'),
    bytes('apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: ca', [0xff], 'che\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('binary and invalid UTF-8 input', () => {
  it.each(CASES.map(([name, , line, column, message]) => [name, line, column, message] as const))(
    'reports %s as yaml-syntax at line %i, column %i',
    async (name, line, column, message) => {
      const run = await lintBounded([name], { cwd: dir });
      expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.path, d.message]) }).toEqual({
        code: 1,
        diagnostics: [['yaml-syntax', line, column, '', message]],
      });
    },
  );

  it('reports binary standard input under its --stdin-filepath name', async () => {
    const run = await lintBounded(['-', '--stdin-filepath', 'piped.yaml'], { input: CASES[0]![1] });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'yaml-syntax', file: 'piped.yaml', line: 3, column: 1, path: '' }],
    });
  });

  it('reports an undecodable file in a --definitions folder, and still checks the profile', async () => {
    const run = await lintBounded(['good.yaml', '--definitions', 'definitions'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json), files: run.json.files.map((f) => [f.path, f.kind, f.status]) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'yaml-syntax', file: 'definitions/cache.yaml', line: 4, column: 11, path: '' }],
      files: [
        ['good.yaml', 'ClusterProfile', 'checked'],
        ['definitions/cache.yaml', 'unknown', 'checked'],
      ],
    });
  });
});
