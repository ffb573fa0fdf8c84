import type { Alias, CST, Document, Node, Pair, Scalar, YAMLMap } from 'yaml';
import { type Path, toPointer } from '../core/diagnostics.js';
import { SourceText, type Span } from './source.js';
import { rangeOf } from './to-data.js';
import { yaml } from './yaml-lib.js';

/**
 * One change to a YAML text, addressed by data path. Paths of `rename-key`, `drop-key` and
 * `replace-value` lead to a key (a pair of a map); the path of `insert-first` leads to the
 * value that receives the new key (a map, or a null that becomes `{key: "value"}`).
 */
export type TextEdit =
  | { readonly kind: 'rename-key'; readonly path: Path; readonly to: string }
  | { readonly kind: 'drop-key'; readonly path: Path }
  | { readonly kind: 'replace-value'; readonly path: Path; readonly value: string }
  | { readonly kind: 'insert-first'; readonly path: Path; readonly key: string; readonly value: string };

/** Text `[start, end)` of the input (offsets count a byte order mark) replaced by `text`. */
export interface TextChange {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** An edit not applied because it would change text other parts of the document share. */
export interface EditRefusal {
  readonly edit: TextEdit;
  /** What the change would go through: an alias (`*base`) or a merge key (`<<`). */
  readonly through: string;
  /** Where that alias or merge key is; `anchorLine` names the line of the anchor it uses. */
  readonly span: Span;
}

/** The outcome of {@link editYamlText}. */
export interface EditedText {
  /** The input with every edit that was not refused applied. */
  readonly text: string;
  /** The changes made, in text order. */
  readonly changes: readonly TextChange[];
  readonly refusals: readonly EditRefusal[];
}

/**
 * Applies edits to the first document of a YAML text so that every byte the edits do not need
 * to change stays as it was: comments, blank lines, key order, quoting, flow or block style,
 * anchors, line endings and a byte order mark. A renamed key keeps its quoting style (falling
 * back to double quotes where the new name cannot be written so), a replaced value too; a
 * dropped block key takes its trailing comment and the comment lines directly above it (up to
 * a blank line), and a block map that loses every key becomes `{}`; a dropped flow pair takes
 * one separating comma and the spaces after it; an inserted key goes first, written
 * `key: "value"`, in the map's style. An edit reached through an alias or a merge key, or one
 * that would change an anchored node some alias uses, is refused, never applied to the anchor.
 * Throws when the text does not parse or a path leads nowhere: callers edit what they read.
 */
export function editYamlText(input: string, edits: readonly TextEdit[]): EditedText {
  const bom = input.charCodeAt(0) === 0xfeff ? 1 : 0;
  const editor = new Editor(bom === 1 ? input.slice(1) : input);
  const refusals: EditRefusal[] = [];
  const drops: LocatedPair[] = [];
  const changes: TextChange[] = [];
  for (const edit of edits) {
    const located = editor.locate(edit);
    if ('through' in located) {
      refusals.push(located);
      continue;
    }
    if (edit.kind === 'drop-key') drops.push(located as LocatedPair);
    else changes.push(...editor.change(edit, located));
  }
  changes.push(...editor.dropChanges(drops));
  changes.sort((a, b) => a.start - b.start || a.end - b.end);
  let text = '';
  let at = 0;
  for (const change of changes) {
    if (change.start < at) throw new Error(`text edits overlap at offset ${change.start}`);
    text += editor.text.slice(at, change.start) + change.text;
    at = change.end;
  }
  text += editor.text.slice(at);
  return {
    text: (bom === 1 ? '\ufeff' : '') + text,
    changes: changes.map((c) => ({ start: c.start + bom, end: c.end + bom, text: c.text })),
    refusals,
  };
}

/** A pair an edit leads to, with the map that holds it and the pair holding that map. */
interface LocatedPair {
  readonly edit: TextEdit;
  readonly pair: Pair;
  readonly map: YAMLMap;
  /** The pair whose value is `map`, when there is one. */
  readonly parent: Pair | undefined;
}

type Located = LocatedPair | EditRefusal;

const PARSE_OPTIONS = { keepSourceTokens: true, merge: true, uniqueKeys: false, intAsBigInt: true, strict: true, prettyErrors: false } as const;

class Editor {
  private readonly source: SourceText;
  private readonly doc: Document.Parsed;
  /**
   * Comment tokens, `[start, end)` in text order (text that looks like a comment inside a block
   * scalar is not one), and the set of their starts.
   */
  private readonly comments: (readonly [number, number])[] = [];
  private readonly commentStarts = new Set<number>();
  private readonly anchors = new Map<string, Node[]>();
  private readonly aliases: Alias[] = [];
  private readonly eol: string;

