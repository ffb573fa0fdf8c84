import { type Diagnostic, hasErrors } from '../../core/diagnostics.js';
import { gatherInputs } from '../../files/gather-inputs.js';
import { readSourceFile } from '../../files/read-file.js';
import type { DefinitionFolder, DefinitionSources, DefinitionsRead } from './served-definitions.js';

/**
 * Reads the definition folders and files (reading only, no parsing) and the lockfile. A folder or
 * lockfile that cannot be read, or a file with an error found while gathering, refuses the read.
 */
export async function readDefinitions(sources: DefinitionSources): Promise<DefinitionsRead> {
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
  if (!sources.lockfile) return { ok: true, definitions, diagnostics };
  const read = readSourceFile(sources.lockfile.path, sources.lockfile.display);
  if (!read.ok) return { ok: false, diagnostics: [...diagnostics, read.diagnostic] };
  return { ok: true, definitions, lockfile: { display: sources.lockfile.display, content: read.bytes }, diagnostics };
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
