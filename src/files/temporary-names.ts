/**
 * The prefix of every file kurel writes beside a file it replaces: temporary contents and locks
 * (docs/migrate.md, "Writing files"). Folder and glob searches never read a name with it.
 */
export const TEMPORARY_PREFIX = '.kurel-tmp-';

/** True for a name kurel's writes use for their temporary files and locks, never an input. */
export function isTemporaryName(name: string): boolean {
  return name.startsWith(TEMPORARY_PREFIX);
}
