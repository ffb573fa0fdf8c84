import { DIAGNOSTIC_CODES, type Diagnostic, isDiagnosticCode, RAISE_ONLY_CODES } from '../core/diagnostics.js';
import { didYouMean } from '../core/suggest.js';
import type { SourceText } from '../yaml/source.js';
import { readSuppressionComments, SUPPRESSION_FORMS, type SuppressionComment } from '../yaml/suppression-comments.js';

/**
 * Codes no comment in a file may silence (docs/configuration.md): those that decide whether a run can
 * be trusted, and `unused-suppression` itself, which is about the comments.
 */
export function isUnsuppressible(code: string): boolean {
  return RAISE_ONLY_CODES.has(code) || code === 'unused-suppression';
}

interface Directive {
  comment: SuppressionComment;
  codes: string[];
  reason: string | undefined;
  used: Set<string>;
}

const GRAMMAR = 'kurel-disable-next-line CODE[, CODE...] [-- reason], or kurel-disable CODE[, CODE...] [-- reason] before a document';

/**
 * Applies the suppression comments of each file (docs/configuration.md): a problem on a line a
 * `# kurel-disable-next-line` covers, or in a document a `# kurel-disable` covers, whose code the
 * comment names, is marked `suppressed` (with the comment's reason); it stays in the run but no
 * longer counts. A comment or a code in it that silences nothing, a malformed comment, an
 * unknown code and a code that cannot be silenced are each an `unused-suppression` warning at
 * the comment's `#`. A code the command never reports (`unjudged`: build's `unknown-capability`)
 * is no `unused-suppression`, so one file and one comment serve every command (docs/build.md).
 * Returns new diagnostics; never mutates its input.
 */
export function applySuppressions(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, SourceText>,
  unjudged: ReadonlySet<string> = new Set(),
): Diagnostic[] {
  const byFile = new Map<string, Directive[]>();
  const notes: Diagnostic[] = [];
  for (const [file, source] of sources) {
    const comments = readSuppressionComments(source);
    if (comments.length === 0) continue;
    const directives: Directive[] = [];
    for (const comment of comments) {
      const read = readDirective(comment);
      for (const { problem, hint } of read.problems) notes.push(note(source, comment, problem, hint));
      if (read.directive) directives.push(read.directive);
    }
    byFile.set(file, directives);
  }
  if (byFile.size === 0) return [...diagnostics];

  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const directives = byFile.get(d.file);
    if (!directives || d.suppressed !== undefined || isUnsuppressible(d.code)) {
      out.push(d);
      continue;
    }
    const by = directives.find((x) => x.codes.includes(d.code) && x.comment.covers && d.line >= x.comment.covers.from && d.line <= x.comment.covers.to);
    if (!by) {
      out.push(d);
      continue;
    }
    by.used.add(d.code);
    out.push({ ...d, suppressed: by.reason === undefined ? {} : { reason: by.reason } });
  }
  for (const [file, directives] of byFile) {
    const source = sources.get(file)!;
    for (const directive of directives) {
      const { comment } = directive;
      if (!comment.covers) {
        const problem =
          comment.keyword === 'kurel-disable'
            ? 'kurel-disable silences nothing here: it covers a document only when written before its first content'
            : 'kurel-disable-next-line silences nothing: no line with content follows it';
        notes.push(
          note(source, comment, problem, comment.keyword === 'kurel-disable' ? 'move it above the document, or use kurel-disable-next-line' : undefined),
        );
        continue;
      }
      const where = comment.keyword === 'kurel-disable' ? 'in this document' : `on line ${comment.covers.from}`;
      for (const code of directive.codes) {
        if (!directive.used.has(code) && !unjudged.has(code))
          notes.push(note(source, comment, `${comment.keyword} ${code} silences nothing: there is no ${code} problem ${where}`));
      }
    }
  }
  for (const n of notes) out.push(n);
  return out;
}

// The codes and reason of a comment, and what is wrong with it: a malformed comment has no
// codes; an unknown code, or one that cannot be silenced, is left out of the ones it has.
function readDirective(comment: SuppressionComment): { directive: Directive | undefined; problems: { problem: string; hint?: string }[] } {
  if (!(SUPPRESSION_FORMS as readonly string[]).includes(comment.keyword)) {
    const near = didYouMean(comment.keyword, SUPPRESSION_FORMS);
    return {
      directive: undefined,
      problems: [{ problem: `malformed suppression "${comment.keyword}": expected ${GRAMMAR}`, ...(near ? { hint: near } : {}) }],
    };
  }
  const split = /(?:^|\s)--(?:\s|$)/.exec(comment.body);
  const list = split ? comment.body.slice(0, split.index) : comment.body;
  const reasonText = split ? comment.body.slice(split.index + split[0].length).trim() : '';
  const written = list.split(',').map((code) => code.trim());
  if (list.trim() === '' || written.some((code) => code === '')) {
    const what = list.trim() === '' ? 'no code' : 'an empty code';
    return { directive: undefined, problems: [{ problem: `malformed suppression: ${comment.keyword} names ${what}; expected ${GRAMMAR}` }] };
  }
  const problems: { problem: string; hint?: string }[] = [];
  const codes: string[] = [];
  for (const code of written) {
    if (!isDiagnosticCode(code)) {
      const near = didYouMean(code, DIAGNOSTIC_CODES);
      problems.push({ problem: `${comment.keyword} names "${code}", which is not a kurel diagnostic code`, ...(near ? { hint: near } : {}) });
    } else if (isUnsuppressible(code)) {
      problems.push({ problem: `${code} cannot be silenced in a file: it decides whether a run can be trusted`, hint: 'fix the problem instead' });
    } else codes.push(code);
  }
  const directive = codes.length === 0 ? undefined : { comment, codes, reason: reasonText === '' ? undefined : reasonText, used: new Set<string>() };
  return { directive, problems };
}

function note(source: SourceText, comment: SuppressionComment, message: string, hint?: string): Diagnostic {
  const diagnostic = source.diagnosticAt('unused-suppression', message, source.firstLine(comment.range[0], comment.range[1]), [], 'warning');
  if (hint !== undefined) diagnostic.hint = hint;
  return diagnostic;
}
