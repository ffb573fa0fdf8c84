import { LIMITS } from '../core/input-limits.js';
import { yaml } from './yaml-lib.js';

interface TokenLike {
  type?: string;
  offset?: number;
  value?: TokenLike;
  key?: TokenLike | null;
  items?: { key?: TokenLike | null; value?: TokenLike | null }[];
}

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);

/**
 * How many collections a text may open beyond the depth limit before it is refused without
 * being parsed. A few beyond it cost the parser nothing, and it reports them with their data
 * path; past a thousand, each costs hundreds of bytes of parser state (1 MiB of `[` took
 * seconds and 600 MB), and a parse that deep overflowed its stack anyway.
 */
export const SURELY_TOO_DEEP = 1_000;

/**
 * The offset of the first collection nested deeper than {@link LIMITS.maxDepth}, or
 * `undefined`. Walks the parser's token tree with an explicit stack, so it works where the
 * `yaml` composer overflows the call stack (its overflow point depends on the stack size; this
 * one does not). When the collection is known to start before offset `end`, only the text
 * before it is read, so a file nested thousands deep is not tokenised twice.
 */
export function findTooDeep(text: string, end: number = text.length): number | undefined {
  for (const token of new (yaml().Parser)().parse(text.slice(0, end))) {
    const found = deepestStart((token as TokenLike).value, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Watches the lexemes of a text, as the `yaml` lexer gives them to the parser, for nesting
 * too deep to be worth parsing: more than {@link SURELY_TOO_DEEP} collections beyond the
 * depth limit. It counts a lower bound of each collection's depth: each `-` or `?` that
 * starts a line or follows one that does opens one (compact nesting, `- - x`), each flow `[`
 * or `{` one more inside the flow; nesting by the indentation of earlier lines is not
 * counted, so only what is certain counts.
 */
export class NestingWatch {
  private offset = 0;
  /** True while the line holds only indentation and `-` or `?` indicators. */
  private atLineStart = true;
  private lineOpened = 0;
  private flowBase = 0;
  private flowLevel = 0;
  private beyond = 0;
  private first: number | undefined;
  private atScalar = false;

  /**
   * Whether a text holds enough characters that open collections for more than
   * {@link SURELY_TOO_DEEP} of them to lie beyond the limit: an upper bound, so a text it
   * clears needs no watch. Costs one pass over the characters.
   */
  static isNeeded(text: string): boolean {
    let flowOpeners = 0;
    let indicators = 0;
    let lineIndicators = 0;
    let mostLineIndicators = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5b || c === 0x7b) flowOpeners += 1;
      else if (c === 0x2d || c === 0x3f) {
        indicators += 1;
        lineIndicators += 1;
      } else if (c === 0x0a) {
        if (lineIndicators > mostLineIndicators) mostLineIndicators = lineIndicators;
        lineIndicators = 0;
      }
    }
    if (lineIndicators > mostLineIndicators) mostLineIndicators = lineIndicators;
    return flowOpeners + mostLineIndicators > LIMITS.maxDepth && flowOpeners + indicators > LIMITS.maxDepth + SURELY_TOO_DEEP;
  }

  /**
   * Takes the next lexeme; once the text is sure to nest too deep, returns the offset of the
   * first collection it counted beyond the limit (the first one may start earlier:
   * {@link findTooDeep} finds it in the text before this offset).
   */
  see(lexeme: string): number | undefined {
    if (this.atScalar) {
      // The lexeme after a scalar marker is the scalar's text, whatever it starts with.
      this.atScalar = false;
      this.offset += lexeme.length;
      this.leaveLineStart(lexeme);
      return undefined;
    }
    const type = yaml().CST.tokenType(lexeme);
    let depth = 0;
    switch (type) {
      case 'scalar':
        this.atScalar = true;
        return undefined;
      case 'doc-mode':
        return undefined;
      case 'flow-error-end':
        this.flowLevel = 0;
        return undefined;
      case 'newline':
        this.atLineStart = true;
        this.lineOpened = 0;
        break;
      case 'space':
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
        // `- - x` nests; a `-` after anything else on its line is not counted.
        if (this.flowLevel === 0 && this.atLineStart) depth = ++this.lineOpened;
        else this.leaveLineStart(lexeme);
        break;
      case 'flow-map-start':
      case 'flow-seq-start':
        if (this.flowLevel === 0) this.flowBase = this.lineOpened;
        depth = this.flowBase + ++this.flowLevel;
        this.leaveLineStart(lexeme);
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        if (this.flowLevel > 0) this.flowLevel -= 1;
        this.leaveLineStart(lexeme);
        break;
      default:
        this.leaveLineStart(lexeme);
    }
    if (depth > LIMITS.maxDepth) {
      this.first ??= this.offset;
      this.beyond += 1;
      if (this.beyond > SURELY_TOO_DEEP) return this.first;
    }
    this.offset += lexeme.length;
    return undefined;
  }

  // Past the indicators of its line; a scalar that goes on over lines ends on a line of its own.
  private leaveLineStart(lexeme: string): void {
    this.atLineStart = false;
    if (lexeme.includes('\n')) this.lineOpened = 0;
  }
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
