import { describe, expect, it } from 'vitest';
import { error, type Issue } from '../../src/core/diagnostics.js';
import { parseYamlStream } from '../../src/yaml/source.js';

const TEXT = [
  'root:', //                       1
  '  name: web', //                 2
  '  list:', //                     3
  '    - first: 1', //              4
  '      second: two', //           5
  '    - plain', //                 6
  '  flow: {a: 1, b: [x, y]}', //   7
  '  empty:', //                    8
  '  quoted: "hello world"', //     9
].join('\n');

const at = (issue: Issue, text = TEXT) => {
  const d = parseYamlStream(text, 'f.yaml').documents[0]!.toDiagnostic(issue);
  return { line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn, path: d.path };
};

describe('positions of diagnostics', () => {
  it('points a value error at the value, with its end', () => {
    expect(at(error('wrong-type', ['root', 'name'], 'x'))).toEqual({ line: 2, column: 9, endLine: 2, endColumn: 12, path: '/root/name' });
  });

  it('points a key error at the key', () => {
    expect(at(error('unknown-field', ['root', 'quoted'], 'x'))).toEqual({ line: 9, column: 3, endLine: 9, endColumn: 9, path: '/root/quoted' });
  });

  it('points at a quoted value including its quotes', () => {
    expect(at(error('invalid-value', ['root', 'quoted'], 'x'))).toEqual({ line: 9, column: 11, endLine: 9, endColumn: 24, path: '/root/quoted' });
  });

  it('points at keys and values inside list items and flow collections', () => {
    expect(at(error('wrong-type', ['root', 'list', 0, 'second'], 'x'))).toMatchObject({ line: 5, column: 15, path: '/root/list/0/second' });
    expect(at(error('wrong-type', ['root', 'list', 1], 'x'))).toMatchObject({ line: 6, column: 7, path: '/root/list/1' });
    expect(at(error('wrong-type', ['root', 'flow', 'b', 1], 'x'))).toMatchObject({ line: 7, column: 23, path: '/root/flow/b/1' });
    expect(at(error('unknown-field', ['root', 'flow', 'b'], 'x'))).toMatchObject({ line: 7, column: 16 });
  });

  it("points a missing key at its parent's key", () => {
    expect(at(error('missing-required', ['root', 'flow', 'c'], 'x'))).toMatchObject({ line: 7, column: 3, endColumn: 7, path: '/root/flow/c' });
  });

  it("points a missing key of a list item at the item's first line", () => {
    expect(at(error('missing-required', ['root', 'list', 0, 'third'], 'x'))).toEqual({
      line: 4,
      column: 7,
      endLine: 4,
      endColumn: 15,
      path: '/root/list/0/third',
    });
  });

  it("points a missing key under an absent parent at the nearest existing ancestor's key", () => {
    expect(at(error('missing-required', ['root', 'absent', 'deeper', 'key'], 'x'))).toMatchObject({ line: 1, column: 1, path: '/root/absent/deeper/key' });
  });

  it('points a value error on a key with no value at the key', () => {
    expect(at(error('wrong-type', ['root', 'empty'], 'x'))).toMatchObject({ line: 8, column: 3, endColumn: 8 });
  });

  it('honours an explicit position that differs from the path (a key required by another)', () => {
    const issue = error('missing-required', ['root', 'authURL'], 'x', { at: { path: ['root', 'name'], part: 'key' } });
    expect(at(issue)).toMatchObject({ line: 2, column: 3, path: '/root/authURL' });
  });

  it('encodes ~ and / in JSON Pointer paths', () => {
    const text = 'a/b:\n  c~d: 1\n';
    expect(at(error('wrong-type', ['a/b', 'c~d'], 'x'), text)).toMatchObject({ line: 2, column: 8, path: '/a~1b/c~0d' });
  });

  it('counts lines the same with CRLF line endings', () => {
    const text = TEXT.replace(/\n/g, '\r\n');
    expect(at(error('wrong-type', ['root', 'list', 0, 'second'], 'x'), text)).toMatchObject({ line: 5, column: 15 });
  });

  it('counts columns in characters, not bytes', () => {
    const text = 'a: "ünïcødé"\nb: 1\nc: {x: "é", y: 2}\n';
    expect(at(error('wrong-type', ['c', 'y'], 'x'), text)).toMatchObject({ line: 3, column: 16 });
  });
});

