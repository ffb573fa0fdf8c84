import { describe, expect, it } from 'vitest';
import { MAX_WILDCARDS, mostWildcards } from '../../src/files/expand-globs.js';
import { lintInFolder, PROFILE_HEAD } from './in-process.js';

// Issue 25, row 10: `kurel lint 'rd/*a*a*a*a*a*a*a*a*a*a*a*a*c.yaml'` over a file named `a…a b.yaml`
// ran for over a minute with 40 a's: the glob library's regular expression takes time growing
// with the name's length to the power of the number of wildcards. More than three in one part
// of a glob is now refused before anything is matched.

const PROFILE = `${PROFILE_HEAD}  capabilities: {}\n`;
const files = { [`rd/${'a'.repeat(40)} b.yaml`]: PROFILE, 'rd/abc.yaml': PROFILE };

describe('wildcards in a glob (issue 25, row 10)', () => {
  it('refuses thirteen wildcards in a file name pattern: usage, exit 2, nothing read', async () => {
    const glob = 'rd/*a*a*a*a*a*a*a*a*a*a*a*a*c.yaml';
    const run = await lintInFolder(files, [glob]);
    expect({
      code: run.code,
      files: run.json.files,
      diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.path, d.message, d.hint]),
    }).toEqual({
      code: 2,
      files: [],
      diagnostics: [
        [
          'usage',
          '<command line>',
          1,
          1,
          '',
          `the glob ${glob} has 13 * wildcards between two slashes; at most 3 are accepted there, as more can take minutes to match a long file name`,
          'match with fewer wildcards, or name the files or their folder',
        ],
      ],
    });
  });

  it('matches with three wildcards in a part, and any number of parts', async () => {
    const run = await lintInFolder(files, ['*/*a*b*.yaml']);
    expect({ code: run.code, files: run.json.files.map((f) => f.path) }).toEqual({ code: 0, files: [`rd/${'a'.repeat(40)} b.yaml`, 'rd/abc.yaml'] });
  });

  it('counts a run of stars once, a ** part not at all, and no escaped or bracketed star', () => {
    expect(mostWildcards('**/*.yaml')).toBe(1);
    expect(mostWildcards('a/**/b**c*d*e.yaml')).toBe(3);
    expect(mostWildcards('*a*a*a*.yaml')).toBe(4);
    expect(mostWildcards('\\*a[*]b*.yaml')).toBe(1);
    expect(mostWildcards('x*/y*/z*')).toBe(1);
    expect(MAX_WILDCARDS).toBe(3);
  });
});
