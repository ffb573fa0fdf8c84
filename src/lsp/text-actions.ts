import { migrateInputs } from '../operations/migrate.js';
import { editYamlText, type TextChange, type TextEdit } from '../yaml/text-edits.js';
import { displayName, type Repository } from './repository.js';

/** One migration of an open text: the text before and after `kurel migrate` moved a binding's type to `version`. */
export interface TextMigration {
  version: string;
  before: string;
  after: string;
}

/** What the code actions of one request need of the text parsed: YAML edits by data path, and migrations. */
export interface TextActionsRequest {
  /** The edits of each action that needs them: each set applied to the text on its own. */
  plans: TextEdit[][];
  /** The binding type to migrate, and the versions to migrate it to. */
  migrate?: { type: string; versions: string[] } | undefined;
}

/** What {@link actOnText} found: each plan's changes (null when refused or the text no longer holds its path), and the migrations. */
export interface TextActions {
  changes: (TextChange[] | null)[];
  migrations: TextMigration[];
}

/**
 * The parts of a text's code actions that parse the whole text (docs/editors.md), in the
 * judging thread: each plan's edits as `editYamlText` makes them, and the migrations of
 * `kurel migrate FILE --to TYPE@VERSION` run from the repository's folder. A version that
 * changes nothing, or that migrate refuses, is left out.
 */
export async function actOnText(repository: Repository, path: string, text: string, request: TextActionsRequest): Promise<TextActions> {
  const changes = editPlans(text, request.plans);
  const migrations = request.migrate ? await migrateText(repository, path, text, request.migrate.type, request.migrate.versions) : [];
  return { changes, migrations };
}

/** Each plan's changes to `text` as `editYamlText` makes them; null for a plan refused, or whose path the text no longer holds. */
export function editPlans(text: string, plans: readonly (readonly TextEdit[])[]): (TextChange[] | null)[] {
  return plans.map((plan) => {
    try {
      const edited = editYamlText(text, plan);
      return edited.refusals.length > 0 ? null : [...edited.changes];
    } catch {
      // The text changed since it was judged and no longer holds the path.
      return null;
    }
  });
}

async function migrateText(repository: Repository, path: string, text: string, type: string, versions: readonly string[]): Promise<TextMigration[]> {
  if (repository.refusal || !repository.handlers) return [];
  const file = displayName(path, repository.cwd);
  const catalogue = await repository.definitionCatalogue();
  const { lintOptions } = repository;
  const out: TextMigration[] = [];
  for (const version of versions) {
    const report = migrateInputs([{ file, content: text, origin: 'argument' }], catalogue, [{ name: type, version }], {
      strictCapabilities: lintOptions.strictCapabilities === true,
      requirePinned: lintOptions.requirePinned === true,
      platform: lintOptions.platform,
      lock: lintOptions.lock,
    });
    const migrated = report.files.find((f) => f.path === file);
    if (report.fatal || !migrated?.changed) continue;
    out.push({ version, before: migrated.before, after: migrated.after });
  }
  return out;
}