describe('parseYamlStream', () => {
  it('reads YAML 1.2 core scalars without coercing yes/no, octal-looking or sexagesimal values', () => {
    const { documents } = parseYamlStream('a: yes\nb: off\nc: 012\nd: 1:30\ne: 0o12\nf: ~\ng: 2.0\n', 'f.yaml');
    expect(documents[0]!.data).toEqual({ a: 'yes', b: 'off', c: 12, d: '1:30', e: 10, f: null, g: 2 });
  });

  it('keeps integers beyond 2^53 exact as bigint and smaller ones as numbers', () => {
    const { documents } = parseYamlStream('big: 123456789012345678901234567890\nsmall: 42\n', 'f.yaml');
    expect(documents[0]!.data).toEqual({ big: 123456789012345678901234567890n, small: 42 });
  });

  it.each([
    ['a string', '\ufeffa: 1\nb: x\n'],
    ['bytes', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('a: 1\nb: x\n')])],
  ])('accepts a UTF-8 byte order mark in %s without shifting columns', (_name, input) => {
    const { documents, diagnostics } = parseYamlStream(input, 'f.yaml');
    expect(diagnostics).toEqual([]);
    expect(documents[0]!.data).toEqual({ a: 1, b: 'x' });
    expect(documents[0]!.toDiagnostic(error('wrong-type', ['b'], 'x'))).toMatchObject({ line: 2, column: 4 });
  });

  it('drops a trailing empty document after a final ---', () => {
    expect(parseYamlStream('a: 1\n---\n', 'f.yaml').documents).toHaveLength(1);
    expect(parseYamlStream('a: 1\n---\n# done\n', 'f.yaml').documents).toHaveLength(1);
  });

  it('reports a duplicate key at its second occurrence, naming the first line', () => {
    const doc = parseYamlStream('a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n', 'f.yaml').documents[0]!;
    expect(doc.diagnostics).toMatchObject([
      { code: 'duplicate-key', line: 5, column: 3, endColumn: 4, path: '/b/c', message: 'duplicate key "c" (first defined on line 3)' },
    ]);
    expect(doc.data).toEqual({ a: 1, b: { c: 1, d: 2 } });
  });

  it('reports a duplicate key in a flow map', () => {
    const doc = parseYamlStream('m: {x: 1, y: 2, x: 3}\n', 'f.yaml').documents[0]!;
    expect(doc.diagnostics).toMatchObject([{ code: 'duplicate-key', line: 1, column: 17, path: '/m/x' }]);
  });

  it.each([
    ['an unclosed flow map (at its {, issue 16 defect 9)', 'a: {b: 1\n', 1, 4],
    ['a tab used for indentation', 'a:\n\tb: 1\n', 2, 1],
    ['a bad indentation (at the misindented key, not the line start)', 'a:\n  b: 1\n c: 2\n', 3, 2],
    ['an unclosed quote (at the end of the input)', 'a: "open\n', 2, 1],
  ])('reports %s as yaml-syntax at the offending place', (_name, text, line, column) => {
    const doc = parseYamlStream(text, 'f.yaml').documents[0]!;
    expect(doc.data).toBeUndefined();
    expect(doc.diagnostics[0]).toMatchObject({ code: 'yaml-syntax', severity: 'error', line, column });
  });

  const syntax = (text: string) =>
    parseYamlStream(text, 'f.yaml').documents[0]!.diagnostics.map((d) => ({ line: d.line, column: d.column, message: d.message, hint: d.hint }));

  it('reports a key indented one space too far once, on its own line, with a hint (issue 16, defect 9)', () => {
    expect(syntax('spec:\n  rendering:\n    controllerType: gateway\n     gatewayName: public\n')).toEqual([
      {
        line: 4,
        column: 6,
        message: 'this line is indented deeper than the key above it, so YAML reads it as part of the value on line 3',
        hint: 'check the indentation of line 4: keys of one map start at the same column',
      },
    ]);
  });

  it.each([
    ['@', 'owner: @platform-team\n', 1, 8, '"@platform-team"'],
    ['a backquote', 'run: `date`\n', 1, 6, '"`date`"'],
    ['%', 'ratio: %50 # of nodes\n', 1, 8, '"%50"'],
  ])('hints to quote a value starting with %s (issue 16, defect 9)', (_name, text, line, column, quoted) => {
    const [d] = syntax(text);
    expect(d).toMatchObject({
      line,
      column,
      hint: `a value starting with ${text.charAt(column - 1)} is read as YAML syntax; if it is text, quote it: ${quoted}`,
    });
  });

  it.each([
    ['{', 'a:\n  b: {c: 1\n  d: 2\n', 2, 6, 'this { is never closed with }', 'close it with }, or, if the value is text, quote it: "{c: 1"'],
    ['[', 'a:\n  b: [1, 2\n  d: 2\n', 2, 6, 'this [ is never closed with ]', 'close it with ], or, if the value is text, quote it: "[1, 2"'],
  ])('reports an unclosed %s at itself, not where the text ends (issue 16, defect 9)', (_name, text, line, column, message, hint) => {
    expect(syntax(text)).toEqual([{ line, column, message, hint }]);
  });

  it('hints to check the indentation of a line indented less than its siblings, the range on its key and value', () => {
    expect(syntax('a:\n  b: 1\n c: 2\n')[0]).toMatchObject({ line: 3, column: 2, hint: 'check the indentation of line 3' });
    const [d] = parseYamlStream(
      'spec:\n  capabilities:\n    expose:\n      rendering:\n        controllerType: ingress\n       ingressClassName: nginx\n',
      'f.yaml',
    ).documents[0]!.diagnostics;
    expect([d!.code, d!.line, d!.column, d!.endLine, d!.endColumn, d!.message]).toEqual([
      'yaml-syntax',
      6,
      8,
      6,
      31,
      'all mapping items must start at the same column',
    ]);
  });

  it('writes yaml-syntax messages lowercase without a trailing period or position suffix', () => {
    const [d] = parseYamlStream('a: "open\n', 'f.yaml').documents[0]!.diagnostics;
    expect(d!.message).toMatch(/^[a-z]/);
    expect(d!.message).not.toMatch(/\.$|at line/);
  });

  it.each([
    ['an integer', '123: x\n', '/123', 'keys must be strings, found integer 123; quote it to use it as a name'],
    ['a boolean', 'true: x\n', '/true', 'keys must be strings, found boolean true; quote it to use it as a name'],
    ['a float', '1.5: x\n', '/1.5', 'keys must be strings, found number 1.5; quote it to use it as a name'],
    ['null', '~: x\n', '', 'keys must be strings, found null ~; quote it to use it as a name'],
    ['a list', '? [a, b]\n: x\n', '', 'keys must be scalars (strings), found a list'],
    ['a map', '? {a: 1}\n: x\n', '', 'keys must be scalars (strings), found a map'],
  ])('reports %s key as invalid-key at the key', (_name, text, path, message) => {
    const doc = parseYamlStream(text, 'f.yaml').documents[0]!;
    expect(doc.diagnostics).toMatchObject([{ code: 'invalid-key', line: 1, path, message }]);
  });

  it('accepts a quoted number as a string key', () => {
    const doc = parseYamlStream('"123": x\n', 'f.yaml').documents[0]!;
    expect({ data: doc.data, diagnostics: doc.diagnostics }).toEqual({ data: { '123': 'x' }, diagnostics: [] });
  });
});

