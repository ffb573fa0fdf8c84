import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';

// A line of binary data is not shown under its diagnostic: it would print as U+FFFD and
// escapes, and the message already says what and where it is.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-binary-'));
  writeFileSync(join(dir, 'image.yaml'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01, 0x02, 0x0a]));
  writeFileSync(
    join(dir, 'latin1.yaml'),
    Buffer.from('apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: caf\xe9\n', 'latin1'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the excerpt of a binary line', () => {
  it('is left out, the position and message kept', async () => {
    const run = await runInProcess(['lint', 'image.yaml'], dir);
    expect(run.stdout).toBe(
      [
        'image.yaml:1:7 error yaml-syntax the file holds binary data (a NUL byte), not YAML text',
        '1 file checked: 1 error, 0 warnings',
        'run kurel explain yaml-syntax for details',
        '',
      ].join('\n'),
    );
  });

  it('is left out for bytes that are not UTF-8', async () => {
    const run = await runInProcess(['lint', 'latin1.yaml'], dir);
    expect(run.stdout).not.toContain('\uFFFD');
    expect(run.stdout.split('\n')[0]).toMatch(/^latin1\.yaml:4:\d+ error /);
  });
});
