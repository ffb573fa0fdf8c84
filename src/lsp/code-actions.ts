import type { CodeAction, Diagnostic as LspDiagnostic, TextEdit as LspTextEdit, Range } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Catalogue } from '../catalogue/catalogue.js';
import { RAISE_ONLY_CODES } from '../core/diagnostics.js';
import { compareVersions } from '../core/versions.js';
import type { ProfileOutcome } from '../operations/lint.js';
import type { TextChange, TextEdit } from '../yaml/text-edits.js';
import { dataOf } from './protocol-diagnostics.js';
import type { TextActions, TextActionsRequest } from './text-actions.js';
import type { PlaceInText } from './yaml-at.js';

/** What the code actions of one request may use besides the document. */
export interface ActionContext {
  /** The name lint gives the file. */
  file: string;
  /** The kurel diagnostics the client sent back for the range. */
  diagnostics: readonly LspDiagnostic[];
  /** The catalogue and profile of the file's last judgement, for the binding actions. */
  catalogue: Catalogue | undefined;
  profile: ProfileOutcome | undefined;
  /** The key at the range's start, as the reading thread found it (text-reading.ts); none offers no binding actions. */
  place?: PlaceInText | undefined;
}

/** How many later versions a binding offers to migrate to (the newest first). */
const MIGRATION_CHOICES = 3;

/**
 * Where the parts of code actions that parse the whole text are made: the judging thread, so a
 * large file never holds up the server. Undefined when there is no answer in time.
 */
export type ActionWork = (request: TextActionsRequest) => Promise<TextActions | undefined>;

// A code action whose edits are made from the parsed text, by data path.
interface PlannedAction {
  action: Omit<CodeAction, 'edit'>;
  edits: TextEdit[];
}

/**
 * The quick fixes of a range (docs/editors.md): a diagnostic's hint applied (the did-you-mean
 * key, a value quoted or unquoted as the hint writes it, the `version` an unpinned binding
 * needs), a `# kurel-disable-next-line` comment for any diagnostic a comment may silence, and on
 * a binding of a versioned definition under the cursor its pin and its migrations to later
 * versions through `kurel migrate`'s own edits. Edits that need the text parsed (a pin, a
 * migration) are made by `work`; the others here. An action whose edits `work` could not make
 * is left out. The binding under the cursor is `context.place`, the key at the range's start.
 */
export async function codeActions(document: TextDocument, _range: Range, context: ActionContext, work: ActionWork): Promise<CodeAction[]> {
  const slots: (CodeAction | PlannedAction)[] = [];
  for (const diagnostic of context.diagnostics) {
    const data = dataOf(diagnostic);
    if (!data) continue;
    const fix = data.hint === undefined ? undefined : hintFix(document, diagnostic, data.hint, data.path);
    if (fix) {
      const action = { title: fix.title, kind: 'quickfix', diagnostics: [diagnostic], isPreferred: true };
      slots.push('edits' in fix ? { action, edits: fix.edits } : { ...action, edit: { changes: { [document.uri]: fix.changes } } });
    }
    const code = typeof diagnostic.code === 'string' ? diagnostic.code : undefined;
    if (code && !RAISE_ONLY_CODES.has(code)) slots.push(suppression(document, diagnostic, code));
  }
  const pin = pinAction(context);
  if (pin) slots.push(pin);
  const plans = slots.filter((slot): slot is PlannedAction => 'edits' in slot);
  const migrate = migrationsWanted(context);
  if (plans.length === 0 && !migrate) return slots as CodeAction[];
  const made = await work({ plans: plans.map((p) => p.edits), migrate });
  const actions: CodeAction[] = [];
  for (const slot of slots) {
    if (!('edits' in slot)) {
      actions.push(slot);
      continue;
    }
    const changes = made?.changes[plans.indexOf(slot)];
    if (changes) actions.push({ ...slot.action, edit: { changes: { [document.uri]: lspEdits(document, changes) } } });
  }
  if (migrate && made) {
    for (const m of made.migrations) {
      actions.push({
        title: `migrate ${migrate.type} to ${m.version} (kurel migrate)`,
        kind: 'refactor.rewrite',
        edit: { changes: { [document.uri]: [wholeChange(document, m.before, m.after)] } },
      });
    }
  }
  return actions;
}

