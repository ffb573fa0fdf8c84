import type { Path } from '../core/diagnostics.js';
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
type YamlNode = InstanceType<Yaml['Scalar']> | InstanceType<Yaml['YAMLMap']> | InstanceType<Yaml['YAMLSeq']>;

/**
 * The innermost map key whose key or value holds `offset` in the first document of `text`, or
 * undefined when the offset is outside every key. Parsing is linear in the text, the walk in
 * its depth.
 */
export function placeAt(text: string, offset: number): PlaceInText | undefined {
  const lib = yaml();
  const doc = lib.parseDocument(text, { uniqueKeys: false, strict: false, keepSourceTokens: false });
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