  constructor(readonly text: string) {
    this.source = new SourceText('', text);
    const tokens = [...new (yaml().Parser)(this.source.lineCounter.addNewLine).parse(text)];
    for (const token of tokens) collectComments(token, this.comments);
    this.comments.sort((a, b) => a[0] - b[0]);
    for (const [start] of this.comments) this.commentStarts.add(start);
    const doc = [...new (yaml().Composer)(PARSE_OPTIONS).compose(tokens)][0] as Document.Parsed | undefined;
    if (!doc || doc.errors.length > 0) throw new Error('text edits need a YAML document that parses');
    this.doc = doc;
    yaml().visit(doc, {
      Alias: (_key, node) => {
        this.aliases.push(node);
      },
      Node: (_key, node) => {
        if (node.anchor) this.anchors.set(node.anchor, [...(this.anchors.get(node.anchor) ?? []), node]);
      },
    });
    this.eol = /\r\n/.test(text) ? '\r\n' : '\n';
  }

  /** Finds the pair an edit leads to, or why the edit may not be made. */
  locate(edit: TextEdit): Located {
    const path = edit.path;
    if (path.length === 0) throw new Error('a text edit needs a path to a key');
    let node: unknown = this.doc.contents;
    let parent: Pair | undefined;
    const containers: Node[] = [];
    for (const [index, segment] of path.entries()) {
      if (yaml().isAlias(node)) return this.refuse(edit, node);
      if (yaml().isMap(node)) {
        containers.push(node);
        const key = String(segment);
        const merged = this.mergeProviding(node, key);
        if (merged) return this.refuse(edit, merged);
        const pair = ownPair(node, key);
        if (!pair) throw new Error(`no key at ${toPointer(path.slice(0, index + 1))}`);
        if (index === path.length - 1) return this.checkLeaks(edit, { edit, pair, map: node, parent }, containers);
        parent = pair;
        node = pair.value;
      } else if (yaml().isSeq(node) && typeof segment === 'number' && segment >= 0 && segment < node.items.length) {
        containers.push(node);
        parent = undefined;
        node = node.items[segment];
      } else {
        throw new Error(`no key at ${toPointer(path.slice(0, index + 1))}`);
      }
    }
    throw new Error('unreachable');
  }

  /** The changes of a rename, a replaced value or an insertion. */
  change(edit: TextEdit, at: LocatedPair): TextChange[] {
    const { pair, map } = at;
    switch (edit.kind) {
      case 'rename-key': {
        const key = pair.key as Scalar;
        const [start, end] = rangeOf(key);
        return [{ start, end, text: formatScalar(edit.to, key.type, { inFlow: isFlow(map), isKey: true }) }];
      }
      case 'replace-value': {
        const value = pair.value as Node | null;
        if (isEmptyScalar(value))
          return [{ start: this.afterIndicator(pair), end: this.afterIndicator(pair), text: ` ${formatScalar(edit.value, 'QUOTE_DOUBLE')}` }];
        if (!yaml().isScalar(value)) throw new Error(`the value at ${toPointer(edit.path)} is not a scalar`);
        const [start, end] = this.scalarExtent(value);
        return [{ start, end, text: formatScalar(edit.value, value.type, { inFlow: isFlow(map), isKey: false }) }];
      }
      case 'insert-first':
        return this.insertFirst(edit, pair);
      default:
        throw new Error('drops are applied together');
    }
  }