// Hints that name the text to write in place of the value or key the diagnostic points at.
const REPLACEMENTS: readonly { pattern: RegExp; title: (text: string) => string; text: (match: RegExpMatchArray) => string }[] = [
  { pattern: /^did you mean (.+)\?$/, title: (t) => `change to ${t}`, text: (m) => m[1]! },
  { pattern: /^quote it(?: with a unit)?: (".*")$/, title: (t) => `write ${t}`, text: (m) => m[1]! },
  { pattern: /^remove the quotes: (.+)$/, title: (t) => `write ${t}`, text: (m) => m[1]! },
  { pattern: /^write (true|false) \(YAML 1\.2 reads /, title: (t) => `write ${t}`, text: (m) => m[1]! },
  { pattern: /^write (\S+) without quotes$/, title: (t) => `write ${t}`, text: (m) => m[1]! },
];

function hintFix(
  document: TextDocument,
  diagnostic: LspDiagnostic,
  hint: string,
  pointer: string,
): { title: string; changes: LspTextEdit[] } | { title: string; edits: TextEdit[] } | undefined {
  if (diagnostic.code === 'unpinned-capability') return pinFix(hint, pointer);
  for (const replacement of REPLACEMENTS) {
    const match = hint.match(replacement.pattern);
    if (!match) continue;
    let text = replacement.text(match);
    const written = document.getText(diagnostic.range);
    // A renamed key keeps the quotes it was written with.
    if (diagnostic.code === 'unknown-field' && /^["']/.test(written)) text = `${written[0]}${text}${written[0]}`;
    return { title: replacement.title(text), changes: [{ range: diagnostic.range, newText: text }] };
  }
  return undefined;
}

// `add version: "1.1" to stay on 1.1.0`: the binding gets that `version`, as `kurel migrate` writes a key.
function pinFix(hint: string, pointer: string): { title: string; edits: TextEdit[] } | undefined {
  const match = hint.match(/^add version: ("[^"]*")/);
  if (!match) return undefined;
  const version = JSON.parse(match[1]!) as string;
  return { title: `pin to version "${version}"`, edits: [{ kind: 'insert-first', path: pathOf(pointer), key: 'version', value: version }] };
}

function suppression(document: TextDocument, diagnostic: LspDiagnostic, code: string): CodeAction {
  const line = diagnostic.range.start.line;
  const text = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  const indent = /^[ \t]*/.exec(text)![0];
  const newText = `${indent}# kurel-disable-next-line ${code} -- reason\n`;
  return {
    title: `silence ${code} on this line (# kurel-disable-next-line)`,
    kind: 'quickfix',
    diagnostics: [diagnostic],
    edit: { changes: { [document.uri]: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, newText }] } },
  };
}

// The migrations a range offers: the binding under the cursor to its later versions, the newest first.
interface WantedMigrations {
  /** The binding's capability type, as `kurel migrate --to TYPE@VERSION` names it. */
  type: string;
  versions: string[];
}

// The binding of a versioned definition under the cursor, with what it resolved to.
function bindingAt(context: ActionContext) {
  const { catalogue, profile } = context;
  if (!catalogue || !profile) return undefined;
  const { place } = context;
  if (!place || place.path.length < 3 || place.path[0] !== 'spec' || place.path[1] !== 'capabilities') return undefined;
  const binding = profile.bindings.find((b) => b.key === place.path[2]);
  if (!binding?.version || catalogue.versionSource(binding.type) !== 'definition') return undefined;
  return { binding: { ...binding, version: binding.version }, catalogue };
}

// On a binding of a versioned definition: pin it to the version it resolves to, when it has no pin.
function pinAction(context: ActionContext): PlannedAction | undefined {
  const at = bindingAt(context);
  if (!at) return undefined;
  const { binding } = at;
  // Without --require-pinned there is no diagnostic (and no hint): the pin is the exact version it resolves to.
  if (binding.pin !== undefined || context.diagnostics.some((d) => d.code === 'unpinned-capability')) return undefined;
  return {
    action: { title: `pin ${binding.key} to version "${binding.version}"`, kind: 'refactor.rewrite' },
    edits: [{ kind: 'insert-first', path: ['spec', 'capabilities', binding.key], key: 'version', value: binding.version }],
  };
}

// The later versions the binding under the cursor may migrate to, when it is a binding of a versioned definition.
function migrationsWanted(context: ActionContext): WantedMigrations | undefined {
  const at = bindingAt(context);
  if (!at) return undefined;
  const from = at.binding.version;
  const versions = at.catalogue
    .versionsOf(at.binding.type)
    .filter((v) => compareVersions(v, from) > 0)
    .sort((a, b) => compareVersions(b, a))
    .slice(0, MIGRATION_CHOICES);
  return versions.length > 0 ? { type: at.binding.type, versions } : undefined;
}

// One edit spanning what differs between the texts, so the editor keeps the cursor and folds elsewhere.
function wholeChange(document: TextDocument, before: string, after: string): LspTextEdit {
  const bom = document.getText().startsWith('\uFEFF') ? 1 : 0;
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return {
    range: { start: document.positionAt(start + bom), end: document.positionAt(before.length - end + bom) },
    newText: after.slice(start, after.length - end),
  };
}

function lspEdits(document: TextDocument, changes: readonly TextChange[]): LspTextEdit[] {
  return changes.map((c) => ({ range: { start: document.positionAt(c.start), end: document.positionAt(c.end) }, newText: c.text }));
}

/** A JSON Pointer as a data path (RFC 6901); every segment a key, which is how a binding path reads. */
export function pathOf(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
