import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The pages a newcomer starts from.
const ENTRY_PAGES = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'ARCHITECTURE.md', 'docs/decisions.md'];

const PAGES = [
  ...ENTRY_PAGES,
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && !ENTRY_PAGES.includes(`docs/${f}`))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, 'docs/codes'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/codes/${f}`),
];

/** The links of a Markdown text outside fenced code blocks: `[text](target)` and `![alt](target)`. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set(
    [...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('links between the pages of the docs', () => {
  it('README.md, CONTRIBUTING.md, CHANGELOG.md, ARCHITECTURE.md and the decision record are there', () => {
    expect(ENTRY_PAGES.filter((page) => !existsSync(join(ROOT, page)))).toEqual([]);
  });

  it.each(PAGES.filter((page) => existsSync(join(ROOT, page))))('every link of %s to a file of the repository finds it, and its #anchor a heading', (page) => {
    const broken: string[] = [];
    for (const link of linksOf(readFileSync(join(ROOT, page), 'utf8'))) {
      if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(path));
      const inRepo = relative(ROOT, target);
      if (inRepo.startsWith('..')) {
        broken.push(`${link} (outside the repository)`);
        continue;
      }
      if (!existsSync(target)) {
        broken.push(link);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(link);
    }
    expect(broken).toEqual([]);
  });

  it('the README stays under 300 lines and links every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(300);
    const linked = new Set(linksOf(readme).map((link) => link.split('#')[0]));
    const pages = readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`);
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });
});
