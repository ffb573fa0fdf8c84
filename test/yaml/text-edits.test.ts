import { describe, expect, it } from 'vitest';
import { editYamlText, type TextEdit } from '../../src/yaml/text-edits.js';

const lines = (...text: string[]) => `${text.join('\n')}\n`;
const edit = (text: string, ...edits: TextEdit[]) => {
  const result = editYamlText(text, edits);
  expect(result.refusals).toEqual([]);
  return result.text;
};
const rename = (path: (string | number)[], to: string): TextEdit => ({ kind: 'rename-key', path, to });
const drop = (...path: (string | number)[]): TextEdit => ({ kind: 'drop-key', path });
const replace = (path: (string | number)[], value: string): TextEdit => ({ kind: 'replace-value', path, value });
const insertVersion = (path: (string | number)[], value: string): TextEdit => ({ kind: 'insert-first', path, key: 'version', value });

describe('renaming a key', () => {
  it('changes only the key, keeping the comments on, above and after it', () => {
    const text = lines('rendering:', '  image: redis:7', '  # how much memory', '  maxMemory: 1Gi   # on the key', '  # after the key', '  port: 6379');
    expect(edit(text, rename(['rendering', 'maxMemory'], 'memoryLimit'))).toBe(
      lines('rendering:', '  image: redis:7', '  # how much memory', '  memoryLimit: 1Gi   # on the key', '  # after the key', '  port: 6379'),
    );
  });

  it('keeps a renamed key of a flow map in the flow map, and its value as written', () => {
    expect(edit(lines('rendering: {image: "redis:7", maxMemory: \'1Gi\', port: 0x1F}'), rename(['rendering', 'maxMemory'], 'memoryLimit'))).toBe(
      lines('rendering: {image: "redis:7", memoryLimit: \'1Gi\', port: 0x1F}'),
    );
  });

  it('keeps the quoting style of a quoted key', () => {
    expect(edit(lines('r:', '  "maxMemory": 1', "  'port': 2"), rename(['r', 'maxMemory'], 'memoryLimit'), rename(['r', 'port'], "it's"))).toBe(
      lines('r:', '  "memoryLimit": 1', "  'it''s': 2"),
    );
  });

  it('quotes a new name that cannot be written plain', () => {
    expect(edit(lines('r: {a: 1, b: 2, c: 3}'), rename(['r', 'a'], 'x: y'), rename(['r', 'b'], 'true'), rename(['r', 'c'], 'a,b'))).toBe(
      lines('r: {"x: y": 1, "true": 2, "a,b": 3}'),
    );
  });

  it('renames a key nested in a renamed key, each where it is written', () => {
    expect(edit(lines('r:', '  tls:', '    enable: true'), rename(['r', 'tls'], 'security'), rename(['r', 'tls', 'enable'], 'enabled'))).toBe(
      lines('r:', '  security:', '    enabled: true'),
    );
  });

  it('restores the exact text when renamed back', () => {
    const text = lines('r:   # c', '  "a": {b: 1}  # d', '  c: x');
    const there = edit(text, rename(['r', 'a'], 'z'), rename(['r', 'a', 'b'], 'y'));
    expect(there).toBe(lines('r:   # c', '  "z": {y: 1}  # d', '  c: x'));
    expect(edit(there, rename(['r', 'z'], 'a'), rename(['r', 'z', 'y'], 'b'))).toBe(text);
  });
});

describe('dropping a block key', () => {
  it('takes its trailing comment and the comment lines directly above it, up to a blank line', () => {
    const text = lines(
      'rendering:',
      '  image: redis:7',
      '  # not directly above',
      '',
      '  # above, first line',
      '  # above, second line',
      '  maxMemory: 1Gi  # on the key',
      '  # after the key',
      '  port: 6379',
    );
    expect(edit(text, drop('rendering', 'maxMemory'))).toBe(
      lines('rendering:', '  image: redis:7', '  # not directly above', '', '  # after the key', '  port: 6379'),
    );
  });

  it('takes a value written over several lines', () => {
    const text = lines('r:', '  tls:', '    enabled: true # on', '    port: 443', '  script: |', '    # text, not a comment', '    echo', '  last: 1');
    expect(edit(text, drop('r', 'tls'))).toBe(lines('r:', '  script: |', '    # text, not a comment', '    echo', '  last: 1'));
  });

  it('leaves lines of a block scalar above it, even when they look like comments', () => {
    const text = lines('r:', '  script: |', '    echo', '    # text, not a comment', '  gone: 1', '  last: 1');
    expect(edit(text, drop('r', 'gone'))).toBe(lines('r:', '  script: |', '    echo', '    # text, not a comment', '  last: 1'));
  });

  it('drops the first and the last keys of a map', () => {
    const text = lines('r:', '  # first', '  a: 1', '  b: 2', '  c: 3 # last', 'next: 1');
    expect(edit(text, drop('r', 'a'), drop('r', 'c'))).toBe(lines('r:', '  b: 2', 'next: 1'));
  });

  it('writes {} for a map that loses every key, before the comment on its key', () => {
    const text = lines('r:', '  tls:   # transport', '    # enable it', '    enabled: true', '    port: 443', '  other: 1');
    expect(edit(text, drop('r', 'tls', 'enabled'), drop('r', 'tls', 'port'))).toBe(lines('r:', '  tls: {}   # transport', '  other: 1'));
  });

  it('keeps the dash of a list item whose first key is dropped', () => {
    const text = lines('l:', '- a: 1 # c', '  b: 2', '- a: 3');
    expect(edit(text, drop('l', 0, 'a'), drop('l', 1, 'a'))).toBe(lines('l:', '-', '  b: 2', '- {}'));
  });

  it('stops at a blank first line of the file', () => {
    expect(edit(lines('', '# about a', 'a: 1', 'b: 2'), drop('a'))).toBe(lines('', 'b: 2'));
    expect(edit(lines('# about a', 'a: 1', 'b: 2'), drop('a'))).toBe(lines('b: 2'));
  });

  it('drops the last key of a file without a final line break', () => {
    expect(edit('a: 1\nb: 2', drop('b'))).toBe('a: 1\n');
  });
});

