import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActions } from '../../src/lsp/code-actions.js';
import { applyEdits } from './client.js';

const URI = 'file:///repo/cluster.yaml';

/** The quick fix a diagnostic with `hint` at [line, start, end) of `text` offers, applied. */
function fixed(text: string, code: string, hint: string, line: number, start: number, end: number): { title: string; text: string } | undefined {
  const document = TextDocument.create(URI, 'yaml', 1, text);
  const range = { start: { line, character: start }, end: { line, character: end } };
  const diagnostic: Diagnostic = { range, severity: 1, code, source: 'kurel', message: 'm', data: { path: '/spec', hint } };
  const action = codeActions(document, range, {
    file: 'cluster.yaml',
    diagnostics: [diagnostic],
    catalogue: undefined,
    profile: undefined,
  }).find((a) => a.isPreferred);
  return action ? { title: action.title, text: applyEdits(text, action.edit!.changes![URI]!) } : undefined;
}

describe('quick fixes from hints', () => {
  it.each([
    ['unknown-field', 'did you mean replicas?', 'replicsa: 2', 0, 8, 'change to replicas', 'replicas: 2'],
    ['unknown-field', 'did you mean replicas?', '"replicsa": 2', 0, 10, 'change to "replicas"', '"replicas": 2'],
    ['unknown-capability', 'did you mean expose?', 'expos: {}', 0, 5, 'change to expose', 'expose: {}'],
    ['wrong-type', 'quote it: "1.10"', 'version: 1.10', 9, 13, 'write "1.10"', 'version: "1.10"'],
    ['wrong-type', 'quote it with a unit: "30s"', 'timeout: 30', 9, 11, 'write "30s"', 'timeout: "30s"'],
    ['wrong-type', 'remove the quotes: true', 'on: "true"', 4, 10, 'write true', 'on: true'],
    ['wrong-type', 'write true (YAML 1.2 reads "yes" as a string)', 'on: yes', 4, 7, 'write true', 'on: true'],
    ['wrong-type', 'write false (YAML 1.2 reads "off" as a string)', 'on: off', 4, 7, 'write false', 'on: false'],
    ['wrong-type', 'write 3 without quotes', 'replicas: "3"', 10, 13, 'write 3', 'replicas: 3'],
  ])('%s with the hint %j', (code, hint, text, start, end, title, after) => {
    expect(fixed(`${text}\n`, code, hint, 0, start, end)).toEqual({ title, text: `${after}\n` });
  });

  it('offers no fix for a hint that names no text to write', () => {
    expect(fixed('a: 1\n', 'unknown-field', 'see kurel schema', 0, 0, 1)).toBeUndefined();
  });

  it('offers a suppression comment, indented as the line, except for codes no comment may silence', () => {
    const text = 'spec:\n  capabilities:\n    mystery: {}\n';
    const document = TextDocument.create(URI, 'yaml', 1, text);
    const range = { start: { line: 2, character: 4 }, end: { line: 2, character: 11 } };
    const of = (code: string) =>
      codeActions(document, range, {
        file: 'cluster.yaml',
        diagnostics: [{ range, severity: 2, code, source: 'kurel', message: 'm', data: { path: '/spec/capabilities/mystery' } }],
        catalogue: undefined,
        profile: undefined,
      });
    const [silence] = of('unknown-capability');
    expect(applyEdits(text, silence!.edit!.changes![URI]!)).toBe(
      'spec:\n  capabilities:\n    # kurel-disable-next-line unknown-capability -- reason\n    mystery: {}\n',
    );
    expect(of('lock-outdated')).toEqual([]);
  });
});
