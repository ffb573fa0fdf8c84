import fc from 'fast-check';

// Generated YAML texts for differential tests of readers: every scalar style, block and flow
// collections, comments, and the constructs of docs/profiles.md (anchors, aliases, merge keys, tags,
// directives, several documents, duplicate and non-string keys, deep nesting, big integers,
// `__proto__`, CRLF, a byte order mark, unicode). Most texts are valid YAML, so a reader that
// accepts them is really compared; a share is broken on purpose.

/** Plain scalars worth resolving: every core-schema form, YAML 1.1 look-alikes, near misses. */
export const PLAIN_SCALARS = [
  // null, bool
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'False',
  'FALSE',
  // YAML 1.1 forms that stay strings in 1.2
  'yes',
  'no',
  'on',
  'off',
  'Yes',
  'y',
  'n',
  '0777',
  '1:20',
  '1:20:30',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '1_000',
  '0b1010',
  '+0x1F',
  '-0o17',
  '.Inf.',
  '=',
  // integers
  '0',
  '-0',
  '+0',
  '12',
  '+12',
  '-12',
  '007',
  '-007',
  '0o17',
  '0o0',
  '0O17',
  '0o18',
  '0x1F',
  '0x1f',
  '0X1F',
  '0x',
  '0xG',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '123456789012345678901234567890',
  '0x20000000000001',
  '0o400000000000000001',
  '000000000000000000001',
  '-000000000000000000000',
  // floats
  '1.5',
  '-1.5',
  '+1.5',
  '1.',
  '-1.',
  '.5',
  '-.5',
  '+.5',
  '1.0',
  '-0.0',
  '0.0',
  '1e3',
  '1E3',
  '1e+3',
  '1e-3',
  '-1.5e-3',
  '.5e3',
  '1.e3',
  'e3',
  '1e',
  '1.5.1',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '-.inf',
  '-.Inf',
  '.iNF',
  '.nan',
  '.NaN',
  '.NAN',
  '-.nan',
  'nan',
  'inf',
  '1e400',
  '-1e400',
  '4.9e-324',
  '1e-400',
  // strings
  'nginx',
  'hello world',
  'a-b',
  'a_b',
  'a.b',
  'v1.2.3',
  '1.2.3',
  '1h30m',
  '.example.com',
  'http://example.com/a?b=c',
  'a:b',
  'a#b',
  'a,b',
  'x]',
  'x}',
  'é',
  'naïve',
  '日本語',
  '\u{1F600}',
  'a\u00a0b',
  '-a',
  '?a',
  ':a',
  'a:',
  '<<',
  '__proto__',
  'constructor',
  // indicators inside text: a word, a quoted scalar, the middle of a plain scalar
  'R&D',
  'hi!',
  'a *b',
  'x @y',
  'use `kurel`',
  '50%',
  '"30 2 * * *"',
  "'*.example.com'",
  '"&a"',
  "'!x'",
  '"#fff"',
  "'@x'",
  '"`x`"',
  '*',
  '@x',
  '`x',
  '%x',
  '&',
  '!',
];

/** Map keys: names, prototype names, look-alikes of other types, strings needing quotes. */
const KEY_NAMES = [
  'a',
  'b',
  'name',
  'kind',
  'spec',
  'value',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'x y',
  'é',
  '日本',
  '1a',
  'a1',
  '-k',
  'k-',
];
const NON_STRING_KEYS = ['1', '-1', '0x1F', '1.5', '.inf', 'true', 'False', 'null', '~', 'Null', ''];

const ESCAPES = [
  '\\n',
  '\\t',
  '\\\\',
  '\\"',
  '\\/',
  '\\ ',
  '\\0',
  '\\a',
  '\\b',
  '\\e',
  '\\f',
  '\\r',
  '\\v',
  '\\N',
  '\\_',
  '\\L',
  '\\P',
  '\\x41',
  '\\xe9',
  '\\u00e9',
  '\\u263A',
  '\\U0001F600',
  '\\\t',
];
const BAD_ESCAPES = ['\\q', '\\x4', '\\u12', '\\U0001', '\\x', '\\ud800', '\\uDC00', '\\U0000D800', '\\U00110000', '\\UFFFFFFFF', '\\U0010FFFF'];

