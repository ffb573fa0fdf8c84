import { PatternCache } from './pattern.js';

/** Matches a `pattern` keyword against a string value (an unanchored search). */
export interface PatternMatcher {
  test(pattern: string, value: string): boolean;
}

// Fixed patterns of kurel's own documents and built-in handlers: written here, tested, and run
// on V8's engine (docs/definitions.md), so a lint of built-ins alone never loads the RE2 engine.
const nativePatterns = new Map<string, RegExp>();

/**
 * Declares one of kurel's own fixed patterns (a built-in handler's or a document's), run on
 * V8's engine; returns it unchanged. Patterns from definitions and plugins never go through
 * this: they are matched in linear time by RE2.
 */
export function nativePattern(pattern: string): string {
  if (!nativePatterns.has(pattern)) nativePatterns.set(pattern, new RegExp(pattern, 'u'));
  return pattern;
}

/**
 * RE2 matchers with a bounded cache, one per catalogue, that read through to the cache of the
 * catalogue they were made from: a request's own definitions compile into the request's cache,
 * and the service's patterns stay compiled in the service's.
 */
export class LayeredPatternCache implements PatternMatcher {
  private readonly own = new PatternCache();

  constructor(private readonly parent?: LayeredPatternCache) {}

  test(pattern: string, value: string): boolean {
    const native = nativePatterns.get(pattern);
    if (native) return native.test(value);
    if (this.parent?.holds(pattern)) return this.parent.test(pattern, value);
    return this.own.test(pattern, value);
  }

  private holds(pattern: string): boolean {
    return this.own.has(pattern) || this.parent?.holds(pattern) === true;
  }
}

const outside = new LayeredPatternCache();
let ambient: PatternMatcher = outside;

/** The matcher of the check running now: the catalogue's, or a shared bounded one outside any catalogue. */
export function currentPatternMatcher(): PatternMatcher {
  return ambient;
}

/**
 * Runs `work` (synchronous) with `matcher` as the matcher of every check it makes, handlers'
 * own `checkRendering` calls included.
 */
export function withPatternMatcher<T>(matcher: PatternMatcher, work: () => T): T {
  const outer = ambient;
  ambient = matcher;
  try {
    return work();
  } finally {
    ambient = outer;
  }
}
