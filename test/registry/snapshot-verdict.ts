import { sameData } from '../../src/core/canonical-json.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { compareVersions } from '../../src/core/versions.js';
import { bumpCovers, compareSchemas, declaredBump, neededBump, type SchemaChange, versionDeclaring } from '../../src/schema/compare.js';

/** The command that records the snapshots of the built-ins' current versions. */
export const REFRESH_COMMAND = 'npm run snapshots';

/** What to do about one built-in's published schema and its snapshots. */
export interface SnapshotVerdict {
  /** Why the schema and its version disagree with the snapshots, and what to do; undefined when they agree. */
  problem: string | undefined;
  /** True when the current version has no snapshot yet and may be recorded as it is. */
  record: boolean;
}

const counted = (changes: readonly SchemaChange[]) => {
  const first = changes.slice(0, 3).map((c) => `${c.class}: ${c.message}`);
  const more = changes.length > 3 ? `; and ${changes.length - 3} more` : '';
  return `${first.join('; ')}${more}`;
};

/**
 * Judges a built-in's published schema against the snapshots of its earlier versions (docs/compat.md): a version with a snapshot must publish exactly that schema; a version without one must
 * declare at least the bump its changes from the highest earlier snapshot need, and is then
 * recorded. Every problem names the bump to make and the command that refreshes the snapshots.
 */
export function snapshotVerdict(type: string, version: string | undefined, current: JsonSchema, snapshots: ReadonlyMap<string, JsonSchema>): SnapshotVerdict {
  const file = `handlers/${type}.ts`;
  if (version === undefined) return { problem: `${type} declares no version; give it one in ${file} (built-ins declare a SemVer version)`, record: false };
  const recorded = snapshots.get(version);
  if (recorded !== undefined) {
    if (sameData(recorded, current)) return { problem: undefined, record: false };
    const changes = compareSchemas(recorded, current);
    const needed = changes.length > 0 ? neededBump(changes, version) : 'patch';
    return {
      problem: `${type} ${version} publishes a schema that differs from its snapshot (${counted(changes) || 'the JSON differs'}); a published version never changes: set version to ${versionDeclaring(version, needed)} in ${file}, then run ${REFRESH_COMMAND}`,
      record: false,
    };
  }
  const earlier = [...snapshots.keys()].sort(compareVersions);
  const later = earlier.filter((v) => compareVersions(v, version) > 0);
  if (later.length > 0) {
    return {
      problem: `${type} declares ${version}, below its snapshot of ${later.at(-1)}: versions only go up; set version in ${file} above ${later.at(-1)}`,
      record: false,
    };
  }
  const previous = earlier.at(-1);
  if (previous === undefined) return { problem: `${type} ${version} has no snapshot yet: run ${REFRESH_COMMAND} to record it`, record: true };
  const changes = compareSchemas(snapshots.get(previous)!, current);
  const needed = neededBump(changes, previous);
  const declared = declaredBump(previous, version);
  if (!bumpCovers(declared, needed)) {
    return {
      problem: `${type} changed since its ${previous} snapshot in a way that needs a ${needed} bump (${counted(changes)}), but ${version} declares ${declared}: set version to ${versionDeclaring(previous, needed)} in ${file}, then run ${REFRESH_COMMAND}`,
      record: false,
    };
  }
  return {
    problem: `${type} ${version} has no snapshot yet (its changes since ${previous} need ${needed}, it declares ${declared}): run ${REFRESH_COMMAND} to record it`,
    record: true,
  };
}
