import { createRequire } from 'node:module';
import type * as RedosDetector from 'redos-detector';

/** Whether a definition's `pattern` may be used, and why not. */
export type PatternVerdict = { ok: true } | { ok: false; reason: string };

/**
 * How much work deciding one pattern may take. The analysis stops after `maxSteps` steps and
 * a pattern it cannot finish is refused, so verdicts do not depend on the machine's speed;
 * the timeout is only a backstop, should some step cost far more than usual.
 */
export const PATTERN_LIMITS = {
  /** Longer patterns are refused before any analysis. */
  maxLength: 1000,
  /** Most ways one input may match (redos-detector's score); a finite score under this is accepted. */
  maxScore: 200,
  /** Analysis steps before giving up (and refusing the pattern). */
  maxSteps: 2000,
  /** Milliseconds before giving up: a backstop, well above what the step bound allows. */
  timeoutMs: 5000,
  /** Verdicts kept; the oldest is dropped past this, so a long-running service stays bounded. */
  cacheSize: 1000,
} as const;

/** Set by the build: the shipped definitions' patterns, already found safe by {@link checkPattern}. */
declare const __SHIPPED_SAFE_PATTERNS__: readonly string[] | undefined;

const verdicts = new Map<string, PatternVerdict>();
// Analyses left to the work running under withPatternBudget; unlimited outside it.
let analysesLeft = Infinity;
// Never evicted: they are few, and `kurel serve` meets them at every start and reload.
const shippedSafe: ReadonlySet<string> = new Set(typeof __SHIPPED_SAFE_PATTERNS__ === 'undefined' ? [] : __SHIPPED_SAFE_PATTERNS__);
let detector: typeof RedosDetector | undefined;

/**
 * Decides whether `pattern` is safe to run on user input: it must compile as an ECMAScript
 * regular expression with the `u` flag, and no input may make it backtrack without bound
 * (exponentially or polynomially). Patterns the analysis cannot decide within
 * {@link PATTERN_LIMITS} are refused. Recent verdicts are cached per pattern.
 */
export function checkPattern(pattern: string): PatternVerdict {
  if (shippedSafe.has(pattern)) return { ok: true };
  let verdict = verdicts.get(pattern);
  if (!verdict) {
    if (analysesLeft <= 0) {
      // Not cached: the next request may well have budget for it.
      return { ok: false, reason: 'was not analysed: this request holds more new patterns than one request may have checked; send fewer definitions at once' };
    }
    analysesLeft -= 1;
    verdict = decide(pattern);
    if (verdicts.size >= PATTERN_LIMITS.cacheSize) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(pattern, verdict);
  }
  return verdict;
}

/**
 * Runs `work` (synchronous) with at most `analyses` patterns newly analysed; patterns past that
 * are refused unanalysed. The analysis is synchronous, so a service bounds it per request to
 * keep the request time limit meaningful. Cached and shipped patterns cost nothing.
 */
export function withPatternBudget<T>(analyses: number, work: () => T): T {
  const outer = analysesLeft;
  analysesLeft = Math.min(outer, analyses);
  try {
    return work();
  } finally {
    analysesLeft = outer;
  }
}

function decide(pattern: string): PatternVerdict {
  if (pattern.length > PATTERN_LIMITS.maxLength) {
    return { ok: false, reason: `is ${pattern.length} characters long; the limit is ${PATTERN_LIMITS.maxLength}` };
  }
  try {
    new RegExp(pattern, 'u');
  } catch (err) {
    return { ok: false, reason: `does not compile as an ECMAScript regular expression with the u flag: ${syntaxReason(err)}` };
  }
  let result: RedosDetector.RedosDetectorResult;
  try {
    result = loadDetector().isSafePattern(pattern, {
      unicode: true,
      maxScore: PATTERN_LIMITS.maxScore,
      maxSteps: PATTERN_LIMITS.maxSteps,
      timeout: PATTERN_LIMITS.timeoutMs,
    });
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0]!.toLowerCase() : String(err);
    return { ok: false, reason: `uses syntax the backtracking check cannot analyse (${detail}); named groups, for one, are not supported` };
  }
  if (result.safe) return { ok: true };
  if (result.error === 'hitMaxScore') {
    const ways = result.score.infinite ? 'unboundedly many' : `more than ${PATTERN_LIMITS.maxScore}`;
    return { ok: false, reason: `can backtrack catastrophically: one input can match it in ${ways} ways (nested or overlapping quantifiers)` };
  }
  return { ok: false, reason: 'is too complex to prove free of catastrophic backtracking; simplify it (avoid nested or overlapping quantifiers)' };
}

function syntaxReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const colon = message.lastIndexOf(': ');
  const reason = colon === -1 ? message : message.slice(colon + 2);
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}

// Loaded on first use, so a run whose definitions have no pattern never pays for it.
function loadDetector(): typeof RedosDetector {
  detector ??= createRequire(import.meta.url)('redos-detector') as typeof RedosDetector;
  return detector;
}

const matchers = new Map<string, RegExp>();
const MATCHER_CACHE_SIZE = 1000;

/** Matches a pattern (an unanchored search) with a cached compiled form; the cache is bounded. */
export function matchPattern(pattern: string, value: string): boolean {
  let re = matchers.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'u');
    if (matchers.size >= MATCHER_CACHE_SIZE) matchers.delete(matchers.keys().next().value!);
    matchers.set(pattern, re);
  }
  return re.test(value);
}