  /** The changes that drop keys, map by map, so commas and emptied maps are decided once per map. */
  dropChanges(drops: readonly LocatedPair[]): TextChange[] {
    const byMap = new Map<YAMLMap, LocatedPair[]>();
    for (const drop of drops) byMap.set(drop.map, [...(byMap.get(drop.map) ?? []), drop]);
    const changes: TextChange[] = [];
    for (const [map, located] of byMap) {
      const dropped = new Set(located.map((l) => l.pair));
      changes.push(...(isFlow(map) ? this.dropFromFlow(map, dropped) : this.dropFromBlock(map, dropped, located[0]!.parent)));
    }
    return changes;
  }

  private insertFirst(edit: Extract<TextEdit, { kind: 'insert-first' }>, holder: Pair): TextChange[] {
    const target = holder.value as Node | null;
    const entry = `${formatScalar(edit.key, 'PLAIN', { inFlow: true, isKey: true })}: ${formatScalar(edit.value, 'QUOTE_DOUBLE')}`;
    if (isEmptyScalar(target)) {
      const at = this.afterIndicator(holder);
      return [{ start: at, end: at, text: `${holder.srcToken?.sep?.some((t) => t.type === 'map-value-ind') ? ' ' : ': '}{${entry}}` }];
    }
    if (yaml().isScalar(target) && target.value === null) {
      const [start, end] = rangeOf(target);
      return [{ start, end, text: `{${entry}}` }];
    }
    if (!yaml().isMap(target)) throw new Error(`the value at ${toPointer(edit.path)} is not a map`);
    const first = target.items[0];
    if (isFlow(target)) {
      if (!first) {
        const close = (target.srcToken as CST.FlowCollection).end.find((t) => t.type === 'flow-map-end');
        const at = close?.offset ?? rangeOf(target)[1] - 1;
        return [{ start: at, end: at, text: entry }];
      }
      const at = pairStart(first);
      return [{ start: at, end: at, text: `${entry}, ` }];
    }
    if (!first) throw new Error(`the map at ${toPointer(edit.path)} is empty`);
    const start = pairStart(first);
    const lineStart = this.lineStart(start);
    const indent = this.text.slice(lineStart, start);
    if (/^[ \t]*$/.test(indent)) {
      const at = this.commentsAbove(lineStart);
      return [{ start: at, end: at, text: `${indent}${entry}${this.eolAt(start)}` }];
    }
    // The map opens a list item (`- rendering: …`): the new key takes the item's line.
    return [{ start, end: start, text: `${entry}${this.eolAt(start)}${' '.repeat(start - lineStart)}` }];
  }

  private dropFromFlow(map: YAMLMap, dropped: ReadonlySet<Pair>): TextChange[] {
    const items = (map.srcToken as CST.FlowCollection).items;
    const pairOfItem = new Map<CST.CollectionItem, Pair>();
    for (const pair of map.items) if (pair.srcToken) pairOfItem.set(pair.srcToken, pair);
    const changes: TextChange[] = [];
    let index = 0;
    while (index < items.length) {
      const pair = pairOfItem.get(items[index]!);
      if (!pair || !dropped.has(pair)) {
        index += 1;
        continue;
      }
      let last = index;
      while (last + 1 < items.length && dropped.has(pairOfItem.get(items[last + 1]!) as Pair)) last += 1;
      const start = pairStart(pair);
      const end = this.pairEnd(pairOfItem.get(items[last]!)!);
      const commaAfter = items[last + 1]?.start.find((t) => t.type === 'comma');
      const before = items[index]!.start;
      const commaBefore = index > 0 ? before.find((t) => t.type === 'comma') : undefined;
      if (commaAfter) {
        changes.push({ start, end: this.spacesAfterComma(commaAfter.offset + 1), text: '' });
      } else if (commaBefore) {
        // A comment between the comma and the pair stays; the comma and the pair go.
        const hasComment = before.some((t) => t.type === 'comment');
        if (hasComment) changes.push({ start: commaBefore.offset, end: commaBefore.offset + 1, text: '' }, { start, end, text: '' });
        else changes.push({ start: commaBefore.offset, end, text: '' });
      } else {
        changes.push({ start, end, text: '' });
      }
      index = last + 1;
    }
    return changes.map((change) => this.wholeLine(change));
  }

