import { createRequire } from 'node:module';
import type * as Re2js from 're2js';
import type * as Regjsparser from 'regjsparser';
import { COMPILE_STEPS_PER_INSTRUCTION, chargeWork, VERDICT_STEPS_PER_INSTRUCTION } from './work-budget.js';

/**
 * Whether a `pattern` may be used, and why not: `reason` completes `<label>.pattern "<p>" `.
 * An accepted pattern carries its program size ({@link patternProgramSize}); a refused one that
 * is valid but compiles past {@link PATTERN_MAX_PROGRAM} says so with `tooComplex`.
 */
export type PatternVerdict = { ok: true; programSize: number } | { ok: false; reason: string; tooComplex?: true };

/** Longest pattern accepted, in UTF-16 code units. */
export const PATTERN_MAX_LENGTH = 1000;

/**
 * Largest program a pattern may compile to, in instructions as RE2 counts them (docs/definitions.md
 * "Patterns"): the size RE2 gives a program when no memory budget is set. Compiling and matching
 * cost time in proportion to it, so a short pattern of nested counted repetitions (`(?:a?){1000}`
 * is 2,000 instructions) is refused before it is compiled.
 */
export const PATTERN_MAX_PROGRAM = 100_000;

/** Compiled patterns a {@link PatternCache} keeps by default. */
export const PATTERN_CACHE_SIZE = 1000;

const LINEAR_TIME = 'which cannot be matched in linear time; Kubernetes, whose CRD patterns are RE2, would refuse it too';

// RE2 reports a lookaround as the group syntax it does not know; the prefix of what it quotes tells which.
const LOOKAROUNDS: ReadonlyArray<readonly [prefix: string, name: string]> = [
  ['(?=', 'a lookahead (?=...)'],
  ['(?!', 'a negative lookahead (?!...)'],
  ['(?<=', 'a lookbehind (?<=...)'],
  ['(?<!', 'a negative lookbehind (?<!...)'],
];

/**
 * Decides whether `pattern` may be a definition's `pattern`: at most {@link PATTERN_MAX_LENGTH}
 * characters, RE2 syntax (what Kubernetes checks CRD patterns with, and what kurel matches
 * values with, in linear time) and an ECMAScript regular expression with the `u` flag under
 * Node 20 (what JSON Schema tools and editors read). Pure: nothing is compiled, and a verdict
 * is remembered for the next definitions that share the pattern (folders repeat a few).
 */
export function checkPattern(pattern: string): PatternVerdict {
  let verdict = verdicts.get(pattern);
  if (verdict === undefined) {
    verdict = judgePattern(pattern);
    if (verdicts.size >= PATTERN_CACHE_SIZE) verdicts.delete(verdicts.keys().next().value as string);
    verdicts.set(pattern, verdict);
  }
  return verdict;
}

// Verdicts by pattern, oldest first out: the same patterns come back in every definition of a
// folder and at every reload. Bounded like the compiled patterns, and far smaller each.
const verdicts = new Map<string, PatternVerdict>();

function judgePattern(pattern: string): PatternVerdict {
  if (pattern.length > PATTERN_MAX_LENGTH) {
    return refuse(`is ${pattern.length} characters long; the limit is ${PATTERN_MAX_LENGTH}`);
  }
  // Sized before RE2 parses it: RE2's simplification copies every counted repetition, so its
  // cost is the program's size, and a pattern past the limit must cost no more than its length.
  const parsed = parseEcmaScriptOrUndefined(pattern);
  const programSize = parsed === undefined ? undefined : programSizeOf(parsed);
  // Parsing above costs no more than the pattern's length; RE2's parse below, its program's size.
  if (programSize !== undefined) chargeWork(Math.min(programSize, PATTERN_MAX_PROGRAM) * VERDICT_STEPS_PER_INSTRUCTION);
  if (programSize !== undefined && programSize > PATTERN_MAX_PROGRAM) {
    const shown = programSize > PATTERN_MAX_PROGRAM * 1000 ? `more than ${PATTERN_MAX_PROGRAM * 1000}` : String(programSize);
    return Object.freeze({
      ok: false,
      reason: `compiles to ${shown} instructions; the limit is ${PATTERN_MAX_PROGRAM}, as each counted repetition copies what it repeats`,
      tooComplex: true,
    });
  }
  const re2Complaint = re2SyntaxError(pattern);
  if (re2Complaint !== undefined) return refuse(re2Complaint);
  try {
    new RegExp(pattern, 'u');
  } catch (err) {
    return refuse(`does not compile as an ECMAScript regular expression with the u flag: ${v8Complaint(err)}`);
  }
  // RE2 reads `\12` as an octal escape, ECMAScript as a backreference once there are 12 groups:
  // both compile it, so only the ECMAScript syntax tree can tell (parsed only when a digit is escaped).
  if (/\\[1-9]/.test(pattern)) {
    const reference = firstBackreference(parsed ?? parseEcmaScript(pattern));
    if (reference !== undefined) return refuse(`uses a backreference ${reference}, ${LINEAR_TIME}`);
  }
  return Object.freeze({ ok: true, programSize: programSize ?? programSizeOf(parseEcmaScript(pattern)) });
}

