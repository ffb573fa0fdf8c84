import type { Catalogue } from '../catalogue/catalogue.js';
import { type Diagnostic, error } from '../core/diagnostics.js';
import type { LockData } from '../documents/capability-lock.js';
import type { Locatable } from '../yaml/source.js';
import type { ProfileLock } from './evaluate-profile.js';

/** A lockfile a run follows (docs/versions.md). */
export interface LockFollowing {
  lock: LockData;
  /** The lockfile as messages name it. */
  lockfile: string;
  /** A profile file's key in the lockfile; undefined for a file that has none (standard input without a name). */
  keyOf(file: string): string | undefined;
  /** `follow` for lint and build, `stable` for `kurel lock` (see {@link ProfileLock}). */
  mode: 'follow' | 'stable';
  /** `kurel lock --update`: changed digests are accepted and the profiles of the run resolve afresh. */
  update?: boolean;
}

/**
 * `definition-changed` (docs/versions.md): every loaded document of a locked name and
 * version whose digest differs from the locked digest, at its `spec.version` value. Versions
 * are immutable; a changed one must be published as a new version.
 */
export function changedDefinitions(catalogue: Catalogue, following: Pick<LockFollowing, 'lock' | 'lockfile'>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const name of Object.keys(following.lock.definitions)) {
    const versions = following.lock.definitions[name]!;
    for (const version of Object.keys(versions)) {
      const locked = versions[version]!.digest;
      for (const source of catalogue.definition(name, version)?.documents ?? []) {
        if (source.digest === locked) continue;
        const message = `definition "${name}" ${version} in ${source.file} differs from the one ${following.lockfile} locks (${short(locked)} locked, ${short(source.digest)} loaded): a published version is immutable`;
        out.push(
          source.document.toDiagnostic(
            error('definition-changed', ['spec', 'version'], message, { hint: 'publish the change as a new version, or accept it with kurel lock --update' }),
          ),
        );
      }
    }
  }
  return out;
}

/** What a profile file follows of the lockfile; undefined when the run has none, or resolves the file afresh. */
export function profileLockOf(following: LockFollowing | undefined, file: string): { lock: ProfileLock; listed: boolean } | undefined {
  if (!following || following.update) return undefined;
  const key = following.keyOf(file);
  if (key === undefined) return undefined;
  const listed = Object.hasOwn(following.lock.profiles, key);
  return { lock: { lockfile: following.lockfile, bindings: listed ? following.lock.profiles[key] : undefined, mode: following.mode }, listed };
}

/** `lock-outdated` at 1:1 of a profile the lockfile does not list (docs/versions.md). */
export function unlistedProfile(file: string, lockfile: string): Diagnostic {
  return {
    code: 'lock-outdated',
    severity: 'error',
    message: `${file} is not in ${lockfile}`,
    file,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    path: '',
    hint: 'run kurel lock',
  };
}

function short(digest: string): string {
  return `${digest.slice(0, 'sha256:'.length + 12)}…`;
}

/** A service's catalogue under its lockfile, or why it cannot be served. */
export type LockedCatalogue = { ok: true; catalogue: Catalogue } | { ok: false; diagnostics: Diagnostic[] };

/**
 * The service with a lockfile (docs/versions.md): the locked versions are the only versions of their
 * names. A loaded document whose digest differs from the lock (`definition-changed`, in the
 * definition) or a locked version no longer loaded (`lock-outdated`, at its entry in the
 * lockfile) refuses the catalogue. `lockfile` positions diagnostics about the lock's entries.
 */
export function lockCatalogue(catalogue: Catalogue, lock: LockData, lockfile: { display: string; document: Locatable }): LockedCatalogue {
  const diagnostics = changedDefinitions(catalogue, { lock, lockfile: lockfile.display });
  const allowed = new Map<string, Set<string>>();
  for (const name of Object.keys(lock.definitions)) {
    const versions = new Set(Object.keys(lock.definitions[name]!));
    allowed.set(name, versions);
    for (const version of versions) {
      if (catalogue.definition(name, version)) continue;
      const message = `${name} ${version} is locked in ${lockfile.display} but no definition loaded holds it`;
      const issue = error('lock-outdated', ['definitions', name, version], message, {
        part: 'key',
        hint: 'load the definition folder that holds it, or run kurel lock',
      });
      diagnostics.push(lockfile.document.toDiagnostic(issue));
    }
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  return { ok: true, catalogue: catalogue.restrictVersions(allowed) };
}
