import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { locateLockfile } from '../files/lockfile-location.js';
import { embeddedDefinitionsDir } from '../files/package-files.js';
import { configOf } from './apply-config.js';
import type { RunConfig } from './run-config.js';
import type { DefinitionFolder, ServedSources } from './served-definitions.js';

/** Where the package's own definitions are said to be when the user did not name the folder. */
export const EMBEDDED_FOLDER_NAME = '<kurel>/definitions';

/**
 * Where `kurel serve` takes its definitions and lockfile from, once the configuration is put in
 * its options: the folders and files named by the configuration and the flags, or the package's
 * embedded `definitions/` when they name none (docs/cli.md: definitions named replace them, so the
 * service judges as CI does); a lockfile only when one is named (`--lockfile` or the config's
 * `lockfile`), so a stray file in a container's working directory never stops a service
 * (docs/versions.md "Where the lockfile is").
 */
export function servedSources(
  options: { definitions: readonly string[]; capabilityDef: readonly string[]; lockfile?: string | undefined },
  run: RunConfig | undefined,
  cwd: string,
): ServedSources {
  const lockfile = locateLockfile({ flag: options.lockfile, config: configOf(run), cwd, namedOnly: true });
  const named = options.definitions.length + options.capabilityDef.length > 0;
  return {
    ...(lockfile ? { lockfile: { path: lockfile.path, display: lockfile.display } } : {}),
    definitionFolders: named ? options.definitions.map((dir) => ({ path: dir, name: dir })) : embeddedFolders(cwd),
    definitionFiles: options.capabilityDef,
    cwd,
  };
}

// The package's own definitions/, named relative to the working directory when it is inside it,
// and by a name of its own otherwise (never by an absolute path the user did not write).
function embeddedFolders(cwd: string): DefinitionFolder[] {
  const dir = embeddedDefinitionsDir();
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const shown = relative(cwd, dir);
  const inside = shown && !shown.startsWith('..') && !isAbsolute(shown);
  return [inside ? { path: shown, name: shown } : { path: dir, name: EMBEDDED_FOLDER_NAME }];
}
