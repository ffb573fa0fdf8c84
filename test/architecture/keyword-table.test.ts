import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KEYWORDS } from '../../src/schema/keywords.js';
import { keywordLiterals } from './keyword-literals.js';

// ARCHITECTURE.md, "Where each rule lives": a keyword's every use is its entry in
// src/schema/keywords.ts. Code elsewhere reads the table; it does not name keywords in a list,
// an index, a comparison or a `case` of its own.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TABLE = 'src/schema/keywords.ts';

/** Keyword names that are also words kurel uses for its own things; the rule cannot tell the uses apart. */
const ORDINARY_WORDS: Readonly<Record<string, string>> = {
  type: "a binding's, a trait's and a handler's type, a printer column's, a message's",
  default: "an ES module's default export, a declaration's default value",
  description: "every document's, handler's and capability's description",
  title: 'the titles of GitHub annotations and compat reports',
  deprecated: "a lifecycle's and a capability's state",
};

/** Files that name keywords, which ones, and why that is not a second list of keywords. */
const ALLOWED: Readonly<Record<string, { keywords: readonly string[]; reason: string }>> = {
  'src/schema/check.ts': {
    keywords: ['x-expected', 'x-bare-number-unit'],
    reason: "the engine's walk: its messages say what these annotations hold (compiled once, read on every value)",
  },
  'src/schema/compare-rules.ts': {
    keywords: ['items', 'renamedFrom', 'properties', 'required', 'additionalProperties'],
    reason: "the comparison rules the entries name (`compare`): a rule's paths name the keyword it compares",
  },
  'src/documents/compile-definition.ts': {
    keywords: ['properties', 'enum', 'pattern', 'required', 'items', 'additionalProperties'],
    reason:
      "reads a property declaration (docs/definitions.md), whose fields are the definition's own syntax (`required: true`); which keywords fit which type, the bounds and the copied constraints come from the table",
  },
  'src/catalogue/definition-conflicts.ts': {
    keywords: ['required'],
    reason: "the conflict view puts a declaration's `required: true` back on each property, as the document writes it",
  },
  'console/catalogue/field-rows.ts': {
    keywords: ['properties', 'required', 'items', 'additionalProperties', 'const', 'enum', 'dependentRequired'],
    reason: 'names fields and their allowed values by the published structure; limits, lifecycles and unions come from the table',
  },
  'src/documents/compare-definitions.ts': {
    keywords: ['properties'],
    reason: 'a path into the compiled rendering: under `properties` it is in `spec.rendering`',
  },
  'src/operations/build-application.ts': { keywords: ['properties'], reason: "an Application component's `properties` (its rendering), not the keyword" },
  'src/operations/convert-rendering.ts': { keywords: ['items'], reason: "a SchemaStep's tag (`'items' in step`), not the keyword" },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const CHECKED = new Set(KEYWORDS.map((k) => k.name).filter((name) => !Object.hasOwn(ORDINARY_WORDS, name)));

/** Each keyword a file names outside the table, but those its allow-list entry gives a reason for. */
function namedOutsideTheTable(files: readonly { path: string; text: string }[]): { problems: string[]; used: Set<string> } {
  const problems: string[] = [];
  const used = new Set<string>();
  for (const { path, text } of files) {
    if (path === TABLE) continue;
    for (const { keyword, line } of keywordLiterals(text, CHECKED)) {
      if (ALLOWED[path]?.keywords.includes(keyword)) used.add(`${path} ${keyword}`);
      else problems.push(`${path}:${line} names "${keyword}"`);
    }
  }
  return { problems, used };
}

describe('the keyword table is the one place keywords are named (ARCHITECTURE.md, "Where each rule lives")', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('console')].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
  const { problems, used } = namedOutsideTheTable(files);

  it('has no keyword named in a list, an index, a comparison or a case outside src/schema/keywords.ts, but those allowed with a reason', () => {
    expect(problems).toEqual([]);
  });

  it('allows nothing no file needs', () => {
    const allowed = Object.entries(ALLOWED).flatMap(([path, { keywords }]) => keywords.map((keyword) => `${path} ${keyword}`));
    expect(allowed.filter((entry) => !used.has(entry))).toEqual([]);
  });

  it('exempts only keywords of the table', () => {
    expect(Object.keys(ORDINARY_WORDS).filter((word) => !KEYWORDS.some((k) => k.name === word))).toEqual([]);
  });
});

describe('the keyword literal scan itself', () => {
  const names = new Set(['minLength', 'enum', 'oneOf', 'items', 'const', 'x-expected']);
  const found = (text: string) => keywordLiterals(text, names).map((k) => `${k.line}:${k.keyword}`);

  it('finds a keyword in a list, an index, a comparison, a case and before in', () => {
    const text = [
      "const LIST = ['minLength', 'enum'];",
      "const n = node['oneOf'];",
      "if (key === 'items' || 'const' !== key) {}",
      "switch (key) { case 'x-expected': break; }",
      "if ('enum' in node) {}",
      'const t = `minLength`;',
      'const m = new Map([[`items`, 1]]);',
    ].join('\n');
    expect(found(text)).toEqual(['1:minLength', '1:enum', '2:oneOf', '3:items', '3:const', '4:x-expected', '5:enum', '7:items']);
  });

  it('leaves keywords in comments, messages, arguments, object keys, regular expressions and template text alone', () => {
    // The source below holds template literals, written as plain strings.
    const interpolated = '$' + '{';
    const text = [
      "// node['minLength'] in a comment",
      "/* ['enum'] */ const a = f('minLength');",
      "const b = { 'x-expected': 1, kind: 'oneOf' };",
      `const c = /['"]items['"]/.test(x) ? \`a ${interpolated}['const'].length} b\` : 'enum';`,
      'const d = "it says [\'enum\']";',
      `const e = \`${interpolated}x}['items']\`;`,
    ].join('\n');
    expect(found(text)).toEqual(['4:const']);
  });

  it('fails a file outside the table that names a keyword, with its line', () => {
    const text = "export const X = 1;\nconst CONSTRAINTS = ['minLength', 'maxLength'];\n";
    expect(namedOutsideTheTable([{ path: 'src/operations/new-list.ts', text }]).problems).toEqual([
      'src/operations/new-list.ts:2 names "minLength"',
      'src/operations/new-list.ts:2 names "maxLength"',
    ]);
    expect(namedOutsideTheTable([{ path: TABLE, text }]).problems).toEqual([]);
  });
});