describe('dropping a flow pair', () => {
  const flow = lines('r: {a: 1, b: 2, c: 3}');
  it.each([
    [['a'], 'r: {b: 2, c: 3}'],
    [['b'], 'r: {a: 1, c: 3}'],
    [['c'], 'r: {a: 1, b: 2}'],
    [['a', 'b'], 'r: {c: 3}'],
    [['b', 'c'], 'r: {a: 1}'],
    [['a', 'c'], 'r: {b: 2}'],
    [['a', 'b', 'c'], 'r: {}'],
  ])('without %j', (keys, expected) => {
    expect(edit(flow, ...keys.map((k) => drop('r', k)))).toBe(lines(expected));
  });

  it('keeps the spaces inside the braces', () => {
    expect(edit(lines('r: { a: 1, b: 2 }'), drop('r', 'b'))).toBe(lines('r: { a: 1 }'));
    expect(edit(lines('r: { a: 1 }'), drop('r', 'a'))).toBe(lines('r: {  }'));
  });

  it('takes the comma after the last pair when there is one', () => {
    expect(edit(lines('r: {a: 1, b: 2,}'), drop('r', 'b'))).toBe(lines('r: {a: 1, }'));
  });

  it('takes the line of a pair in a flow map written over several lines', () => {
    const text = lines('r: {', '  a: 1,', '  b: 2,', '  c: 3', '}');
    expect(edit(text, drop('r', 'a'))).toBe(lines('r: {', '  b: 2,', '  c: 3', '}'));
    expect(edit(text, drop('r', 'b'))).toBe(lines('r: {', '  a: 1,', '  c: 3', '}'));
    expect(edit(text, drop('r', 'c'))).toBe(lines('r: {', '  a: 1,', '  b: 2', '}'));
  });

  it('keeps a trailing comment and the spaces before it', () => {
    expect(edit(lines('r: {', '  a: 1,  # about a', '  b: 2', '}'), drop('r', 'a'))).toBe(lines('r: {', '    # about a', '  b: 2', '}'));
    expect(edit(lines('r: {', '  a: 1, # about a', '  b: 2', '}'), drop('r', 'b'))).toBe(lines('r: {', '  a: 1 # about a', '}'));
    expect(edit(lines('r: {', '  a: 1', '}'), drop('r', 'a'))).toBe(lines('r: {', '}'));
  });
});

describe('inserting a version', () => {
  it('goes first in a block binding, above the comments of the first key', () => {
    const text = lines('redis-sidecar:   # the cache', '  # sized for prod', '  rendering:', '    image: redis:7');
    expect(edit(text, insertVersion(['redis-sidecar'], '2.0.0'))).toBe(
      lines('redis-sidecar:   # the cache', '  version: "2.0.0"', '  # sized for prod', '  rendering:', '    image: redis:7'),
    );
  });

  it('goes first in a flow binding', () => {
    expect(edit(lines('redis-sidecar: {rendering: {image: redis}}'), insertVersion(['redis-sidecar'], '2.0.0'))).toBe(
      lines('redis-sidecar: {version: "2.0.0", rendering: {image: redis}}'),
    );
    expect(edit(lines('redis-sidecar: {}'), insertVersion(['redis-sidecar'], '2.0.0'))).toBe(lines('redis-sidecar: {version: "2.0.0"}'));
  });

  it('turns a null binding into a flow map', () => {
    const text = lines('a:', 'b:   # empty', 'c: ~', 'd: null');
    expect(edit(text, ...['a', 'b', 'c', 'd'].map((k) => insertVersion([k], '2.0.0')))).toBe(
      lines('a: {version: "2.0.0"}', 'b: {version: "2.0.0"}   # empty', 'c: {version: "2.0.0"}', 'd: {version: "2.0.0"}'),
    );
  });
});

