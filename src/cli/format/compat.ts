import { isPrerelease } from '../../core/versions.js';
import type { CompatFinding, CompatPair } from '../../operations/compat.js';
import { bumpCovers, type ChangeClass, neededBump } from '../../schema/compare.js';
import { escapeControls } from './escape.js';
import { escapeData, escapeProperty } from './github.js';
import type { Palette, ProblemCounts } from './text.js';

const CLASS_ORDER: readonly ChangeClass[] = ['breaking', 'compatible', 'patch'];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The line that sums up a pair (docs/compat.md): `redis-sidecar 2.1.0 → 2.2.0 declares minor;
 * needs major: 3 breaking changes`. An unversioned side is written `unversioned` and declares
 * nothing; a pair with a prerelease says it never fails.
 */
export function describePair(pair: CompatPair): string {
  const from = pair.from ?? 'unversioned';
  const to = pair.to ?? 'unversioned';
  const declares = pair.declared === null ? '' : ` declares ${pair.declared};`;
  const counts = CLASS_ORDER.map((c) => [c, pair.findings.filter((f) => f.class === c).length] as const)
    .filter(([, n]) => n > 0)
    .map(([c, n]) => plural(n, `${c} change`));
  let why = counts.join(', ');
  if (counts.length === 0) why = pair.needed === 'none' ? 'no differences' : 'the documents differ, and a published version never changes';
  const isPrereleasePair = pair.declared !== null && pair.from !== pair.to && (isPrerelease(pair.from!) || isPrerelease(pair.to!));
  const note = isPrereleasePair ? ' (a prerelease: reported, never failing)' : '';
  return `${pair.name} ${from} → ${to}${declares} needs ${pair.needed}: ${why}${note}`;
}

/** The version a failing pair should have been released as; undefined for a pair that is ok. */
export function releaseAdvice(pair: CompatPair): string | undefined {
  if (pair.ok || pair.releaseAs === undefined) return undefined;
  return `release it as ${pair.releaseAs}`;
}

/**
 * `kurel compat` as text: each pair's summary line, then its findings as
 * `file:line:col class message`, then a hint for a failing pair; a last line counts the pairs
 * and the problems of the documents (shown or not).
 */
export function formatCompatText(pairs: readonly CompatPair[], problems: ProblemCounts, palette: Palette): string {
  const lines: string[] = [];
  const paint: Record<ChangeClass, (text: string) => string> = { breaking: palette.red, compatible: palette.yellow, patch: palette.dim };
  for (const pair of pairs) {
    lines.push(palette.bold(escapeControls(describePair(pair))));
    for (const f of pair.findings) {
      lines.push(`  ${escapeControls(`${f.file}:${f.line}:${f.column}`)} ${paint[f.class](f.class)} ${escapeControls(f.message)}`);
    }
    const advice = releaseAdvice(pair);
    if (advice) lines.push(`  ${palette.cyan('hint:')} ${advice}`);
  }
  const failing = pairs.filter((p) => !p.ok).length;
  let summary = plural(pairs.length, 'pair');
  if (pairs.length > 0) summary += failing === 0 ? ' compared: all ok' : ` compared: ${failing} not ok`;
  else summary += ' compared';
  if (problems.errors + problems.warnings > 0) summary += `; ${plural(problems.errors, 'error')}, ${plural(problems.warnings, 'warning')}`;
  lines.push(summary);
  return lines.join('\n');
}

/**
 * `kurel compat` for GitHub Actions: each pair's summary as a log line and each finding as an
 * annotation at its key, an `error` where the finding alone needs more than the pair declares
 * (in a pair that fails), else a `notice`.
 */
export function formatCompatGithub(pairs: readonly CompatPair[]): string {
  const lines: string[] = [];
  for (const pair of pairs) {
    lines.push(escapeControls(describePair(pair)));
    for (const finding of pair.findings) lines.push(annotationOf(pair, finding));
  }
  return lines.join('\n');
}

function annotationOf(pair: CompatPair, finding: CompatFinding): string {
  const alone = neededBump([finding], pair.from ?? undefined);
  const isFailing = !pair.ok && pair.declared !== null && !bumpCovers(pair.declared, alone);
  const properties = [
    ['file', escapeControls(finding.file)],
    ['line', String(finding.line)],
    ['col', String(finding.column)],
    ['title', `kurel compat ${finding.class}`],
  ]
    .map(([name, value]) => `${name}=${escapeProperty(value!)}`)
    .join(',');
  const versions = `${pair.name} ${pair.from ?? 'unversioned'} → ${pair.to ?? 'unversioned'}`;
  const verdict = isFailing ? ` (needs ${alone}; the versions declare ${pair.declared})` : '';
  return `::${isFailing ? 'error' : 'notice'} ${properties}::${escapeData(escapeControls(`${versions}: ${finding.message}${verdict}`))}`;
}
