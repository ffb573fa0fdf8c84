import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repository stands alone (CONTRIBUTING.md): code, tests and docs cite its own pages
// (README.md, docs/, ARCHITECTURE.md), never a design document a reader of the repository
// does not have. bench/RESULTS.md records earlier runs as they printed, so it is left as it is.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RECORDS = new Set(['bench/RESULTS.md', 'CHANGELOG.md']);
const TEXT = /\.(ts|mjs|cjs|js|md|json|ya?ml|css|html)$/;
// Written in two parts so that this file does not cite itself.
const CITATION = new RegExp(`\\b${'DES'}IGN(\\.md)?\\b|§\\s?\\d`);

function trackedTexts(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => TEXT.test(file) && !RECORDS.has(file));
}

describe('the repository cites only itself', () => {
  it('has no citation of a design document or of its numbered sections', () => {
    const found: string[] = [];
    for (const file of trackedTexts()) {
      const lines = readFileSync(`${ROOT}${file}`, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (CITATION.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });
});