/**
 * The size of the program `pattern` (one {@link checkPattern} accepts) compiles to, in
 * instructions, counted as RE2 counts it: a character or class is one, a capturing group adds
 * two, `x*` two and `x+` or `x?` one, an alternation one per `|`, and `x{n,m}` is m copies of x
 * and m − n more; at least one for any part. Matching a value costs at most this many steps per
 * character. Remembered with the pattern's verdict.
 */
export function patternProgramSize(pattern: string): number {
  const verdict = checkPattern(pattern);
  if (!verdict.ok) throw new RangeError(`pattern ${JSON.stringify(pattern)} ${verdict.reason}`);
  return verdict.programSize;
}

// The count never goes past this, so that nested repetitions stay finite numbers.
const SIZE_CEILING = PATTERN_MAX_PROGRAM * 1000 + 1;

function programSizeOf(node: Node): number {
  let size: number;
  switch (node.type) {
    case 'alternative':
      size = sumOf(node.body);
      break;
    case 'disjunction':
      size = sumOf(node.body) + node.body.length - 1;
      break;
    case 'group':
      size = sumOf(node.body) + (node.behavior === 'normal' ? 2 : 0);
      break;
    case 'quantifier': {
      const sub = Math.max(1, programSizeOf(node.body[0] as Node));
      const { min, max } = node;
      if (max !== undefined) size = max * sub + (max - min);
      else if (min === 0) size = 2 + sub;
      else size = 1 + min * sub;
      break;
    }
    default:
      size = 1;
  }
  return Math.min(SIZE_CEILING, Math.max(1, size));
}

function sumOf(nodes: readonly Node[]): number {
  let size = 0;
  for (const node of nodes) size += Math.max(1, programSizeOf(node));
  return Math.min(SIZE_CEILING, size);
}

function refuse(reason: string): PatternVerdict {
  return Object.freeze({ ok: false, reason });
}

// Parsing is enough to know RE2 accepts: nothing after the parser refuses a pattern, and
// parsing costs about half of compiling (no program, no DFA set-up). RE2Set.add is re2js's
// public way to parse (and simplify) without compiling.
function re2SyntaxError(pattern: string): string | undefined {
  const re2 = loadRe2();
  try {
    new re2.RE2Set().add(pattern);
    return undefined;
  } catch (err) {
    if (!(err instanceof re2.RE2JSSyntaxException)) throw err;
    const description = err.getDescription();
    const quoted = err.getPattern();
    if (quoted === null) return `is not RE2 syntax, which Kubernetes requires of CRD patterns: ${description.toLowerCase()}`;
    if (description === 'invalid or unsupported Perl syntax' || description === 'invalid named capture') {
      const lookaround = LOOKAROUNDS.find(([prefix]) => quoted.startsWith(prefix));
      if (lookaround) return `uses ${lookaround[1]}, ${LINEAR_TIME}`;
    }
    if (description === 'invalid escape sequence') {
      // RE2 reads \1 to \7 before an octal digit as an octal escape, so what it refuses here is a backreference.
      if (/^\\[1-9]$/.test(quoted)) return `uses a backreference ${quoted}, ${LINEAR_TIME}`;
      if (quoted === '\\k') return `uses a backreference \\k<...>, ${LINEAR_TIME}`;
    }
    return `is not RE2 syntax, which Kubernetes requires of CRD patterns: ${description.toLowerCase()} ${JSON.stringify(quoted)}`;
  }
}

// V8 words it as "Invalid regular expression: /<pattern>/u: <complaint>"; complaints hold no ": ".
function v8Complaint(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(message.lastIndexOf(': ') + 2).toLowerCase();
}

