import type { Path } from '../core/diagnostics.js';
import { NestingWatch } from '../yaml/depth.js';
import { yaml } from '../yaml/yaml-lib.js';

/** Where an offset of a YAML text falls: the path of the innermost key or value holding it. */
export interface PlaceInText {
  /** The data path of the key whose key or value holds the offset. */
  path: Path;
  /** True when the offset is on the key itself, false when in its value. */
  isOnKey: boolean;
  /** Offsets [start, end) of the key. */
  key: readonly [number, number];
}

type Yaml = ReturnType<typeof yaml>;
let last: { text: string; doc: ReturnType<Yaml['parseDocument']> } | undefined;
type YamlNode = InstanceType<Yaml['Scalar']> | InstanceType<Yaml['YAMLMap']> | InstanceType<Yaml['YAMLSeq']>;

/** Texts above this size are read by their lines around the offset instead of parsed whole: hovers and code actions come at every cursor move. */
export const PARSED_TEXT_LIMIT = 512 * 1024;
/** How far up the lines of a large text are read for the keys above one. */
const MAX_LINES_UP = 2_000;

/**
 * The innermost map key whose key or value holds `offset` in the first document of `text`, or
 * undefined when the offset is outside every key. A text up to {@link PARSED_TEXT_LIMIT} is
 * parsed (the last one parsed is kept); a larger one, or one that may nest past the depth
 * limit (the parser's cost grows faster than its size there), is read by indentation from the
 * lines above the offset, block keys only.
 */
export function placeAt(text: string, offset: number): PlaceInText | undefined {
  if (isReadByLines(text)) return placeByLines(text, offset);
  const lib = yaml();
  if (last?.text !== text) last = { text, doc: lib.parseDocument(text, { uniqueKeys: false, strict: false, keepSourceTokens: false }) };
  const doc = last.doc;
  let node = doc.contents as YamlNode | null;
  const path: (string | number)[] = [];
  let found: PlaceInText | undefined;
  for (let depth = 0; node && depth < 256; depth++) {
    let next: YamlNode | null = null;
    if (lib.isMap(node)) {
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        const value = pair.value as YamlNode | null;
        if (!lib.isScalar(key) || !key.range) continue;
        const end = value?.range ? value.range[1] : key.range[1];
        if (offset < key.range[0] || offset > Math.max(end, key.range[1])) continue;
        path.push(String(key.value));
        const isOnKey = offset <= key.range[1];
        found = { path: [...path], isOnKey, key: [key.range[0], key.range[1]] };
        next = isOnKey ? null : value;
        break;
      }
    } else if (lib.isSeq(node)) {
      for (const [index, item] of node.items.entries()) {
        const child = item as YamlNode | null;
        if (!child?.range || offset < child.range[0] || offset > child.range[1]) continue;
        path.push(index);
        next = child;
        break;
      }
    }
    node = next;
  }
  return found;
}

/** Whether a text is read by its lines rather than parsed: over {@link PARSED_TEXT_LIMIT}, or nesting too deep to parse in time linear in its size. */
export function isReadByLines(text: string): boolean {
  return text.length > PARSED_TEXT_LIMIT || NestingWatch.isNeeded(text);
}

/** A block key on a line: its indentation, its name (quotes removed) and where the name starts and ends in the line. */
export function keyOfLine(line: string): { indent: number; key: string; start: number; end: number } | undefined {
  const match = /^([ \t]*)(?:- )?(["']?)([^"'#:\s][^"'#:]*?)\2:(?:\s|$)/.exec(line);
  if (!match) return undefined;
  const start = match[0].indexOf(match[2]! + match[3]!);
  return { indent: match[1]!.length, key: match[3]!, start, end: start + match[2]!.length * 2 + match[3]!.length };
}

/**
 * The keys above a line by indentation: each line above with less indentation than the last
 * one found that holds `key:` is a parent. `lineAbove(n)` is the line n lines up (undefined
 * past the first); at most a few thousand lines are read.
 */
export function parentKeys(lineAbove: (back: number) => string | undefined, indent: number): string[] {
  const path: string[] = [];
  let limit = indent;
  for (let back = 1; back <= MAX_LINES_UP && limit > 0; back++) {
    const line = lineAbove(back);
    if (line === undefined) break;
    const found = keyOfLine(line);
    if (!found || found.indent >= limit) continue;
    path.unshift(found.key);
    limit = found.indent;
  }
  return path;
}

/** {@link placeAt} read from the lines around the offset: block keys only, as a large text is read. */
export function placeByLines(text: string, offset: number): PlaceInText | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const found = keyOfLine(text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd));
  const column = offset - lineStart;
  if (!found || column < found.start || column > found.end) return undefined;
  // Lines above, read backwards from this one only as far as the walk needs.
  const above: string[] = [];
  let cursor = lineStart;
  const lineAt = (back: number): string | undefined => {
    while (above.length < back && cursor > 0) {
      const start = text.lastIndexOf('\n', cursor - 2) + 1;
      above.push(text.slice(start, cursor - 1));
      cursor = start;
    }
    return above[back - 1];
  };
  const path = [...parentKeys(lineAt, found.indent), found.key];
  return { path, isOnKey: true, key: [lineStart + found.start, lineStart + found.end] };
}
