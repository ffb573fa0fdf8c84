import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { runKurel } from '../helpers/cli.js';
import { LspClient } from './client.js';
import { PROFILE, standardRepository, writeFile } from './repository-fixture.js';

/** A diagnostic as both sides can state it: LSP's 0-based range from lint's 1-based one. */
interface Compared {
  code: string;
  severity: number;
  message: string;
  range: [number, number, number, number];
}

function fromLsp(d: Diagnostic): Compared {
  return {
    code: String(d.code),
    severity: d.severity!,
    message: typeof d.message === 'string' ? d.message : d.message.value,
    range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
  };
}

/** What `kurel lint --format json FILE` run in the repository reports for the file (after writing `text` there). */
async function lintOf(root: string, file: string, text: string): Promise<Compared[]> {
  writeFile(root, file, text);
  const run = await runKurel(['lint', file, '--format', 'json'], { cwd: root });
  const json = JSON.parse(run.stdout) as {
    diagnostics: {
      code: string;
      severity: string;
      message: string;
      file: string;
      line: number;
      column: number;
      endLine: number;
      endColumn: number;
      suppressed?: unknown;
    }[];
  };
  return json.diagnostics
    .filter((d) => d.file === file && d.suppressed === undefined)
    .map((d) => ({
      code: d.code,
      severity: d.severity === 'error' ? 1 : 2,
      message: d.message,
      range: [d.line - 1, d.column - 1, d.endLine - 1, d.endColumn - 1],
    }));
}

describe('kurel lsp over stdio', () => {
  let root: string;
  let client: LspClient;
  beforeAll(async () => {
    root = standardRepository();
    client = await LspClient.start(root);
  });
  afterAll(async () => {
    const code = await client.stop().catch(() => {
      client.kill();
      return -1;
    });
    expect(code).toBe(0);
  });

  it('publishes exactly the diagnostics kurel lint gives for the file', async () => {
    const uri = await client.open(join(root, 'clusters/prod.yaml'), PROFILE);
    const got = (await client.diagnostics(uri)).map(fromLsp);
    const expected = await lintOf(root, 'clusters/prod.yaml', PROFILE);
    expect(expected.map((d) => d.code).sort()).toEqual(['field-unavailable', 'unknown-field', 'unpinned-capability', 'wrong-type']);
    expect(got).toEqual(expected);
  });
});
