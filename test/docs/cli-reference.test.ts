import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(`${ROOT}docs/cli.md`, 'utf8');

/** What `kurel ...args --help` prints, in process. */
async function help(args: readonly string[]): Promise<string> {
  const run = await runCaptured([...args, '--help'], { cwd: ROOT, env: {} });
  return run.stdout + run.stderr;
}

/** The names of the commands `kurel --help` lists, `help` aside. */
async function commands(): Promise<string[]> {
  const text = await help([]);
  const listed = text.slice(text.indexOf('Commands:'));
  return [...listed.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

describe('docs/cli.md, the command reference', () => {
  it('has a section for every command kurel has', async () => {
    const names = await commands();
    expect(names.length).toBeGreaterThan(10);
    const sections = [...PAGE.matchAll(/^## `kurel ([a-z]+)/gm)].map((m) => m[1]);
    expect(sections.sort()).toEqual([...names].sort());
  });

  it("names every flag of every command in the command's section or among the shared flags", async () => {
    const shared = PAGE.slice(PAGE.indexOf('## Flags many commands share'), PAGE.indexOf('## `kurel lint'));
    const missing: string[] = [];
    for (const name of await commands()) {
      const start = PAGE.indexOf(`## \`kurel ${name}`);
      const end = PAGE.indexOf('\n## ', start + 1);
      const section = PAGE.slice(start, end === -1 ? undefined : end);
      const flags = [...(await help([name])).matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]!).filter((flag) => flag !== '--help');
      for (const flag of flags) {
        const inSection = section.includes(`\`${flag}\``) || section.includes(`\`${flag} `);
        // A row of the shared table: | `--flag ...` | the commands that take it | meaning |
        const inShared = shared.split('\n').some((row) => row.startsWith(`| \`${flag}`) && new RegExp(`\\b${name}\\b`).test(row.split(' | ')[1] ?? ''));
        if (!inSection && !inShared) missing.push(`${name} ${flag}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names, in docs/configuration.md, every command that reads .kurel.yaml: each whose help lists --config', async () => {
    const configuration = readFileSync(`${ROOT}docs/configuration.md`, 'utf8');
    const sentence = configuration.slice(configuration.indexOf('command that takes `--definitions` reads it'));
    const named = sentence.slice(0, sentence.indexOf(':\n'));
    const readers: string[] = [];
    for (const name of await commands()) if (/^ {2}--config /m.test(await help([name]))) readers.push(name);
    expect(readers.length).toBeGreaterThan(8);
    expect(readers.filter((name) => !named.includes(`\`${name}\``))).toEqual([]);
  });

  it('says what --to of migrate takes as --help says it: one exact version', async () => {
    const row = PAGE.split('\n').find((line) => line.startsWith('| `--to <name@version>`'))!;
    expect(row).toContain('the exact version');
    expect((await help(['migrate'])).replace(/\s+/g, ' ')).toContain('the exact version to move its bindings to, such as redis-sidecar@2.0.0 (repeatable)');
    expect(await help(['migrate'])).not.toMatch(/or a pin/);
  });
});