  // A pair alone on its line in a flow map written over several lines takes the line with it.
  private wholeLine(change: TextChange): TextChange {
    const lineStart = this.lineStart(change.start);
    const newline = this.text.indexOf('\n', change.end);
    const lineEnd = newline === -1 ? this.text.length : newline + 1;
    if (!/^[ \t]*$/.test(this.text.slice(lineStart, change.start)) || !/^[ \t\r\n]*$/.test(this.text.slice(change.end, lineEnd))) return change;
    return { start: lineStart, end: lineEnd, text: change.text };
  }

  private dropFromBlock(map: YAMLMap, dropped: ReadonlySet<Pair>, parent: Pair | undefined): TextChange[] {
    const changes: TextChange[] = [];
    const emptied = map.items.every((pair) => dropped.has(pair));
    for (const [index, pair] of map.items.entries()) {
      if (!dropped.has(pair)) continue;
      const start = pairStart(pair);
      const end = this.lineEndAfter(this.pairEnd(pair));
      const lineStart = this.lineStart(start);
      if (/^[ \t]*$/.test(this.text.slice(lineStart, start))) {
        changes.push({ start: this.commentsAbove(lineStart), end, text: '' });
        continue;
      }
      // The first key of a list item (`- a: 1`): the item's `-` stays; what followed the key
      // on its line goes, the line break stays so the next key keeps its line.
      let from = start;
      while (from > lineStart && /[ \t]/.test(this.text.charAt(from - 1))) from -= 1;
      const to = this.text.charAt(end - 1) === '\n' ? end - (this.text.charAt(end - 2) === '\r' ? 2 : 1) : end;
      changes.push({ start: index === 0 && emptied ? start : from, end: to, text: index === 0 && emptied ? '{}' : '' });
    }
    if (emptied) {
      const first = map.items[0]!;
      const start = pairStart(first);
      const isOnOwnLine = /^[ \t]*$/.test(this.text.slice(this.lineStart(start), start));
      if (isOnOwnLine) {
        if (!parent) throw new Error('the document itself cannot lose every key');
        const at = this.afterIndicator(parent);
        changes.push({ start: at, end: at, text: ' {}' });
      }
    }
    return changes;
  }

  private refuse(edit: TextEdit, through: Node): EditRefusal {
    const [start, end] = rangeOf(through);
    const span = this.source.span(start, end);
    if (yaml().isAlias(through)) {
      const target = this.resolve(through);
      if (target) span.anchorLine = this.source.anchorLine(target);
      return { edit, through: `*${through.source}`, span };
    }
    return { edit, through: '<<', span };
  }

  /**
   * Refuses an edit that would change a node some alias uses (the change would show wherever
   * the alias is), or drop an anchor an alias after it still needs.
   */
  private checkLeaks(edit: TextEdit, at: LocatedPair, containers: readonly Node[]): Located {
    const changed: Node[] = [...containers];
    if (edit.kind === 'rename-key') changed.push(at.pair.key as Node);
    if (edit.kind === 'replace-value' || edit.kind === 'insert-first') {
      const value = at.pair.value as Node | null;
      if (yaml().isAlias(value)) return this.refuse(edit, value);
      if (value) changed.push(value);
    }
    if (edit.kind === 'insert-first' && yaml().isMap(at.pair.value)) {
      const merged = this.mergeProviding(at.pair.value, edit.key);
      if (merged) return this.refuse(edit, merged);
    }
    for (const node of changed) {
      const user = this.aliases.find((alias) => this.resolve(alias) === node);
      if (user) return this.refuse(edit, user);
    }
    if (edit.kind === 'drop-key') {
      const start = pairStart(at.pair);
      const end = this.pairEnd(at.pair);
      for (const alias of this.aliases) {
        const [aliasStart] = rangeOf(alias);
        if (aliasStart >= start && aliasStart < end) continue;
        const [targetStart] = rangeOf(this.resolve(alias));
        if (targetStart >= start && targetStart < end) return this.refuse(edit, alias);
      }
    }
    return at;
  }