const text = fc.string({ unit: 'grapheme', maxLength: 8 });
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);

/** A YAML node as the generator builds it, before layout. */
type Node =
  | { t: 'inline'; text: string }
  | { t: 'block-scalar'; header: string; lines: string[] }
  | { t: 'multiline'; first: string; rest: string[] }
  | { t: 'map'; flow: boolean; entries: Entry[]; props: string }
  | { t: 'seq'; flow: boolean; items: Node[]; props: string };

interface Entry {
  key: string;
  value: Node;
}

const doubleQuoted = fc
  .array(
    fc.oneof({ weight: 6, arbitrary: text }, { weight: 3, arbitrary: fc.constantFrom(...ESCAPES) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_ESCAPES) }),
    {
      maxLength: 5,
    },
  )
  .map((parts) => `"${parts.map((p) => (p.startsWith('\\') ? p : p.replace(/[\\"]/g, (c) => `\\${c}`))).join('')}"`);

const singleQuoted = text.map((s) => `'${s.replace(/'/g, "''")}'`);

// Arbitrary unicode strings written plain: often valid, sometimes not (a reader must agree on both).
const rawPlain = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 });

const bareScalar: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PLAIN_SCALARS) },
  { weight: 3, arbitrary: word },
  { weight: 3, arbitrary: doubleQuoted },
  { weight: 2, arbitrary: singleQuoted },
  { weight: 1, arbitrary: rawPlain },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '""',
      "''",
      '[]',
      '{}',
      '[a]',
      '{a: 1}',
      '!!str 1',
      '!!int "3"',
      '!custom x',
      '! 12',
      '!!binary aGk=',
      '!!timestamp 2001-12-14',
      '&a 1',
      '*a',
    ),
  },
);

// A comment after a scalar, with or without the white space YAML requires before it.
const inlineScalar: fc.Arbitrary<string> = fc.tuple(bareScalar, fc.constantFrom('', '', '', '', '', '', ' # c', '#c', '  #')).map(([s, c]) => s + c);

const blockScalar: fc.Arbitrary<Node> = fc
  .record({
    style: fc.constantFrom('|', '>'),
    chomp: fc.constantFrom('', '-', '+'),
    indicator: fc.constantFrom('', '', '', '1', '2', '4'),
    lines: fc.array(
      fc.oneof(
        word,
        fc.constant(''),
        word.map((w) => `  ${w}`),
        word.map((w) => `${w}  `),
        rawPlain,
        fc.constantFrom('\u0000 ', '\u0000   ', '\u0000'),
        fc.constantFrom('# not a comment', 'a: b', '- x', '---', '...'),
      ),
      { minLength: 0, maxLength: 5 },
    ),
    trailing: fc.constantFrom('', '\n', '\n\n'),
    comment: fc.constantFrom('', ' # c'),
  })
  .map(({ style, chomp, indicator, lines, trailing, comment }) => ({
    t: 'block-scalar' as const,
    header: `${style}${indicator}${chomp}${comment}`,
    lines: trailing === '' ? lines : [...lines, ...trailing.slice(1).split('\n'), ''],
  }));

const multiline: fc.Arbitrary<Node> = fc
  .record({
    quote: fc.constantFrom('', '"', "'"),
    // An escaped line break (`x \`) is often followed by an empty line, where readers differ.
    parts: fc
      .array(
        fc.oneof(
          word.map((w) => [w]),
          fc.constantFrom([''], ['x \\'], ['x \\', ''], ['1'], ['@x'], ['*y'], ['`z'], ['&w'], ['!v'], ['%u'], ['# c'], ['- d'], ['e: f']),
        ),
        { minLength: 2, maxLength: 4 },
      )
      .map((lines) => lines.flat()),
  })
  .map(({ quote, parts }) => ({
    t: 'multiline' as const,
    first: quote + parts[0]!,
    rest: parts.slice(1).map((p, i, all) => (i === all.length - 1 ? p + quote : p)),
  }));

const props = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('&a ', '&b ', '!!map ', '!!seq ', '!tag ', '&a !!map ') },
);

const keyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...KEY_NAMES) },
  { weight: 3, arbitrary: word },
  { weight: 2, arbitrary: doubleQuoted },
  { weight: 1, arbitrary: singleQuoted },
  { weight: 1, arbitrary: fc.constantFrom(...NON_STRING_KEYS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('<<', '? a', '? [a, b]', '[a, b]', '{a: 1}', '&k a', '*a', '!!str 1', '"a\n  b"', 'x'.repeat(1030), '"1"', "'null'"),
  },
);

const { node } = fc.letrec<{ node: Node; map: Node; seq: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: inlineScalar.map((s) => ({ t: 'inline' as const, text: s })) },
    { weight: 1, arbitrary: blockScalar },
    { weight: 1, arbitrary: multiline },
    { weight: 3, arbitrary: tie('map') },
    { weight: 2, arbitrary: tie('seq') },
  ),
  map: fc
    .record({
      flow: fc.boolean(),
      entries: fc.array(fc.record({ key: keyText, value: tie('node') }), { maxLength: 4 }),
      props,
      merge: fc.constantFrom('', '', '', '', '<<: *a', '<<: [*a, *b]', '<<: {m: 1}'),
    })
    .map(({ flow, entries, props, merge }) => ({
      t: 'map' as const,
      flow,
      props,
      entries: merge ? [...entries, { key: '<<', value: { t: 'inline' as const, text: merge.slice(4) } }] : entries,
    })),
  seq: fc.record({ flow: fc.boolean(), items: fc.array(tie('node'), { maxLength: 4 }), props }).map((s) => ({ t: 'seq' as const, ...s })),
}));

/** Lays a node out as YAML text at an indentation; `flow` when inside a flow collection. */
function layout(n: Node, indent: number, step: number, flow: boolean): { inline: string } | { block: string[] } {
  const pad = ' '.repeat(indent);
  switch (n.t) {
    case 'inline':
      return { inline: n.text };
    case 'block-scalar':
      if (flow) return { inline: '"in flow"' };
      // `\0` marks a line of white space only, laid out shorter or longer than the indentation.
      return { block: [n.header, ...n.lines.map((l) => blockLine(l, pad))] };
    case 'multiline':
      return { inline: [n.first, ...n.rest.map((r) => (r === '' ? '' : pad + r))].join('\n') };
    case 'map': {
      if (n.flow || flow || n.entries.length === 0) {
        // An entry with no value may be written as its key alone (`{a, b: 1}`).
        const parts = n.entries.map((e) => (e.value.t === 'inline' && e.value.text === '' ? e.key : `${e.key}: ${flowText(e.value, indent, step)}`));
        return { inline: `${n.props}{${parts.join(', ')}}` };
      }
      const lines: string[] = [];
      for (const e of n.entries) {
        const v = layout(e.value, indent + step, step, false);
        if ('inline' in v) {
          lines.push(`${pad}${e.key}: ${v.inline}`);
        } else if (e.value.t === 'block-scalar') {
          lines.push(`${pad}${e.key}: ${v.block[0]}`, ...v.block.slice(1));
        } else if (e.value.t === 'seq' && step === 2) {
          // A block sequence may sit at its key's indentation.
          const same = layout(e.value, indent, step, false) as { block: string[] };
          lines.push(`${pad}${e.key}:`, ...same.block);
        } else {
          lines.push(`${pad}${e.key}:`, ...v.block);
        }
      }
      return { block: n.props ? [`${pad}${n.props.trim()}`, ...lines] : lines };
    }
    case 'seq': {
      if (n.flow || flow || n.items.length === 0) return { inline: `${n.props}[${n.items.map((i) => flowText(i, indent, step)).join(', ')}]` };
      const lines: string[] = [];
      for (const item of n.items) {
        const v = layout(item, indent + 2, step, false);
        if ('inline' in v) lines.push(`${pad}- ${v.inline}`);
        else if (item.t === 'block-scalar') lines.push(`${pad}- ${v.block[0]}`, ...v.block.slice(1));
        else lines.push(`${pad}- ${v.block[0]!.trimStart()}`, ...v.block.slice(1));
      }
      return { block: n.props ? [`${pad}${n.props.trim()}`, ...lines] : lines };
    }
  }
}

