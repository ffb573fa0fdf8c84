import { type Diagnostic, RAISE_ONLY_CODES } from '../core/diagnostics.js';
import type { SeverityRules } from '../documents/kurel-config.js';

/** The severities one input file is judged with (docs/configuration.md), by the file as named. */
export type SeverityOf = (file: string) => SeverityRules;

/**
 * Gives each diagnostic the severity its file's rules name for its code, and drops those
 * turned `off`. A code that may only be raised keeps at least its own severity whatever the
 * rules say (the configuration refuses such rules; this keeps any other caller honest).
 * Returns new diagnostics; never mutates its input.
 */
export function applySeverities(diagnostics: readonly Diagnostic[], severityOf: SeverityOf): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const level = severityOf(d.file)[d.code];
    if (level === undefined || level === d.severity) {
      out.push(d);
      continue;
    }
    if (RAISE_ONLY_CODES.has(d.code) && d.severity === 'error') {
      out.push(d);
      continue;
    }
    if (level !== 'off') out.push({ ...d, severity: level });
  }
  return out;
}