  /** The alias (or merge key) through which a merge brings `key` into `map`, if one does. */
  private mergeProviding(map: YAMLMap, key: string): Node | undefined {
    for (const pair of map.items) {
      const k = pair.key as Node | null;
      if (!(yaml().isScalar(k) && typeof k.value === 'symbol')) continue;
      const sources = yaml().isSeq(pair.value) ? (pair.value.items as Node[]) : [pair.value as Node];
      for (const source of sources) {
        const resolved = yaml().isAlias(source) ? this.resolve(source) : source;
        if (!yaml().isMap(resolved)) continue;
        if (ownPair(resolved, key) || this.mergeProviding(resolved, key)) return yaml().isAlias(source) ? source : k;
      }
    }
    return undefined;
  }

  private resolve(alias: Alias): Node | undefined {
    const at = rangeOf(alias)[0];
    let match: Node | undefined;
    for (const node of this.anchors.get(alias.source) ?? []) if (rangeOf(node)[0] < at) match = node;
    return match;
  }

  /** Where the value of a pair starts being written: after its `:` and any anchor or tag on that line. */
  private afterIndicator(pair: Pair): number {
    let at = rangeOf(pair.key as Node)[1];
    for (const token of pair.srcToken?.sep ?? []) {
      if (token.type === 'newline' || token.type === 'comment') break;
      if (token.type === 'map-value-ind' || token.type === 'anchor' || token.type === 'tag') at = token.offset + token.source.length;
    }
    return at;
  }

  /** The end of a pair's last character (key, indicator or value). */
  private pairEnd(pair: Pair): number {
    const end = Math.max(rangeOf(pair.key as Node)[1], this.afterIndicator(pair));
    const value = pair.value as Node | null;
    return value && !isEmptyScalar(value) ? Math.max(end, this.contentEnd(value)) : end;
  }

  // A node's range may run on over the comments and spaces after it (a map whose last value is
  // empty ends where the next key starts); its content ends at its last other character.
  private contentEnd(node: Node): number {
    const [start, rangeEnd] = rangeOf(node);
    let end = rangeEnd;
    while (end > start) {
      if (/\s/.test(this.text.charAt(end - 1))) end -= 1;
      else {
        const comment = this.commentAround(end - 1);
        if (comment === undefined) break;
        end = comment;
      }
    }
    return end;
  }

  /** The start of the comment holding `offset`, if one does. */
  private commentAround(offset: number): number | undefined {
    let low = 0;
    let high = this.comments.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [start, end] = this.comments[middle]!;
      if (offset < start) high = middle - 1;
      else if (offset >= end) low = middle + 1;
      else return start;
    }
    return undefined;
  }

  /** A block scalar's text without the line breaks after it. */
  private scalarExtent(value: Scalar): readonly [number, number] {
    let [start, end] = rangeOf(value);
    if (value.type === 'BLOCK_LITERAL' || value.type === 'BLOCK_FOLDED') while (end > start && /[\r\n]/.test(this.text.charAt(end - 1))) end -= 1;
    return [start, end];
  }

  // After a comma: the spaces (and line breaks) up to the next item go with it, unless a
  // comment comes next: the spaces before a kept comment stay as they were.
  private spacesAfterComma(at: number): number {
    let end = at;
    while (end < this.text.length && /[ \t\r\n]/.test(this.text.charAt(end))) end += 1;
    return this.text.charAt(end) === '#' ? at : end;
  }

  private lineStart(offset: number): number {
    // `lastIndexOf` reads a negative start as 0, and would find a line break at offset 0.
    return offset <= 0 ? 0 : this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** The start of the next line after `offset` (the offset itself when a line starts there). */
  private lineEndAfter(offset: number): number {
    if (offset > 0 && this.text.charAt(offset - 1) === '\n') return offset;
    const newline = this.text.indexOf('\n', offset);
    return newline === -1 ? this.text.length : newline + 1;
  }

  /** The start of the comment lines directly above the line at `lineStart`, up to a blank line. */
  private commentsAbove(lineStart: number): number {
    let at = lineStart;
    while (at > 0) {
      const previous = this.lineStart(at - 1);
      const line = this.text.slice(previous, at);
      const hash = previous + line.length - line.trimStart().length;
      if (line.trim() === '' || !this.commentStarts.has(hash)) break;
      at = previous;
    }
    return at;
  }

  private eolAt(offset: number): string {
    const newline = this.text.indexOf('\n', offset);
    if (newline === -1) return this.eol;
    return this.text.charAt(newline - 1) === '\r' ? '\r\n' : '\n';
  }
}

function collectComments(token: unknown, out: (readonly [number, number])[]): void {
  if (Array.isArray(token)) {
    for (const item of token) collectComments(item, out);
    return;
  }
  if (typeof token !== 'object' || token === null) return;
  const t = token as { type?: unknown; offset?: unknown; source?: unknown };
  if (t.type === 'comment' && typeof t.offset === 'number' && typeof t.source === 'string') {
    out.push([t.offset, t.offset + t.source.length]);
    return;
  }
  for (const value of Object.values(token)) if (typeof value === 'object') collectComments(value, out);
}

function ownPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => {
    const k = pair.key as Node | null;
    return yaml().isScalar(k) && typeof k.value === 'string' && k.value === key;
  });
}

