import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION_CODES = ['version-not-found', 'unpinned-capability', 'version-mismatch', 'definition-changed', 'lock-outdated', 'version-deprecated'] as const;

describe('the codes of versions (docs/codes/)', () => {
  it('are diagnostic codes', () => {
    expect(DIAGNOSTIC_CODES).toEqual(expect.arrayContaining([...VERSION_CODES]));
  });

  it.each(VERSION_CODES)('%s has a row with an example in the table of docs/diagnostics.md', (code) => {
    const table = readFileSync(`${ROOT}docs/diagnostics.md`, 'utf8');
    const row = table.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    expect(row).toMatch(new RegExp(`\\| \`[^\`]+:\\d+:\\d+ (error|warning) ${code} `));
  });

  it.each(VERSION_CODES)('%s has a page in docs/codes: what it means, a wrong and a right example, how to fix it', (code) => {
    const page = readFileSync(`${ROOT}docs/codes/${code}.md`, 'utf8');
    expect(page.startsWith(`# ${code}\n`)).toBe(true);
    expect(page.split('\n').filter((line) => line.startsWith('## '))).toEqual(['## What it means', '## Wrong', '## Right', '## How to fix it']);
    expect(page).toMatch(new RegExp(`:\\d+:\\d+ (error|warning) ${code} `));
  });
});
