import { describe, expect, it } from 'vitest';
import { runKurelJson } from '../helpers/cli.js';
import { lintText, withBindings } from '../helpers/profile.js';

// Issue #10, item 14 (docs/profiles.md): YAML features kurel does not read are yaml-syntax
// errors, never read silently. The core tags and the non-specific `!` stay allowed.
const CORE = '(!!str, !!int, !!float, !!bool, !!null, !!map, !!seq)';
const report = (text: string | Uint8Array) =>
  lintText(text).diagnostics.map((d) => ({ code: d.code, severity: d.severity, line: d.line, column: d.column, endColumn: d.endColumn, message: d.message }));
// `ingress` renderings pass through unvalidated, so only the reader judges them; values start at column 15.
const rendering = (value: string) => withBindings(`ingress:\n  rendering:\n    data: ${value}`);

describe('tags', () => {
  it.each([
    ['!Ref', '!Ref bucket', 'unknown tag !Ref'],
    ['!!js/function', '!!js/function "function () {}"', 'unknown tag !!js/function'],
    ['a verbatim tag', '!<tag:example.com,2000:app> x', 'unknown tag tag:example.com,2000:app'],
  ])('reports %s as an unknown tag, an error at the tag', (_name, value, message) => {
    const tag = value.split(' ')[0]!;
    expect(report(rendering(value))).toEqual([
      {
        code: 'yaml-syntax',
        severity: 'error',
        line: 9,
        column: 15,
        endColumn: 15 + tag.length,
        message: `${message}: kurel reads YAML 1.2 data, with no tag or a core one ${CORE}`,
      },
    ]);
  });

  it.each([
    ['!!binary', 'aGVsbG8='],
    ['!!timestamp', '2001-12-14'],
    ['!!set', '{a, b}'],
    ['!!omap', '[a: 1, b: 2]'],
    ['!!pairs', '[a: 1, a: 2]'],
  ])('reports %s as a YAML 1.1 type kurel does not read, naming the tag', (tag, value) => {
    expect(report(rendering(`${tag} ${value}`))).toEqual([
      {
        code: 'yaml-syntax',
        severity: 'error',
        line: 9,
        column: 15,
        endColumn: 15 + tag.length,
        message: `the tag ${tag} is a YAML 1.1 type kurel does not read: kurel reads YAML 1.2 data, with no tag or a core one ${CORE}`,
      },
    ]);
  });

  it('reads the core tags and the non-specific tag', () => {
    const text = withBindings(
      [
        'ingress:',
        '  rendering:',
        '    a: !!str 1',
        '    b: !!int "2"',
        '    c: !!float 3',
        '    d: !!bool true',
        '    e: !!null ""',
        '    f: !!map {x: 1}',
        '    g: !!seq [1]',
        '    h: ! 4',
      ].join('\n'),
    );
    const linted = lintText(text);
    // Only the warning that the ingress rendering is validated by nothing (docs/codes/unvalidated-capability.md).
    expect(linted.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['8:7 unvalidated-capability']);
    expect(linted.files[0]?.resolved?.capabilities['ingress']).toEqual({ a: '1', b: 2, c: 3, d: true, e: null, f: { x: 1 }, g: [1], h: '4' });
  });

  it.each([
    ['!!int', 'abc', 'an integer'],
    ['!!float', 'x', 'a number'],
    ['!!bool', 'yes', 'true or false'],
    ['!!null', 'nothing', 'null (empty, ~ or null)'],
  ])('reports a value %s cannot hold as an error at the tag', (tag, value, expected) => {
    expect(report(rendering(`${tag} ${value}`)).map((d) => [d.code, d.severity, d.line, d.column, d.message])).toEqual([
      ['yaml-syntax', 'error', 9, 15, `the value tagged ${tag} is not ${expected}`],
    ]);
  });

  it('fails the run with exit 1 (an unknown tag was a warning with exit 0)', async () => {
    const run = await runKurelJson(['lint', '-', '--stdin-filepath', 'cluster.yaml'], { input: rendering('!Ref bucket') });
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.severity, d.line, d.column]) }).toEqual({
      code: 1,
      diagnostics: [['yaml-syntax', 'error', 9, 15]],
    });
  });
});

describe('the %YAML directive', () => {
  const profile = rendering('{enabled: on, mode: 0777, every: 1:20}');

  it('reads YAML 1.2 as written: on and 1:20 stay strings, 0777 is the integer 777', () => {
    expect(lintText(`%YAML 1.2\n---\n${profile}`).files[0]?.resolved?.capabilities['ingress']).toEqual({ data: { enabled: 'on', mode: 777, every: '1:20' } });
  });

  it.each(['1.1', '1.0', '1.3'])('reports a directive for YAML %s as an error at the directive, and reads nothing of the document', (version) => {
    const linted = lintText(`# the platform team's profile\n%YAML ${version}\n---\n${profile}`);
    expect(
      linted.diagnostics.map((d) => ({ code: d.code, severity: d.severity, line: d.line, column: d.column, endColumn: d.endColumn, message: d.message })),
    ).toEqual([
      {
        code: 'yaml-syntax',
        severity: 'error',
        line: 2,
        column: 1,
        endColumn: 10,
        message: `%YAML ${version} is not supported: kurel reads YAML 1.2 only, where on, 0777 and 1:20 are read as written; remove the directive`,
      },
    ]);
    expect(linted.files[0]?.resolved).toBeUndefined();
  });

  it('reports the directive once when the documents after it are read under it too', () => {
    const text = `%YAML 1.1\n---\n${profile}...\n---\n${profile}`;
    expect(lintText(text, { file: 'defs.yaml' }).diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['yaml-syntax', 1, 1]]);
  });
});

describe('text that is not UTF-8', () => {
  it.each([
    ['UTF-16 (little-endian)', [0xff, 0xfe, 0x61, 0x00]],
    ['UTF-16 (big-endian)', [0xfe, 0xff, 0x00, 0x61]],
    ['UTF-32 (little-endian)', [0xff, 0xfe, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00]],
    ['UTF-32 (big-endian)', [0x00, 0x00, 0xfe, 0xff, 0x00, 0x00, 0x00, 0x61]],
  ])('names %s text with a byte order mark, not binary data', (encoding, bytes) => {
    expect(report(new Uint8Array(bytes))).toEqual([
      {
        code: 'yaml-syntax',
        severity: 'error',
        line: 1,
        column: 1,
        endColumn: 2,
        message: `the file is ${encoding} text (it starts with that byte order mark); kurel reads UTF-8 only`,
      },
    ]);
  });

  it('still calls a NUL byte in UTF-8 text binary data', () => {
    expect(report(new Uint8Array([0x61, 0x3a, 0x20, 0x00]))).toEqual([
      { code: 'yaml-syntax', severity: 'error', line: 1, column: 4, endColumn: 5, message: 'the file holds binary data (a NUL byte), not YAML text' },
    ]);
  });
});
