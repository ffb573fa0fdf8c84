import { Parser } from 'yaml';
import { LIMITS } from '../core/limits.js';

interface TokenLike {
  type?: string;
  offset?: number;
  value?: TokenLike;
  key?: TokenLike | null;
  items?: { key?: TokenLike | null; value?: TokenLike | null }[];
}

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);

/**
 * The offset of the first collection nested deeper than {@link LIMITS.maxDepth}, or
 * `undefined`. Walks the parser's token tree with an explicit stack, so it works where the
 * `yaml` composer overflows the call stack (its overflow point depends on the stack size; this
 * one does not). When the collection is known to start before offset `end`, only the text
 * before it is read, so a file nested thousands deep is not tokenised twice.
 */
export function findTooDeep(text: string, end: number = text.length): number | undefined {
  for (const token of new Parser().parse(text.slice(0, end))) {
    const found = deepestStart((token as TokenLike).value, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

function deepestStart(root: TokenLike | undefined, rootDepth: number): number | undefined {
  const stack: [TokenLike | null | undefined, number][] = [[root, rootDepth]];
  while (stack.length > 0) {
    const [token, parentDepth] = stack.pop()!;
    if (!token) continue;
    const depth = COLLECTIONS.has(token.type ?? '') ? parentDepth + 1 : parentDepth;
    if (depth > LIMITS.maxDepth) return token.offset;
    const items = token.items ?? [];
    // Pushed last to first, so the earliest item in the text is looked at first.
    for (let i = items.length - 1; i >= 0; i--) {
      stack.push([items[i]!.value, depth]);
      stack.push([items[i]!.key, depth]);
    }
  }
  return undefined;
}
