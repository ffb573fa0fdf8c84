import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CST, isMap, isScalar, isSeq, type Node, type Pair, Parser, parseDocument } from 'yaml';
import { editYamlText, type TextChange, type TextEdit } from '../../src/yaml/text-edits.js';
import { propertyRuns } from '../helpers/property.js';

// Generated YAML maps in every style the text edits must keep: block and flow (on one line and
// over several), list items, quoted and plain keys, comments above, on and after keys, blank
// lines, block scalars whose lines look like comments, CRLF line endings, a byte order mark.

type KeyStyle = 'plain' | 'single' | 'double';
type Value =
  | { kind: 'scalar'; text: string }
  | { kind: 'null' }
  | { kind: 'literal'; lines: string[] }
  | { kind: 'block'; entries: Entry[] }
  | { kind: 'flow'; entries: Entry[]; multiline: boolean }
  | { kind: 'list'; items: Entry[][] };
interface Entry {
  key: string;
  style: KeyStyle;
  value: Value;
  above: string[];
  blank: boolean;
  trailing: string | undefined;
}
interface Generated {
  entries: Entry[];
  eol: '\n' | '\r\n';
  bom: boolean;
  header: boolean;
}

const KEYS = ['image', 'port', 'maxMemory', 'tls', 'enabled', 'x-y', 'a_b', 'alpha', 'beta', 'gamma'];
const SCALARS = ['1', '-2', '3.5', 'true', '~', 'word', '"double, quoted"', "'single # quoted'", '"with: colon"', '0x1F', '"redis:7"', "''"];
const COMMENTS = ['note', 'why this value', 'TODO: raise', '#'];

const comment = fc.constantFrom(...COMMENTS);
const entryShell = {
  key: fc.constantFrom(...KEYS),
  style: fc.constantFrom<KeyStyle>('plain', 'plain', 'single', 'double'),
  above: fc.array(comment, { maxLength: 2 }),
  blank: fc.boolean(),
  trailing: fc.option(comment, { nil: undefined }),
};
const uniqueEntries = (entry: fc.Arbitrary<Entry>, minLength: number) => fc.uniqueArray(entry, { minLength, maxLength: 4, selector: (e) => e.key });

const flowScalar = fc.constantFrom(...SCALARS).map((text): Value => ({ kind: 'scalar', text }));
const { blockValue } = fc.letrec<{ blockValue: Value; flowValue: Value; flowEntry: Entry; blockEntry: Entry }>((tie) => ({
  flowValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    flowScalar,
    uniqueEntries(tie('flowEntry'), 0).map((entries): Value => ({ kind: 'flow', entries, multiline: false })),
  ),
  flowEntry: fc.record({ ...entryShell, value: tie('flowValue'), above: fc.constant([]), blank: fc.constant(false), trailing: fc.constant(undefined) }),
  blockEntry: fc.record({ ...entryShell, value: tie('blockValue') }),
  blockValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    flowScalar,
    fc.constant<Value>({ kind: 'null' }),
    fc.constant<Value>({ kind: 'literal', lines: ['echo', '# looks like a comment'] }),
    uniqueEntries(tie('blockEntry'), 1).map((entries): Value => ({ kind: 'block', entries })),
    fc.tuple(uniqueEntries(tie('flowEntry'), 0), fc.boolean()).map(([entries, multiline]): Value => ({ kind: 'flow', entries, multiline })),
    fc.array(uniqueEntries(tie('blockEntry'), 1), { minLength: 1, maxLength: 2 }).map((items): Value => ({ kind: 'list', items })),
  ),
}));
const rootEntry = fc.record({ ...entryShell, value: blockValue });
const generated: fc.Arbitrary<Generated> = fc.record({
  entries: uniqueEntries(rootEntry, 2),
  eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
  bom: fc.boolean(),
  header: fc.boolean(),
});

function writeKey(entry: Entry): string {
  if (entry.style === 'single') return `'${entry.key}'`;
  return entry.style === 'double' ? JSON.stringify(entry.key) : entry.key;
}

function writeFlow(entries: readonly Entry[]): string {
  return `{${entries.map((e) => `${writeKey(e)}: ${writeInline(e.value)}`).join(', ')}}`;
}

function writeInline(value: Value): string {
  if (value.kind === 'scalar') return value.text;
  if (value.kind === 'flow') return writeFlow(value.entries);
  throw new Error(`${value.kind} is not written inline`);
}

