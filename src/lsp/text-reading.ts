import { isMap } from '../core/data.js';
import { NestingWatch } from '../yaml/depth.js';
import { yaml } from '../yaml/yaml-lib.js';
import { isReadByLines, type PlaceInText, placeAt } from './yaml-at.js';

/**
 * What hovers, completion, go to definition and code actions read of an open text by parsing
 * it (docs/editors.md): the key at the cursor and the profile's own `spec.platform`. Made in a
 * thread of its own (`JudgeThread.read`), so that no text, however large or nested, holds up
 * the server's thread.
 */
export interface TextReading {
  /** The key at the offset asked about; undefined when none was asked about or none holds it. */
  place: PlaceInText | undefined;
  /** The profile's `spec.platform` as written, undefined when it writes none. */
  declaredPlatform: unknown;
}

/** Reads `text` at `offset` (when given): the key there and the profile's declared platform. */
export function readText(text: string, offset: number | undefined): TextReading {
  return { place: offset === undefined ? undefined : placeAt(text, offset), declaredPlatform: declaredPlatformOf(text) };
}

// The last text read is kept: hovers and completion ask again at every move.
let lastPlatform: { text: string; declared: unknown } | undefined;

/**
 * The `spec.platform` a profile text writes. A text read by its lines (`isReadByLines`: large,
 * or nesting deep) is parsed up to its block `capabilities:` key, where `spec.platform` is
 * written, and only when that part nests within the limit.
 */
export function declaredPlatformOf(text: string): unknown {
  if (lastPlatform?.text === text) return lastPlatform.declared;
  let head = text;
  if (isReadByLines(text)) {
    const capabilities = text.search(/\n {2}capabilities:/);
    head = capabilities === -1 || NestingWatch.isNeeded(text.slice(0, capabilities + 1)) ? '' : text.slice(0, capabilities + 1);
  }
  let declared: unknown;
  try {
    const data = yaml().parse(head, { uniqueKeys: false, strict: false, maxAliasCount: 100 }) as unknown;
    declared = isMap(data) && isMap(data.spec) ? data.spec.platform : undefined;
  } catch {
    declared = undefined;
  }
  lastPlatform = { text, declared };
  return declared;
}
