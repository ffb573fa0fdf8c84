import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics.js';
import { readMigrationTargets } from '../../src/operations/migrate.js';
import { definitionText } from '../versions/helpers.js';
import { migrate } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = `${ROOT}test/fixtures/migrate/`;
const fixtureDefinitions = Object.fromEntries(
  ['1.0.0', '1.1.0', '2.0.0'].map((v) => [`definitions/redis-sidecar-${v}.yaml`, readFileSync(`${FIXTURE}definitions/redis-sidecar-${v}.yaml`, 'utf8')]),
);
const LATER = [
  'image: {type: string, required: true}',
  'memoryLimit: {type: string, default: 256Mi}',
  'port: {type: integer, minimum: 1, maximum: 65535, default: 6379}',
];

/** The definitions each page's example is told against: the fixture's, and what the page adds. */
const DEFINITIONS: Record<string, Record<string, string>> = {
  'migration-lossy': fixtureDefinitions,
  'migration-unsupported': fixtureDefinitions,
  'migration-needs-value': {
    ...fixtureDefinitions,
    'definitions/redis-sidecar-3.0.0.yaml': definitionText('redis-sidecar', '3.0.0', [...LATER, 'password: {type: string, required: true}']),
  },
  'migration-default-changed': {
    ...fixtureDefinitions,
    'definitions/redis-sidecar-2.0.0.yaml': fixtureDefinitions['definitions/redis-sidecar-2.0.0.yaml']!.replace(
      'default: 256Mi, renamedFrom',
      'default: 1Gi, renamedFrom',
    ),
  },
};
const CODES = Object.keys(DEFINITIONS);

/** The YAML of a section of a page, and the command and the lines printed in its text block. */
function example(page: string, section: 'Wrong' | 'Right') {
  const part = page.slice(page.indexOf(`## ${section}\n`), page.indexOf('\n## ', page.indexOf(`## ${section}\n`) + 1));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(part)![1]!;
  const text = /```text\n\$ (.*)\n([\s\S]*?)\n```/.exec(part);
  return { yaml, command: text?.[1], printed: text?.[2]?.split('\n') };
}

describe('the pages of the migration codes (docs/codes/)', () => {
  it('are diagnostic codes', () => {
    expect(DIAGNOSTIC_CODES).toEqual(expect.arrayContaining(CODES));
  });

  it.each(CODES)('%s: the wrong example prints the line its page shows, and the right one migrates without it', (code) => {
    const page = readFileSync(`${ROOT}docs/codes/${code}.md`, 'utf8');
    expect(page.startsWith(`# ${code}\n`)).toBe(true);
    expect(page.split('\n').filter((line) => line.startsWith('## '))).toEqual(['## What it means', '## Wrong', '## Right', '## How to fix it']);
    const wrong = example(page, 'Wrong');
    const [, file, to] = /^kurel migrate (\S+) --definitions definitions --to (\S+)$/.exec(wrong.command!)!;
    const targets = readMigrationTargets([to!]).targets;
    const report = migrate({ [file!]: wrong.yaml }, DEFINITIONS[code]!, targets);
    const printed = report.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`);
    expect(printed).toEqual(wrong.printed);
    const right = example(page, 'Right');
    expect(migrate({ [file!]: right.yaml }, DEFINITIONS[code]!, targets).diagnostics.map((d) => d.code)).not.toContain(code);
  });

  it.each(CODES)('%s has a row with an example in the table of docs/diagnostics.md', (code) => {
    const table = readFileSync(`${ROOT}docs/diagnostics.md`, 'utf8');
    const row = table.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    expect(row).toMatch(new RegExp(`\\| \`[^\`]+:\\d+:\\d+ (error|warning) ${code} `));
  });
});