function writeBlock(entries: readonly Entry[], indent: number, out: string[], firstPrefix?: string): void {
  const pad = ' '.repeat(indent);
  for (const [index, entry] of entries.entries()) {
    const isItemStart = index === 0 && firstPrefix !== undefined;
    if (!isItemStart) {
      if (entry.blank) out.push('');
      for (const text of entry.above) out.push(`${pad}# ${text}`);
    }
    const head = `${isItemStart ? firstPrefix : pad}${writeKey(entry)}:`;
    const trailing = entry.trailing === undefined ? '' : `  # ${entry.trailing}`;
    const value = entry.value;
    switch (value.kind) {
      case 'scalar':
        out.push(`${head} ${value.text}${trailing}`);
        break;
      case 'null':
        out.push(`${head}${trailing}`);
        break;
      case 'literal':
        out.push(`${head} |${trailing}`, ...value.lines.map((line) => `${pad}  ${line}`));
        break;
      case 'block':
        out.push(`${head}${trailing}`);
        writeBlock(value.entries, indent + 2, out);
        break;
      case 'flow':
        if (!value.multiline || value.entries.length === 0) out.push(`${head} ${writeFlow(value.entries)}${trailing}`);
        else {
          out.push(`${head} {${trailing}`);
          value.entries.forEach((e, i) => {
            out.push(`${pad}  ${writeKey(e)}: ${writeInline(e.value)}${i < value.entries.length - 1 ? ',' : ''}`);
          });
          out.push(`${pad}}`);
        }
        break;
      case 'list':
        out.push(`${head}${trailing}`);
        for (const item of value.items) writeBlock(item, indent + 2, out, `${pad}- `);
        break;
    }
  }
}

function write(doc: Generated): string {
  const out: string[] = doc.header ? ['# a profile', '---'] : [];
  writeBlock(doc.entries, 0, out);
  return `${doc.bom ? '\ufeff' : ''}${out.join(doc.eol)}${doc.eol}`;
}

/** Every key path of the document, parents before children. */
function keyPaths(entries: readonly Entry[], base: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const entry of entries) {
    const path = [...base, entry.key];
    out.push(path);
    const value = entry.value;
    if (value.kind === 'block' || value.kind === 'flow') out.push(...keyPaths(value.entries, path));
    if (value.kind === 'list') for (const [i, item] of value.items.entries()) out.push(...keyPaths(item, [...path, i]));
  }
  return out;
}

function valueAt(entries: readonly Entry[], path: readonly (string | number)[]): Value {
  let value: Value = { kind: 'block', entries: [...entries] };
  for (const segment of path) {
    if (typeof segment === 'number' && value.kind === 'list') value = { kind: 'block', entries: value.items[segment]! };
    else if (value.kind === 'block' || value.kind === 'flow') value = value.entries.find((e) => e.key === segment)!.value;
  }
  return value;
}

function dataOf(text: string): unknown {
  const doc = parseDocument(text.replace(/^\ufeff/, ''), { merge: true, uniqueKeys: false });
  expect(doc.errors).toEqual([]);
  return doc.toJS();
}

/** The data with a function applied to the map holding the key at `path`. */
function atParent(data: unknown, path: readonly (string | number)[], change: (map: Record<string, unknown>, key: string) => Record<string, unknown>): unknown {
  const [head, ...rest] = path;
  if (rest.length === 0) return change(data as Record<string, unknown>, String(head));
  if (Array.isArray(data)) return data.map((item, i) => (i === head ? atParent(item, rest, change) : item));
  const map = data as Record<string, unknown>;
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, k === head ? atParent(v, rest, change) : v]));
}

const renamed = (to: string) => (map: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k === key ? to : k, v]));
const dropped = (map: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(map).filter(([k]) => k !== key));

/** Text rebuilt from the input and the reported changes: proves the changes are all that changed. */
function applyChanges(text: string, changes: readonly TextChange[]): string {
  let out = '';
  let at = 0;
  for (const change of changes) {
    out += text.slice(at, change.start) + change.text;
    at = change.end;
  }
  return out + text.slice(at);
}

/** Offsets of comment characters, read from the yaml package's CST. */
function commentOffsets(text: string): Set<number> {
  const out = new Set<number>();
  const walk = (token: unknown): void => {
    if (typeof token !== 'object' || token === null) return;
    const t = token as CST.SourceToken;
    if (t.type === 'comment') for (let i = 0; i < t.source.length; i++) out.add(t.offset + i);
    else for (const value of Object.values(token)) walk(value);
  };
  for (const token of new Parser().parse(text)) walk(token);
  return out;
}

/** The [start, end) of each pair's own text (key to its value's last character that is no space or comment), by key path. */
function pairSpans(text: string, comments: ReadonlySet<number>): Map<string, readonly [number, number]> {
  const out = new Map<string, readonly [number, number]>();
  const walk = (node: unknown, path: (string | number)[]) => {
    if (isMap(node)) {
      for (const pair of node.items as Pair[]) {
        const key = pair.key as Node;
        const value = pair.value as Node | null;
        const p = [...path, String((key as { value: unknown }).value)];
        let end = key.range![1] + 1;
        if (value && !(isScalar(value) && value.value === null && value.range![0] === value.range![1])) end = value.range![1];
        while (/\s/.test(text.charAt(end - 1)) || comments.has(end - 1)) end -= 1;
        out.set(JSON.stringify(p), [key.range![0], end]);
        walk(value, p);
      }
    } else if (isSeq(node)) for (const [i, item] of node.items.entries()) walk(item, [...path, i]);
  };
  walk(parseDocument(text, { keepSourceTokens: true }).contents, []);
  return out;
}

const PLAIN_NAMES = ['memoryLimit', 'renamed', 'z9', 'new-key'];
const QUOTED_NAMES = ['has: colon', 'true', 'a,b', "it's", '#hash', '2.1'];

