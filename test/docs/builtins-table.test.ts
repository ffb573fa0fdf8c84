import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_HANDLERS } from '../../handlers/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the table of built-in capabilities in docs/profiles.md', () => {
  it('lists every built-in handler with its version, whether it consumes and requires a binding, and its description', () => {
    const page = readFileSync(`${ROOT}docs/profiles.md`, 'utf8');
    const section = page.slice(page.indexOf('## Built-in capabilities'), page.indexOf('\n## ', page.indexOf('## Built-in capabilities') + 1));
    const rows = section.split('\n').filter((line) => /^\| `[a-z-]+` \|/.test(line));
    const yesNo = (flag: boolean | undefined) => (flag ? 'yes' : 'no');
    expect(rows).toEqual(
      BUILTIN_HANDLERS.map((h) => `| \`${h.type}\` | \`${h.version}\` | ${yesNo(h.capabilityAware)} | ${yesNo(h.capabilityRequired)} | ${h.description} |`),
    );
  });
});