describe('anchors, aliases and merge keys', () => {
  const TEXT_ALIAS = [
    'base: &base', //           1
    '  kind: ingress', //       2
    '  size: 1', //             3
    'name: &n web', //          4
    'copy: *base', //           5
    'nameAgain: *n', //         6
    'merged:', //               7
    '  <<: *base', //           8
    '  size: 2', //             9
    'many:', //                 10
    '  <<: [*base, {extra: 1}]', // 11
  ].join('\n');

  it('resolves aliases and merge keys, explicit keys winning over merged ones', () => {
    const doc = parseYamlStream(TEXT_ALIAS, 'f.yaml').documents[0]!;
    expect(doc.diagnostics).toEqual([]);
    expect(doc.data).toEqual({
      base: { kind: 'ingress', size: 1 },
      name: 'web',
      copy: { kind: 'ingress', size: 1 },
      nameAgain: 'web',
      merged: { kind: 'ingress', size: 2 },
      many: { kind: 'ingress', size: 1, extra: 1 },
    });
  });

  it('points an error inside an aliased map at the *alias and names the line of the &anchor', () => {
    const doc = parseYamlStream(TEXT_ALIAS, 'f.yaml').documents[0]!;
    const d = doc.toDiagnostic(error('wrong-type', ['copy', 'size'], 'size must be a string'));
    expect(d).toMatchObject({ line: 5, column: 7, endColumn: 12, path: '/copy/size', message: 'size must be a string (value from the anchor on line 1)' });
  });

  it('points an error at an aliased scalar at the *alias, naming the anchor on the same line', () => {
    const doc = parseYamlStream(TEXT_ALIAS, 'f.yaml').documents[0]!;
    expect(doc.toDiagnostic(error('invalid-value', ['nameAgain'], 'bad'))).toMatchObject({
      line: 6,
      column: 12,
      message: 'bad (value from the anchor on line 4)',
    });
  });

  it('points an error in a key brought in by <<: *x at the *x', () => {
    const doc = parseYamlStream(TEXT_ALIAS, 'f.yaml').documents[0]!;
    expect(doc.toDiagnostic(error('wrong-type', ['merged', 'kind'], 'bad'))).toMatchObject({
      line: 8,
      column: 7,
      endColumn: 12,
      message: 'bad (value from the anchor on line 1)',
    });
    expect(doc.toDiagnostic(error('wrong-type', ['many', 'kind'], 'bad'))).toMatchObject({ line: 11, column: 8 });
  });

  it('points an error in a key written beside a merge at that key, not at the alias', () => {
    const doc = parseYamlStream(TEXT_ALIAS, 'f.yaml').documents[0]!;
    expect(doc.toDiagnostic(error('wrong-type', ['merged', 'size'], 'bad'))).toMatchObject({ line: 9, column: 9, message: 'bad' });
  });

  it('names the line of a redefined anchor that the alias actually refers to', () => {
    const text = 'a: &x 1\nb: *x\nc: &x\n  k: v\nd: *x\n';
    const doc = parseYamlStream(text, 'f.yaml').documents[0]!;
    expect(doc.data).toEqual({ a: 1, b: 1, c: { k: 'v' }, d: { k: 'v' } });
    expect(doc.toDiagnostic(error('wrong-type', ['d', 'k'], 'bad')).message).toBe('bad (value from the anchor on line 3)');
    expect(doc.toDiagnostic(error('wrong-type', ['b'], 'bad')).message).toBe('bad (value from the anchor on line 1)');
  });

  it('reports a merge of something that is not a map as wrong-type', () => {
    const doc = parseYamlStream('s: &s text\nm:\n  <<: *s\n', 'f.yaml').documents[0]!;
    expect(doc.diagnostics).toMatchObject([{ code: 'wrong-type', line: 3, column: 7, path: '/m' }]);
  });

  it('reports an alias bomb as alias-limit at the alias that crosses the limit', () => {
    const text = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ].join('\n');
    const doc = parseYamlStream(text, 'f.yaml').documents[0]!;
    expect(doc.data).toBeUndefined();
    expect(doc.diagnostics).toMatchObject([
      { code: 'alias-limit', line: 4, column: 12, path: '/d/1', message: 'alias *c expands beyond the limit of 100 alias uses (anchor on line 3)' },
    ]);
  });

  it('reports an alias to an undefined anchor', () => {
    const doc = parseYamlStream('a: *nowhere\n', 'f.yaml').documents[0]!;
    expect(doc.diagnostics[0]).toMatchObject({ severity: 'error', line: 1, column: 4 });
  });

  it('hints to quote an unquoted wildcard hostname read as an alias (issue 16, defect 9)', () => {
    const doc = parseYamlStream('allowedHostnameWildcard: *.apps.example.com\n', 'f.yaml').documents[0]!;
    expect(doc.diagnostics).toMatchObject([
      {
        code: 'yaml-syntax',
        line: 1,
        column: 26,
        message: 'alias *.apps.example.com has no anchor before it',
        hint: 'a value starting with * is an alias; if it is text, quote it: "*.apps.example.com"',
      },
    ]);
  });

  it('reports an alias with no anchor in a merge list once (issue 16, defect 9)', () => {
    const doc = parseYamlStream('base: &base {a: 1}\nm:\n  <<: [*base, *nope]\n', 'f.yaml').documents[0]!;
    expect(doc.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['yaml-syntax', 3, 15]]);
  });
});