describe('text edits, for every generated document', () => {
  it('a rename changes only the key, gives the renamed data, and renaming back restores the exact text', () => {
    fc.assert(
      fc.property(generated, fc.infiniteStream(fc.boolean()), fc.boolean(), (doc, pick, tricky) => {
        const text = write(doc);
        const paths = keyPaths(doc.entries).filter(() => pick.next().value);
        const names = tricky ? [...PLAIN_NAMES, ...QUOTED_NAMES] : PLAIN_NAMES;
        const edits: TextEdit[] = paths.map((path, i) => ({ kind: 'rename-key', path, to: `${names[i % names.length]}${i}` }));
        const result = editYamlText(text, edits);
        expect(result.refusals).toEqual([]);
        expect(applyChanges(text, result.changes)).toBe(result.text);
        expect(result.changes).toHaveLength(edits.length);
        let expected = dataOf(text);
        // Children first, so each path still names keys as the original wrote them.
        for (const edit of [...edits].reverse()) expected = atParent(expected, edit.path, renamed((edit as { to: string }).to));
        expect(JSON.stringify(dataOf(result.text))).toBe(JSON.stringify(expected));
        if (!tricky) {
          const back: TextEdit[] = edits.map((edit) => {
            const path = edit.path.map((segment, depth) => {
              const renamedHere = edits.find((e) => e.path.length === depth + 1 && e.path.every((s, k) => s === edit.path[k]));
              return renamedHere ? (renamedHere as { to: string }).to : segment;
            });
            return { kind: 'rename-key', path, to: String(edit.path[edit.path.length - 1]) };
          });
          expect(editYamlText(result.text, back).text).toBe(text);
        }
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('a drop removes the pair, its comments, whitespace and one comma at most, and gives the data without it', () => {
    fc.assert(
      fc.property(generated, fc.infiniteStream(fc.boolean()), (doc, pick) => {
        const text = write(doc);
        const chosen: (string | number)[][] = [];
        for (const path of keyPaths(doc.entries)) {
          const underDropped = chosen.some((c) => c.length < path.length && c.every((s, k) => s === path[k]));
          const isLastRootKey = path.length === 1 && chosen.filter((c) => c.length === 1).length === doc.entries.length - 1;
          if (!underDropped && !isLastRootKey && pick.next().value) chosen.push(path);
        }
        const result = editYamlText(
          text,
          chosen.map((path) => ({ kind: 'drop-key', path })),
        );
        expect(result.refusals).toEqual([]);
        expect(applyChanges(text, result.changes)).toBe(result.text);
        let expected = dataOf(text);
        for (const path of [...chosen].reverse()) expected = atParent(expected, path, dropped);
        expect(JSON.stringify(dataOf(result.text))).toBe(JSON.stringify(expected));

        const body = text.replace(/^\ufeff/, '');
        const shift = text.length - body.length;
        const removed = new Set<number>();
        for (const change of result.changes) {
          if (change.text === '' || change.text === '{}') for (let i = change.start; i < change.end; i++) removed.add(i - shift);
          // Else `{}` written where a block map lost every key: nothing removed.
          else expect(change).toMatchObject({ text: ' {}', end: change.start });
        }
        const comments = commentOffsets(body);
        const spans = pairSpans(body, comments);
        const inPair = new Set<number>();
        for (const path of chosen) {
          const [start, end] = spans.get(JSON.stringify(path))!;
          for (let i = start; i < end; i++) {
            inPair.add(i);
            expect(removed.has(i)).toBe(true);
          }
        }
        let commas = 0;
        for (const i of removed) {
          if (inPair.has(i) || comments.has(i) || /\s/.test(body.charAt(i))) continue;
          expect(body.charAt(i)).toBe(',');
          commas += 1;
        }
        expect(commas).toBeLessThanOrEqual(chosen.length);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('an inserted key goes first, and only inserts', () => {
    fc.assert(
      fc.property(generated, fc.infiniteStream(fc.boolean()), (doc, pick) => {
        const text = write(doc);
        const targets = keyPaths(doc.entries).filter((path) => {
          const value = valueAt(doc.entries, path);
          const holds = (value.kind === 'block' || value.kind === 'flow') && value.entries.some((e) => e.key === 'version');
          return ['block', 'flow', 'null'].includes(value.kind) && !holds && pick.next().value;
        });
        const result = editYamlText(
          text,
          targets.map((path) => ({ kind: 'insert-first', path, key: 'version', value: '1.2.0' })),
        );
        expect(result.refusals).toEqual([]);
        expect(applyChanges(text, result.changes)).toBe(result.text);
        for (const change of result.changes) expect(change.end).toBe(change.start);
        let expected = dataOf(text);
        for (const path of [...targets].reverse()) {
          expected = atParent(expected, path, (map, key) => ({ ...map, [key]: { version: '1.2.0', ...((map[key] as object | null) ?? {}) } }));
        }
        expect(JSON.stringify(dataOf(result.text))).toBe(JSON.stringify(expected));
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});
