import { type Diagnostic, hasErrors } from '../core/diagnostics.js';
import type { FileReport, InputFile } from '../core/input.js';
import type { SourceText } from '../yaml/source.js';
import type { Catalogue } from './catalogue.js';
import { RegistryError } from './errors.js';
import { addDefinitionInputs, loadDefinitionFiles, loadHandlers, refusalDiagnostic } from './load-catalogue.js';
import type { PluginRef } from './load-plugins.js';
import { type CatalogueLockfile, type LockfileRequest, noLockfile, readCatalogueLockfile } from './lockfile.js';

/**
 * What a catalogue is assembled from: handlers (built-ins and plugins, or ones already loaded),
 * definitions (folders and files to read, or files already read), and the lockfile.
 */
export interface AssemblySources {
  /** Handler plugins: paths (relative to `cwd`) or package names. Ignored when `handlers` is given. */
  plugins?: readonly PluginRef[];
  /** Built-ins and plugins already loaded (the service loads its plugins once, then reloads definitions). */
  handlers?: Catalogue;
  /** Folders searched recursively for CapabilityDefinition files, named as diagnostics show them. */
  definitionDirs?: readonly string[];
  /** CapabilityDefinition files to read. */
  definitionFiles?: readonly string[];
  /** CapabilityDefinition files already read (a worker thread builds from the bytes its main thread read). */
  definitionInputs?: readonly InputFile[];
  /** Where to find the lockfile, or the lockfile already read; none is read when absent. */
  lockfile?: LockfileRequest | { read: CatalogueLockfile };
  cwd: string;
}

/** What an assembly found besides its catalogue. */
export interface AssemblyReport {
  /** A refused plugin, unreadable definition paths, problems in the definitions; the lockfile's are its own. */
  diagnostics: Diagnostic[];
  /** The definition files with diagnostics, for printing source lines under them. */
  sources: Map<string, SourceText>;
  /** The definition files read. */
  files: FileReport[];
  /** The lockfile asked for (read even when the catalogue is refused, so a run reports both). */
  lockfile: CatalogueLockfile;
}

/** Why no catalogue was assembled: `fatal` (exit 2) for a refused plugin or an unreadable path, else errors in the definitions (exit 1). */
export interface CatalogueRefusal extends AssemblyReport {
  fatal: boolean;
  /** The catalogue built in spite of errors in the definitions (what a service reports it holds); undefined when the start was refused. */
  catalogue: Catalogue | undefined;
}

/** A catalogue, or the refusal. */
export type CatalogueAssembly = ({ ok: true; catalogue: Catalogue } & AssemblyReport) | { ok: false; refusal: CatalogueRefusal };

/**
 * The one catalogue assembler of commands, the language server and the service (ARCHITECTURE.md
 * "Catalogue assembly"): handlers, then definitions, then the lockfile. A plugin that fails the
 * startup assertion, a definition path that cannot be read, or an error in a definition refuses
 * the catalogue; warnings come with it. The lockfile is read and reported, never judged here:
 * whether a run goes on with a broken one is the run's to say.
 */
export async function assembleCatalogue(sources: AssemblySources): Promise<CatalogueAssembly> {
  const handlers = await handlersOf(sources);
  const lockfile = lockfileOf(sources);
  if (!handlers.ok)
    return { ok: false, refusal: { diagnostics: [handlers.diagnostic], sources: new Map(), files: [], lockfile, fatal: true, catalogue: undefined } };
  const loaded = await definitionsOf(handlers.catalogue, sources);
  const report: AssemblyReport = { diagnostics: loaded.diagnostics, sources: loaded.sources, files: loaded.files, lockfile };
  if (loaded.fatal || hasErrors(loaded.diagnostics)) return { ok: false, refusal: { ...report, fatal: loaded.fatal, catalogue: loaded.catalogue } };
  return { ok: true, catalogue: loaded.catalogue, ...report };
}

async function handlersOf(sources: AssemblySources): Promise<{ ok: true; catalogue: Catalogue } | { ok: false; diagnostic: Diagnostic }> {
  if (sources.handlers) return { ok: true, catalogue: sources.handlers };
  try {
    return { ok: true, catalogue: await loadHandlers(sources.plugins ?? [], sources.cwd) };
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    return { ok: false, diagnostic: refusalDiagnostic(err) };
  }
}

function lockfileOf(sources: AssemblySources): CatalogueLockfile {
  if (!sources.lockfile) return noLockfile();
  return 'read' in sources.lockfile ? sources.lockfile.read : readCatalogueLockfile(sources.lockfile, sources.cwd);
}

// Definitions already read are added as they are; otherwise the folders and files named are read (none named: the handlers alone).
async function definitionsOf(handlers: Catalogue, sources: AssemblySources) {
  if (sources.definitionInputs) return { ...addDefinitionInputs(handlers, sources.definitionInputs), fatal: false };
  if (sources.definitionDirs === undefined && sources.definitionFiles === undefined) {
    return { catalogue: handlers, diagnostics: [], sources: new Map<string, SourceText>(), files: [], fatal: false };
  }
  return loadDefinitionFiles(handlers, {
    ...(sources.definitionDirs ? { definitionDirs: sources.definitionDirs } : {}),
    ...(sources.definitionFiles ? { definitionFiles: sources.definitionFiles } : {}),
    cwd: sources.cwd,
  });
}