function blockLine(line: string, pad: string): string {
  if (line === '') return '';
  return line.startsWith('\u0000') ? pad.slice(1) + line.slice(1) : pad + line;
}

function flowText(n: Node, indent: number, step: number): string {
  const v = layout(n, indent + step, step, true);
  return 'inline' in v ? v.inline : '"?"';
}

/** A whole document body (block or flow at the root). */
const body: fc.Arbitrary<string> = fc.tuple(node, fc.constantFrom(2, 2, 4, 1, 3)).map(([n, step]) => {
  const v = layout(n, 0, step, false);
  return 'inline' in v ? v.inline : v.block.join('\n');
});

/** A root map of ordinary entries, so most documents are maps as profiles are. */
const mapBody: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.record({ key: keyText, value: node }), { minLength: 1, maxLength: 5 }), fc.constantFrom(2, 2, 4), fc.boolean())
  .map(([entries, step, flow]) => {
    const v = layout({ t: 'map', flow, entries, props: '' }, 0, step, false);
    return 'inline' in v ? v.inline : v.block.join('\n');
  });

/** Nesting around the depth limits: js-yaml's 100 and kurel's 128, in flow or block style. */
const deep: fc.Arbitrary<string> = fc
  .record({ depth: fc.integer({ min: 90, max: 140 }), style: fc.constantFrom('flow-seq', 'flow-map', 'block-map', 'block-seq', 'mixed') })
  .map(({ depth, style }) => {
    if (style === 'flow-seq') return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    if (style === 'flow-map') return `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`;
    if (style === 'block-seq') return `${'- '.repeat(depth)}1`;
    const lines: string[] = [];
    for (let i = 0; i < depth; i++) lines.push(`${' '.repeat(i)}${style === 'mixed' && i % 2 ? '- ' : ''}k${i}:`);
    return `${lines.join('\n')} 1`;
  });

const comment = fc.constantFrom(
  '# a comment',
  '#',
  '# --- not a marker',
  '  # indented',
  '# é \u{1F600}',
  '# * a `b` & c! *d &e !f @g %h',
  '#!x',
  '  #   "q" [',
);

/** Spreads comment lines and end-of-line comments into a text. */
function withComments(textIn: string, at: number[], comments: string[]): string {
  const lines = textIn.split('\n');
  at.forEach((p, i) => {
    const where = p % (lines.length + 1);
    lines.splice(where, 0, comments[i % comments.length]!);
  });
  return lines.join('\n');
}

/** Document framing: directives, markers, several documents, byte order mark, line ends. */
const framing = fc.record({
  bom: fc.constantFrom(false, false, false, false, true),
  directive: fc.oneof(
    { weight: 20, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('%YAML 1.2\n', '%YAML 1.1\n', '%TAG !e! tag:example.com,2000:\n') },
  ),
  start: fc.constantFrom('', '', '---\n', '--- # start\n', '---\n\n'),
  end: fc.constantFrom('', '', '', '', '\n...', '\n---', '\n---\nb: 2', '\n...\n---\nc: 3', '\n--- x'),
  crlf: fc.constantFrom(false, false, false, true),
  trailing: fc.constantFrom('', '\n', '\n', '\n\n', '  ', '\n# tail'),
  comments: fc.array(fc.nat(), { maxLength: 3 }),
  commentTexts: fc.array(comment, { minLength: 1, maxLength: 3 }),
});

/** A generated YAML text: mostly valid, every construct of docs/profiles.md reachable. */
export const yamlText: fc.Arbitrary<string> = fc
  .tuple(fc.oneof({ weight: 5, arbitrary: mapBody }, { weight: 2, arbitrary: body }, { weight: 1, arbitrary: deep }), framing)
  .map(([content, f]) => {
    let out = withComments(content, f.comments, f.commentTexts);
    out = `${f.directive}${f.directive && !f.start ? '---\n' : ''}${f.start}${out}${f.end}${f.trailing}`;
    if (f.crlf) out = out.replace(/\n/g, '\r\n');
    return (f.bom ? '\ufeff' : '') + out;
  });