describe('replacing a value', () => {
  it('keeps its quoting style', () => {
    const text = lines("a: {version: '2.1', x: 1}", 'b:', '  version: "2"  # pinned', 'c:', '  version: ^2.1.0');
    expect(edit(text, replace(['a', 'version'], '3.0.0'), replace(['b', 'version'], '3.0.0'), replace(['c', 'version'], '3.0.0'))).toBe(
      lines("a: {version: '3.0.0', x: 1}", 'b:', '  version: "3.0.0"  # pinned', 'c:', '  version: 3.0.0'),
    );
  });

  it('quotes a plain value YAML would read as a number', () => {
    expect(edit(lines('version: ^2'), replace(['version'], '2.1'))).toBe(lines('version: "2.1"'));
  });
});

describe('line endings and byte order mark', () => {
  it('keeps CRLF line endings and writes inserted lines with them', () => {
    const text = 'caps:\r\n  redis:\r\n    # memory\r\n    maxMemory: 1Gi # on\r\n    image: redis\r\n';
    expect(edit(text, insertVersion(['caps', 'redis'], '2.0.0'), drop('caps', 'redis', 'maxMemory'), rename(['caps', 'redis', 'image'], 'img'))).toBe(
      'caps:\r\n  redis:\r\n    version: "2.0.0"\r\n    img: redis\r\n',
    );
  });

  it('keeps a byte order mark and reports changes at offsets of the text as given', () => {
    const result = editYamlText('\ufeffr:\n  maxMemory: 1\n', [rename(['r', 'maxMemory'], 'memoryLimit')]);
    expect(result.text).toBe('\ufeffr:\n  memoryLimit: 1\n');
    expect(result.changes).toEqual([{ start: 6, end: 15, text: 'memoryLimit' }]);
  });
});

describe('aliases and merge keys', () => {
  const text = lines(
    'base: &base', //          1
    '  maxMemory: 1Gi', //     2
    'a: *base', //             3
    'b:', //                   4
    '  <<: *base', //          5
    '  port: 1', //            6
    'c:', //                   7
    '  <<: {maxMemory: 2}', // 8
    'd: &d {x: 1}', //         9
    'e:', //                   10
    '  keep: *d', //           11
  );

  it('refuses an edit reached through an alias, naming the anchor line, and leaves the text alone', () => {
    const result = editYamlText(text, [rename(['a', 'maxMemory'], 'memoryLimit')]);
    expect(result.text).toBe(text);
    expect(result.refusals).toEqual([
      { edit: rename(['a', 'maxMemory'], 'memoryLimit'), through: '*base', span: { line: 3, column: 4, endLine: 3, endColumn: 9, anchorLine: 1 } },
    ]);
  });

  it('refuses an edit of a key a merge key brings in', () => {
    const result = editYamlText(text, [drop('b', 'maxMemory'), drop('c', 'maxMemory')]);
    expect(result.refusals.map((r) => [r.through, r.span.line, r.span.column, r.span.anchorLine])).toEqual([
      ['*base', 5, 7, 1],
      ['<<', 8, 3, undefined],
    ]);
  });

  it('refuses to change an anchored node an alias uses, at the alias', () => {
    const result = editYamlText(text, [rename(['base', 'maxMemory'], 'memoryLimit'), insertVersion(['d'], '1.0.0')]);
    expect(result.refusals.map((r) => [r.edit.kind, r.through, r.span.line])).toEqual([
      ['rename-key', '*base', 3],
      ['insert-first', '*d', 11],
    ]);
  });

  it('refuses to drop an anchor an alias after it still needs', () => {
    const result = editYamlText(lines('r:', '  a: &m 1Gi', '  b: *m'), [drop('r', 'a')]);
    expect(result.refusals.map((r) => [r.through, r.span.line, r.span.anchorLine])).toEqual([['*m', 3, 2]]);
  });

  it('applies edits that only pass by an anchor no alias uses, or whose value is an alias', () => {
    expect(edit(lines('x: &x 2', 'r: &r', '  a: 1', '  b: *x'), rename(['r', 'a'], 'z'), rename(['r', 'b'], 'y'))).toBe(
      lines('x: &x 2', 'r: &r', '  z: 1', '  y: *x'),
    );
  });
});

describe('misuse', () => {
  it('throws on a text that does not parse and on a path that leads nowhere', () => {
    expect(() => editYamlText('a: [', [drop('a')])).toThrow('parses');
    expect(() => editYamlText('a: 1\n', [drop('b')])).toThrow('no key at /b');
  });

  it('throws on edits that overlap', () => {
    expect(() => editYamlText('a:\n  b: 1\nc: 1\n', [drop('a'), rename(['a', 'b'], 'z')])).toThrow('overlap');
  });
});