/**
 * Compiled RE2 matchers for `pattern` values, one cache per catalogue. A pattern is compiled on
 * the first value it checks and kept until {@link PatternCache.maxSize} other patterns have been
 * used since (least recently used first out), so a long-running service that meets many
 * request-supplied patterns stays bounded.
 */
export class PatternCache {
  readonly #compiled = new Map<string, Compiled>();

  /** Keeps at most `maxSize` compiled patterns (a positive integer). */
  constructor(readonly maxSize: number = PATTERN_CACHE_SIZE) {
    if (!Number.isInteger(maxSize) || maxSize < 1) throw new RangeError(`a pattern cache holds at least 1 pattern, not ${maxSize}`);
  }

  /** Compiled patterns held now; never more than {@link PatternCache.maxSize}. */
  get size(): number {
    return this.#compiled.size;
  }

  /** True when `pattern` is compiled and held; does not count as a use. */
  has(pattern: string): boolean {
    return this.#compiled.has(pattern);
  }

  /**
   * True when `value` contains a match of `pattern` (an unanchored search, as JSON Schema's
   * `pattern` means), with RE2's semantics and in time linear in `value`'s length. `pattern`
   * must be one {@link checkPattern} accepts; any other throws.
   */
  test(pattern: string, value: string): boolean {
    const compiled = this.#compiledOf(pattern);
    // At most the program's size in steps per character (docs/definitions.md "Patterns").
    chargeWork(compiled.programSize * (value.length + 1));
    return compiled.matcher.test(value);
  }

  #compiledOf(pattern: string): Compiled {
    let compiled = this.#compiled.get(pattern);
    if (compiled) {
      // Re-inserted, so the Map's insertion order is the order of last use.
      this.#compiled.delete(pattern);
    } else {
      const verdict = checkPattern(pattern);
      if (!verdict.ok && verdict.tooComplex) throw new RangeError(`pattern ${JSON.stringify(pattern)} ${verdict.reason}`);
      // Any other refused pattern is refused by RE2's compiler below, with its own words.
      const programSize = verdict.ok ? verdict.programSize : 1;
      chargeWork(programSize * COMPILE_STEPS_PER_INSTRUCTION);
      compiled = { matcher: loadRe2().RE2JS.compile(pattern), programSize };
      if (this.#compiled.size >= this.maxSize) this.#compiled.delete(this.#compiled.keys().next().value!);
    }
    this.#compiled.set(pattern, compiled);
    return compiled;
  }
}

interface Compiled {
  readonly matcher: Re2js.RE2JS;
  readonly programSize: number;
}

// What RE2's `\s` matches (Perl's class: tab, newline, form feed, carriage return, space).
const RE2_WHITESPACE = [0x09, 0x0a, 0x0c, 0x0d, 0x20] as const;

/**
 * The ECMAScript form of `pattern` (one {@link checkPattern} accepts) that matches what RE2
 * matches, for the published JSON Schema: `.` becomes `[^\n]`, `\s` `[\t\n\f\r ]` and `\S`
 * `[^\t\n\f\r ]`, inside character classes too; everything else is kept. The result is
 * itself RE2 syntax with the same meaning in both engines. Throws on a pattern that is not
 * an ECMAScript regular expression with the `u` flag.
 */
export function publishPattern(pattern: string): string {
  const parsed = parseEcmaScript(pattern);
  const rewritten = rewriteNode(parsed);
  // Regenerating respells some syntax (`{0,1}` as `?`): a pattern with nothing to rewrite is kept as written.
  return rewritten === parsed ? pattern : loadRegjsgen().generate(rewritten);
}

const ECMASCRIPT_FEATURES = { unicodePropertyEscape: true, namedGroups: true, lookbehind: true } as const;
type Features = typeof ECMASCRIPT_FEATURES;
type Node = Regjsparser.RootNode<Features>;
type ClassMember = Regjsparser.CharacterClassBody;

function parseEcmaScript(pattern: string): Node {
  return loadRegjsparser().parse(pattern, 'u', ECMASCRIPT_FEATURES);
}

// A pattern ECMAScript refuses is refused below with the reason RE2 or V8 gives.
function parseEcmaScriptOrUndefined(pattern: string): Node | undefined {
  try {
    return parseEcmaScript(pattern);
  } catch {
    return undefined;
  }
}

