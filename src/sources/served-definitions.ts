import type { Diagnostic } from '../core/diagnostics.js';
import { readLockfileText } from '../documents/read-lockfile.js';
import type { LockfileLocation } from '../files/lockfile-location.js';
import { readSourceFile } from '../files/read-file.js';
import type { ServedLockfile } from '../operations/served-catalogue.js';
import { type DefinitionEntry, type DefinitionText, isSourceEntry, type ResolvedSource, readDefinitionEntries } from './definition-entries.js';

/** A folder of CapabilityDefinitions (or a registry source): where it is, and the name diagnostics, `/readyz` and the capability list give it. */
export type DefinitionFolder = DefinitionEntry;

export type { DefinitionText } from './definition-entries.js';

/** Where a service's definitions and lockfile are, as `kurel serve` was started (docs/service.md). */
export interface ServedSources {
  /** Folders and `oci://` sources, in the order given. */
  definitionFolders: readonly DefinitionFolder[];
  /** Definition files (the config file's `capabilityDefs`), named as given. */
  definitionFiles?: readonly string[];
  cwd: string;
  /** The lockfile the service serves (`--lockfile` or the config's `lockfile`), read again at every load. */
  lockfile?: Pick<LockfileLocation, 'path' | 'display'> | undefined;
}

/** A service's definitions and lockfile as read at one load, or why the load is refused. */
export type ServedDefinitions =
  | { ok: true; definitions: DefinitionText[]; sources: ResolvedSource[]; lockfile: ServedLockfile | undefined; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * Reads a service's definitions and lockfile at a load (start or reload) through
 * `readDefinitionEntries`: every file under the folders and every file named, read only (no
 * parsing), each named from its folder's name, and each source's files; then the lockfile's
 * bytes (first, when a source is to be fetched by the digest it locks). A folder, file, source or
 * lockfile that cannot be read, or a file with an error (too large), refuses the load.
 */
export async function readServedDefinitions(sources: ServedSources): Promise<ServedDefinitions> {
  let lockfile: ServedLockfile | undefined;
  const readLockfile = (): Diagnostic | undefined => {
    if (!sources.lockfile || lockfile) return undefined;
    const read = readSourceFile(sources.lockfile.path, sources.lockfile.display);
    if (!read.ok) return read.diagnostic;
    lockfile = { display: sources.lockfile.display, content: read.bytes };
    return undefined;
  };
  const fetched = sources.definitionFolders.some((entry) => isSourceEntry(entry.path));
  const early = fetched ? readLockfile() : undefined;
  if (early) return { ok: false, diagnostics: [early] };
  const read = await readDefinitionEntries({
    entries: sources.definitionFolders,
    files: sources.definitionFiles ?? [],
    cwd: sources.cwd,
    lockedSources: lockfile ? readLockfileText(lockfile.display, lockfile.content).lock?.sources : undefined,
  });
  if (!read.ok) return read;
  const late = readLockfile();
  if (late) return { ok: false, diagnostics: [...read.diagnostics, late] };
  return { ok: true, definitions: read.definitions, sources: read.sources, lockfile, diagnostics: read.diagnostics };
}
