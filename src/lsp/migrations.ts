import { migrateInputs } from '../operations/migrate.js';
import { displayName, type Repository } from './repository.js';

/** One migration of an open text: the text before and after `kurel migrate` moved a binding's type to `version`. */
export interface TextMigration {
  version: string;
  before: string;
  after: string;
}

/**
 * Migrates the bindings of `type` in the text of the file at `path` to each of `versions`, as
 * `kurel migrate FILE --to TYPE@VERSION` run from the repository's folder would rewrite the file
 * on disk (docs/editors.md). Runs in the judging thread: a migration judges the whole text, as
 * long as a judgement of it takes. A version that changes nothing, or that migrate refuses, is
 * left out.
 */
export async function migrateText(repository: Repository, path: string, text: string, type: string, versions: readonly string[]): Promise<TextMigration[]> {
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
