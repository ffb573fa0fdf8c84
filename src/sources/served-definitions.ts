import { type Diagnostic, hasErrors } from '../core/diagnostics.js';
import { gatherInputs } from '../files/gather-inputs.js';
import type { LockfileLocation } from '../files/lockfile-location.js';
import { readSourceFile } from '../files/read-file.js';
import type { ServedLockfile } from '../operations/served-catalogue.js';

/** A folder of CapabilityDefinitions: where it is, and the name diagnostics, `/readyz` and the capability list give it. */
export interface DefinitionFolder {
  path: string;
  /** The folder as the user gave it, or a name of its own for the package's embedded folder (never an absolute path the user did not write). */
  name: string;
}

/** One definition file as read: its name in diagnostics and the capability list, and its bytes. */
export interface DefinitionText {
  file: string;
  content: Uint8Array;
}

/** Where a service's definitions and lockfile are, as `kurel serve` was started (docs/service.md). */
export interface ServedSources {
  definitionFolders: readonly DefinitionFolder[];
  /** Definition files (the config file's `capabilityDefs`), named as given. */
  definitionFiles?: readonly string[];
  cwd: string;
  /** The lockfile the service serves (`--lockfile` or the config's `lockfile`), read again at every load. */
  lockfile?: Pick<LockfileLocation, 'path' | 'display'> | undefined;
}

/** A service's definitions and lockfile as read at one load, or why the load is refused. */
export type ServedDefinitions =
  | { ok: true; definitions: DefinitionText[]; lockfile: ServedLockfile | undefined; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * Reads a service's definitions and lockfile at a load (start or reload): every file under the
 * folders and every file named, read only (no parsing), each named from its folder's name; then the
 * lockfile's bytes. A folder, file or lockfile that cannot be read, or a file with an error (too
 * large), refuses the load.
 */
export async function readServedDefinitions(sources: ServedSources): Promise<ServedDefinitions> {
  const gathered = await gatherInputs({
    definitionDirs: sources.definitionFolders.map((folder) => folder.path),
    definitionFiles: sources.definitionFiles ?? [],
    cwd: sources.cwd,
  });
  const rename = renamer(sources.definitionFolders);
  const diagnostics = gathered.diagnostics.map((d): Diagnostic => ({ ...d, file: rename(d.file), message: renameIn(d.message, sources.definitionFolders) }));
  if (gathered.fatal || hasErrors(diagnostics)) return { ok: false, diagnostics };
  const definitions = gathered.inputs.map((input) => ({
    file: rename(input.file),
    content: typeof input.content === 'string' ? new TextEncoder().encode(input.content) : input.content,
  }));
  let lockfile: ServedLockfile | undefined;
  if (sources.lockfile) {
    const read = readSourceFile(sources.lockfile.path, sources.lockfile.display);
    if (!read.ok) return { ok: false, diagnostics: [...diagnostics, read.diagnostic] };
    lockfile = { display: sources.lockfile.display, content: read.bytes };
  }
  return { ok: true, definitions, lockfile, diagnostics };
}

// Files found under a folder are named from its path; a folder with a name of its own gives them that name instead.
function renamer(folders: readonly DefinitionFolder[]): (file: string) => string {
  const renamed = folders.filter((folder) => folder.name !== folder.path);
  return (file) => {
    for (const folder of renamed) {
      if (file === folder.path || file.startsWith(`${folder.path}/`)) return `${folder.name}${file.slice(folder.path.length)}`;
    }
    return file;
  };
}

function renameIn(message: string, folders: readonly DefinitionFolder[]): string {
  let text = message;
  for (const folder of folders) if (folder.name !== folder.path) text = text.replaceAll(folder.path, folder.name);
  return text;
}