function firstBackreference(node: Node): string | undefined {
  switch (node.type) {
    case 'reference':
      return node.raw;
    case 'alternative':
    case 'disjunction':
    case 'group':
    case 'quantifier':
      for (const child of node.body) {
        const found = firstBackreference(child);
        if (found !== undefined) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

function rewriteNode(node: Node): Node {
  switch (node.type) {
    case 'dot':
      return characterClass(true, [value(0x0a)], node);
    case 'characterClassEscape':
      if (node.value === 's' || node.value === 'S') return characterClass(node.value === 'S', RE2_WHITESPACE.map(value), node);
      return node;
    case 'characterClass':
      return rewriteClass(node);
    case 'alternative':
    case 'disjunction':
    case 'group':
    case 'quantifier': {
      const body = node.body.map(rewriteNode);
      return body.every((child, i) => child === node.body[i]) ? node : ({ ...node, body } as Node);
    }
    default:
      return node;
  }
}

// `\s` in a class contributes RE2's five whitespace characters. `\S` cannot be listed as
// members, so a class holding it is rebuilt from what it leaves out: `[\S<rest>]` matches
// everything but the whitespace characters <rest> does not match (`[\S\d]` is `[^\t\n\f\r ]`,
// `[\S\n]` is `[^\t\f\r ]`), and `[^\S<rest>]` exactly those (`[^\S\n]` is `[\t\f\r ]`). Only
// five characters are in question, so each is tried against <rest>. When none is left out,
// the class matches everything (`[\d\D]`) or, negated, nothing (`[^\d\D]`): both spellings
// mean the same in RE2 and ECMAScript, unlike `[^]`, which RE2 refuses.
function rewriteClass(node: Regjsparser.CharacterClass<Features>): Node {
  const hasNonSpace = node.body.some((member) => member.type === 'characterClassEscape' && member.value === 'S');
  if (!hasNonSpace) {
    if (!node.body.some((member) => member.type === 'characterClassEscape' && member.value === 's')) return node;
    const body = node.body.flatMap((member) => (member.type === 'characterClassEscape' && member.value === 's' ? RE2_WHITESPACE.map(value) : [member]));
    return { ...node, body };
  }
  const rest = node.body.filter((member) => !(member.type === 'characterClassEscape' && member.value === 'S'));
  const leftOut = RE2_WHITESPACE.filter((codePoint) => !rest.some((member) => memberMatches(member, codePoint)));
  if (leftOut.length === 0) return characterClass(node.negative, [classEscape('d'), classEscape('D')], node);
  return characterClass(!node.negative, leftOut.map(value), node);
}

// Whether a class member (other than `\S`) matches one of RE2's whitespace characters. For
// these five the two engines agree on every member, `\s` included, so ECMAScript decides.
function memberMatches(member: ClassMember, codePoint: number): boolean {
  switch (member.type) {
    case 'value':
      return member.codePoint === codePoint;
    case 'characterClassRange':
      return member.min.codePoint <= codePoint && codePoint <= member.max.codePoint;
    default:
      return new RegExp(loadRegjsgen().generate(member), 'u').test(String.fromCodePoint(codePoint));
  }
}

function characterClass(negative: boolean, body: ClassMember[], at: Node): Node {
  return { type: 'characterClass', kind: 'union', negative, body, range: at.range, raw: at.raw };
}

function classEscape(letter: 'd' | 'D'): ClassMember {
  return { type: 'characterClassEscape', value: letter, range: [0, 0], raw: `\\${letter}` };
}

function value(codePoint: number): Regjsparser.Value {
  const escaped = ({ 9: 't', 10: 'n', 12: 'f', 13: 'r' } as Record<number, string>)[codePoint];
  return escaped === undefined
    ? { type: 'value', kind: 'symbol', codePoint, range: [0, 0], raw: String.fromCodePoint(codePoint) }
    : { type: 'value', kind: 'singleEscape', codePoint, range: [0, 0], raw: `\\${escaped}` };
}

// Loaded on first use, so a run whose definitions have no pattern never pays for them.
const requireLazily = createRequire(import.meta.url);
let re2: typeof Re2js | undefined;
let regjsparser: typeof Regjsparser | undefined;
let regjsgen: { generate(node: Node | ClassMember): string } | undefined;

function loadRe2(): typeof Re2js {
  re2 ??= requireLazily('re2js') as typeof Re2js;
  return re2;
}

function loadRegjsparser(): typeof Regjsparser {
  regjsparser ??= requireLazily('regjsparser') as typeof Regjsparser;
  return regjsparser;
}

function loadRegjsgen(): { generate(node: Node | ClassMember): string } {
  regjsgen ??= requireLazily('regjsgen') as { generate(node: Node | ClassMember): string };
  return regjsgen;
}
