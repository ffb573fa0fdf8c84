import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import type { Diagnostic } from '../core/diagnostics.js';
import { packageRoot } from '../files/package-files.js';

/** What a published diagnostic carries besides its text, for code actions. */
export interface KurelDiagnosticData {
  /** The JSON Pointer of the node the diagnostic is about. */
  path: string;
  hint?: string;
}

/** LSP severities: 1 is an error, 2 a warning. */
const SEVERITY = { error: 1, warning: 2 } as const;

// Each code's explanation page (what `kurel explain CODE` prints), as shipped in the package; undefined when missing.
const explanations = new Map<string, string | undefined>();
function explanationOf(code: string): string | undefined {
  if (!explanations.has(code)) {
    const page = join(packageRoot(), 'docs', 'codes', `${code}.md`);
    explanations.set(code, existsSync(page) ? pathToFileURL(page).href : undefined);
  }
  return explanations.get(code);
}

/**
 * A kurel diagnostic as the Language Server Protocol publishes it: the same code, severity and
 * message; the range 0-based (kurel's lines and columns are 1-based, both count UTF-16 units);
 * the code's explanation page as its description; the hint and the path as data, for the code
 * actions.
 */
export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  const data: KurelDiagnosticData = { path: d.path, ...(d.hint !== undefined ? { hint: d.hint } : {}) };
  const href = explanationOf(d.code);
  return {
    ...(href ? { codeDescription: { href } } : {}),
    range: { start: { line: d.line - 1, character: d.column - 1 }, end: { line: d.endLine - 1, character: d.endColumn - 1 } },
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'kurel',
    message: d.message,
    data,
  };
}

/** A diagnostic for a judgement that could not finish (it threw, or ran past its deadline), at the file's start. */
export function failureDiagnostic(message: string): LspDiagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 1, source: 'kurel', message };
}

/** The data a kurel diagnostic was published with, when the client sent it back intact. */
export function dataOf(d: LspDiagnostic): KurelDiagnosticData | undefined {
  const data = d.data as Partial<KurelDiagnosticData> | undefined;
  if (d.source !== 'kurel' || typeof data?.path !== 'string') return undefined;
  return { path: data.path, ...(typeof data.hint === 'string' ? { hint: data.hint } : {}) };
}
