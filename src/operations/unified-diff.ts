import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/**
 * The unified diff of a file's text before and after a change (docs/profiles.md): `--- a/PATH` and
 * `+++ b/PATH` headers and 3 lines of context, as `git apply` and `patch -p1` read it; the
 * empty string when nothing changed. Line endings are kept as they are in the texts.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  // An absolute path is named under a/ and b/ as a relative one is: `a/abs/path.yaml`, not `a//abs/path.yaml`.
  const named = path.replace(/^\/+/, '');
  return createTwoFilesPatch(`a/${named}`, `b/${named}`, before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}
