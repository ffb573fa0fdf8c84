import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { type ActionWork, codeActions } from '../../src/lsp/code-actions.js';
import { editPlans } from '../../src/lsp/text-actions.js';
import { applyEdits } from './client.js';

const URI = 'file:///repo/cluster.yaml';

/** The judging thread's part, made here: the edits of `text`, no migration. */
const madeHere =
  (text: string): ActionWork =>
  async (request) => ({ changes: editPlans(text, request.plans), migrations: [] });

/** The quick fix a diagnostic with `hint` at [line, start, end) of `text` offers, applied. */
async function fixed(text: string, code: string, hint: string, line: number, start: number, end: number): Promise<{ title: string; text: string } | undefined> {
  const document = TextDocument.create(URI, 'yaml', 1, text);
  const range = { start: { line, character: start }, end: { line, character: end } };
  const diagnostic: Diagnostic = { range, severity: 1, code, source: 'kurel', message: 'm', data: { path: '/spec', hint } };
  const actions = await codeActions(
    document,
    range,
    { file: 'cluster.yaml', diagnostics: [diagnostic], catalogue: undefined, profile: undefined },
    madeHere(text),
  );
  const action = actions.find((a) => a.isPreferred);
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
  ])('%s with the hint %j', async (code, hint, text, start, end, title, after) => {
    expect(await fixed(`${text}\n`, code, hint, 0, start, end)).toEqual({ title, text: `${after}\n` });
  });

  it('offers no fix for a hint that names no text to write', async () => {
    expect(await fixed('a: 1\n', 'unknown-field', 'see kurel schema', 0, 0, 1)).toBeUndefined();
  });

  it('pins an unpinned binding with the edits the judging thread makes, and leaves the pin out without them', async () => {
    const text = 'spec:\n  capabilities:\n    cache:\n      rendering: {}\n';
    const document = TextDocument.create(URI, 'yaml', 1, text);
    const range = { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } };
    const hint = 'add version: "1.1" to stay on 1.1.0';
    const diagnostic: Diagnostic = {
      range,
      severity: 1,
      code: 'unpinned-capability',
      source: 'kurel',
      message: 'm',
      data: { path: '/spec/capabilities/cache', hint },
    };
    const context = { file: 'cluster.yaml', diagnostics: [diagnostic], catalogue: undefined, profile: undefined };
    const asked: unknown[] = [];
    const made = await codeActions(document, range, context, async (request) => {
      asked.push(request);
      return madeHere(text)(request);
    });
    expect(asked).toEqual([{ plans: [[{ kind: 'insert-first', path: ['spec', 'capabilities', 'cache'], key: 'version', value: '1.1' }]], migrate: undefined }]);
    expect(made.map((a) => a.title)).toEqual(['pin to version "1.1"', 'silence unpinned-capability on this line (# kurel-disable-next-line)']);
    expect(applyEdits(text, made[0]!.edit!.changes![URI]!)).toBe('spec:\n  capabilities:\n    cache:\n      version: "1.1"\n      rendering: {}\n');
    const unanswered = await codeActions(document, range, context, async () => undefined);
    expect(unanswered.map((a) => a.title)).toEqual(['silence unpinned-capability on this line (# kurel-disable-next-line)']);
  });

  it('offers a suppression comment, indented as the line, except for codes no comment may silence', async () => {
    const text = 'spec:\n  capabilities:\n    mystery: {}\n';
    const document = TextDocument.create(URI, 'yaml', 1, text);
    const range = { start: { line: 2, character: 4 }, end: { line: 2, character: 11 } };
    const diagnostics = (code: string) => [{ range, severity: 2 as const, code, source: 'kurel', message: 'm', data: { path: '/spec/capabilities/mystery' } }];
    // Nothing here needs the text parsed: the judging thread is not asked.
    const unasked: ActionWork = () => Promise.reject(new Error('asked the judging thread'));
    const of = (code: string) =>
      codeActions(document, range, { file: 'cluster.yaml', diagnostics: diagnostics(code), catalogue: undefined, profile: undefined }, unasked);
    const [silence] = await of('unknown-capability');
    expect(applyEdits(text, silence!.edit!.changes![URI]!)).toBe(
      'spec:\n  capabilities:\n    # kurel-disable-next-line unknown-capability -- reason\n    mystery: {}\n',
    );
    expect(await of('lock-outdated')).toEqual([]);
  });
});