function isFlow(map: YAMLMap): boolean {
  return map.flow === true;
}

function isEmptyScalar(node: Node | null): boolean {
  return node === null || (yaml().isScalar(node) && node.value === null && rangeOf(node)[0] === rangeOf(node)[1]);
}

/** Where a pair's text starts: its key, or an anchor, tag or `?` written before the key. */
function pairStart(pair: Pair): number {
  const item = pair.srcToken;
  for (const token of item?.start ?? []) if (token.type === 'anchor' || token.type === 'tag' || token.type === 'explicit-key-ind') return token.offset;
  const key = pair.key as Node | null;
  if (key) return rangeOf(key)[0];
  const indicator = item?.sep?.find((t) => t.type === 'map-value-ind');
  return indicator?.offset ?? rangeOf(pair.value as Node)[0];
}

/**
 * A string written as a scalar in `style` (the yaml package's own stringifier), falling back
 * to double quotes when the style cannot hold it or YAML would read it as something else
 * (`2.1` written plain is a number).
 */
function formatScalar(value: string, style: Scalar.Type | undefined, context: { inFlow: boolean; isKey: boolean } = { inFlow: true, isKey: false }): string {
  const type = style === 'PLAIN' || style === 'QUOTE_SINGLE' ? style : 'QUOTE_DOUBLE';
  const written = stringifyScalar(value, type, context);
  if (written !== undefined && readsAs(written, context) === value) return written;
  return stringifyScalar(value, 'QUOTE_DOUBLE', context) ?? JSON.stringify(value);
}

function stringifyScalar(value: string, type: Scalar.Type, context: { inFlow: boolean; isKey: boolean }): string | undefined {
  const token: CST.FlowScalar = { type: 'scalar', offset: 0, indent: 0, source: '' };
  yaml().CST.setScalarValue(token, value, { type, inFlow: context.inFlow, implicitKey: context.isKey });
  return token.type === 'scalar' || token.type === 'single-quoted-scalar' || token.type === 'double-quoted-scalar' ? token.source : undefined;
}

// What the core schema reads a written scalar as, in the place it will stand.
function readsAs(written: string, context: { inFlow: boolean; isKey: boolean }): unknown {
  const entry = context.isKey ? `${written}: 0` : `k: ${written}`;
  const doc = [...new (yaml().Composer)({ ...PARSE_OPTIONS, merge: false }).compose(new (yaml().Parser)().parse(context.inFlow ? `{${entry}}` : entry))][0];
  if (!doc || doc.errors.length > 0 || !yaml().isMap(doc.contents) || doc.contents.items.length !== 1) return undefined;
  const pair = doc.contents.items[0]!;
  const node = (context.isKey ? pair.key : pair.value) as Node | null;
  return yaml().isScalar(node) ? node.value : undefined;
}

/**
 * Where an offset of an edited text was before the edit: `changes` are those of
 * {@link editYamlText} (sorted, offsets of the text before). An offset inside replaced text
 * maps the same distance into the text it replaced, clipped to its end; inserted text maps to
 * where it was inserted.
 */
export function offsetBefore(changes: readonly TextChange[], offset: number): number {
  let shift = 0;
  for (const change of changes) {
    const start = change.start + shift;
    if (offset < start) break;
    const end = start + change.text.length;
    if (offset < end) return change.start + Math.min(offset - start, change.end - change.start);
    shift += change.text.length - (change.end - change.start);
  }
  return offset - shift;
}