/** Small edits of a generated text, to reach the texts just beside valid ones. */
const TOKENS = [
  ':',
  ': ',
  '- ',
  '\n',
  '\n  ',
  ' ',
  '\t',
  '[',
  ']',
  '{',
  '}',
  ',',
  '"',
  "'",
  '#',
  '&a ',
  '*a',
  '!',
  '? ',
  '|',
  '>',
  '---\n',
  '...\n',
  '%',
  '@',
  '`',
  '\r',
  '\u0085',
  '\u2028',
  '\ufeff',
  '\u0007',
  '\ud800',
  'é',
];

export const editedYamlText: fc.Arbitrary<string> = fc
  .tuple(yamlText, fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...TOKENS), fc.integer({ min: 1, max: 4 }))), { minLength: 1, maxLength: 3 }))
  .map(([t, edits]) =>
    edits.reduce((acc, [at, e]) => {
      const p = acc.length === 0 ? 0 : at % (acc.length + 1);
      return typeof e === 'string' ? acc.slice(0, p) + e + acc.slice(p) : acc.slice(0, p) + acc.slice(p + e);
    }, t),
  );

/**
 * Pieces of YAML the fast path's scan mostly lets through: indentation, comments, block
 * scalar headers, flow brackets, quotes, scalars of every type, line ends. Texts made of them
 * reach the corners where the two readers could still part (indentation after comments or
 * empty entries, block scalars with odd contents), and many of them are read fast.
 */
const SUBSET_PIECES = [
  'a',
  'b',
  'k',
  'x y',
  '1',
  '-1',
  '-0',
  '0x1F',
  '0o17',
  '1.5',
  '.inf',
  '9007199254740993',
  'true',
  'True',
  '~',
  'null',
  'Null',
  '__proto__',
  ': ',
  ':',
  'x: ',
  'k2: ',
  '- ',
  '-',
  '- - ',
  '\n',
  '\n',
  '\n',
  '\n ',
  '\n  ',
  '\n  ',
  '\n   ',
  '\n    ',
  '\n     ',
  '\n      ',
  '\n\n',
  '\n- ',
  '\n  - ',
  '\n  -',
  'x\n',
  ': |\n',
  ': >\n',
  ' ',
  '  ',
  '[',
  ']',
  '{',
  '}',
  ' [',
  ' {',
  ', ',
  ',',
  '[a, b]',
  '{a: 1}',
  '{"a":1}',
  '["x", y]',
  '"',
  "'",
  '"x"',
  "'y'",
  '"a b"',
  '"a\\"b"',
  '"\\"',
  "''",
  '"\n  ',
  "'\n  ",
  '#',
  ' #',
  ' # c',
  '\n#c',
  '\n #c',
  '\n  #c',
  '|',
  '>',
  '|-',
  '>-',
  '\r\n',
  '*',
  '@',
  '`',
  'é',
  '\\',
  '\\n',
  '?',
  '.',
  'e',
  '+',
  '0',
  '---',
  '--- ',
  '\n---\n',
  '%',
  '&',
  '!',
  '<',
  ' :',
];
const ROOTS = ['a: ', 'a:\n  ', 'k: v\na:\n- ', 'a:\n  b: ', 'x:\n  y: |\n', '{a: '];

/** Texts made of pieces the scan mostly lets through, under a map root. */
export const subsetText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...ROOTS), fc.array(fc.constantFrom(...SUBSET_PIECES), { minLength: 3, maxLength: 30 }))
  .map(([root, pieces]) => root + pieces.join(''));

// Single characters for edits: every ASCII punctuation, digits and letters of escapes, line
// ends, and characters other readers take for white space.
const EDIT_CHARS = [...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCUZ[\\]^_`abcuxz{|}~\n\r\u00a0é\u2000\u3000\u{1F600}'];

/** A generated text with one to three characters inserted, deleted or replaced. */
export const mutatedYamlText: fc.Arbitrary<string> = fc
  .tuple(yamlText, fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.constantFrom(...EDIT_CHARS)), { minLength: 1, maxLength: 3 }))
  .map(([t, edits]) =>
    edits.reduce((acc, [at, kind, ch]) => {
      const p = at % (acc.length + 1);
      if (kind === 'insert') return acc.slice(0, p) + ch + acc.slice(p);
      return acc.slice(0, p) + (kind === 'replace' ? ch : '') + acc.slice(p + 1);
    }, t),
  );