describe('nesting limits', () => {
  const nested = (depth: number) => `${'a:\n'.split('\n')[0]}${Array.from({ length: depth - 1 }, (_, i) => `\n${'  '.repeat(i + 1)}a:`).join('')} 1\n`;

  it('accepts 128 levels of nesting', () => {
    const doc = parseYamlStream(nested(128), 'f.yaml').documents[0]!;
    expect(doc.diagnostics).toEqual([]);
  });

  it('reports 129 levels as too-deep at the collection that crosses the limit', () => {
    const doc = parseYamlStream(nested(129), 'f.yaml').documents[0]!;
    expect(doc.data).toBeUndefined();
    expect(doc.diagnostics).toMatchObject([{ code: 'too-deep', line: 129, column: 257, message: 'nesting deeper than 128 levels is not accepted' }]);
  });

  it('reports absurd flow nesting as too-deep without crashing', () => {
    const { documents, diagnostics } = parseYamlStream('['.repeat(100_000) + ']'.repeat(100_000), 'f.yaml');
    const all = [...diagnostics, ...documents.flatMap((d) => d.diagnostics)];
    expect(all.map((d) => d.code)).toContain('too-deep');
    expect(documents.every((d) => d.data === undefined)).toBe(true);
  });
});

describe('keys that name prototype members', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('reads %s as an ordinary own key and pollutes no prototype', (key) => {
    const doc = parseYamlStream(`${key}:\n  polluted: true\nother: 1\n`, 'f.yaml').documents[0]!;
    const data = doc.data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual([key, 'other']);
    expect(Object.getOwnPropertyDescriptor(data, key)?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('does not let <<: merge a __proto__ key into a prototype', () => {
    const doc = parseYamlStream('src: &s\n  __proto__: {polluted: true}\ndst:\n  <<: *s\n', 'f.yaml').documents[0]!;
    const dst = (doc.data as Record<string, Record<string, unknown>>)['dst']!;
    expect(Object.getPrototypeOf(dst)).toBe(Object.prototype);
    expect(Object.keys(dst)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
