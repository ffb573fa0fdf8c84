import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import type { FileReport, InputFile } from '../core/input.js';
import { type ReadInput, readInput } from '../documents/read-input.js';
import { gatherInputs } from '../files/gather-inputs.js';
import type { SourceText, YamlDocument } from '../yaml/source.js';
import { type Catalogue, createCatalogue } from './catalogue.js';
import { RegistryError } from './errors.js';
import { loadPlugins, type PluginRef, withPlugins } from './load-plugins.js';

/** Where a catalogue's handlers and definitions come from. */
export interface CatalogueSources {
  /** Handler plugins: paths (relative to `cwd`) or package names. */
  plugins?: readonly PluginRef[];
  /** Folders searched recursively for CapabilityDefinition files, named as they are shown in diagnostics. */
  definitionDirs?: readonly string[];
  /** CapabilityDefinition files. */
  definitionFiles?: readonly string[];
  cwd: string;
}

/** A catalogue loaded from files, with everything found on the way. */
export interface CatalogueLoad {
  /** Undefined when a plugin was refused at start. */
  catalogue: Catalogue | undefined;
  /** Unreadable paths, problems in the definitions, and a refused plugin (`usage`). */
  diagnostics: Diagnostic[];
  /** The definition files read, for printing source lines under diagnostics. */
  sources: Map<string, SourceText>;
  files: FileReport[];
  /** True when the run cannot go on: a path could not be read, or a plugin was refused (exit 2). */
  fatal: boolean;
}

/**
 * The built-in handlers plus the plugins: each plugin imported and put through the startup
 * assertion. Throws {@link RegistryError} naming the plugin when one is refused.
 */
export async function loadHandlers(plugins: readonly PluginRef[], cwd: string): Promise<Catalogue> {
  const catalogue = createCatalogue();
  return plugins.length === 0 ? catalogue : withPlugins(catalogue, await loadPlugins(plugins, cwd));
}

/** A refused plugin as the `usage` diagnostic that explains a command's exit code of 2 (a command has no start to refuse). */
export function refusalDiagnostic(err: RegistryError): Diagnostic {
  return fileDiagnostic(err.source ?? '<plugin>', 'usage', err.message);
}

/** CapabilityDefinition documents read from input files, and what became of each file. */
export interface DefinitionDocuments {
  documents: YamlDocument[];
  diagnostics: Diagnostic[];
  /** The texts of the files with diagnostics so far. */
  sources: Map<string, SourceText>;
  files: FileReport[];
  /** The text of any file read, for problems found later (a file the fast path read is parsed in full only then). */
  sourceOf(file: string): SourceText | undefined;
}

/** Reads definition files: their CapabilityDefinition documents, and the files of other kinds listed as skipped. */
export function readDefinitionInputs(inputs: readonly InputFile[]): DefinitionDocuments {
  const reads = new Map<string, ReadInput>();
  const out: DefinitionDocuments = { documents: [], diagnostics: [], sources: new Map(), files: [], sourceOf: (file) => reads.get(file)?.source };
  for (const input of inputs) {
    const read = readInput({ ...input, origin: 'definition' });
    reads.set(input.file, read);
    if (read.diagnostics.length > 0) out.sources.set(input.file, read.source);
    out.files.push(read.report);
    for (const d of read.diagnostics) out.diagnostics.push(d);
    for (const d of read.definitions) out.documents.push(d);
  }
  return out;
}

/**
 * Adds the definitions of the folders and files named to a catalogue (the way the service
 * loads and reloads, and the commands that publish schemas load): every file read, every
 * document compiled, conflicts resolved, every problem reported.
 */
export async function loadDefinitionFiles(
  catalogue: Catalogue,
  sources: Pick<CatalogueSources, 'definitionDirs' | 'definitionFiles'> & { cwd?: string },
): Promise<Omit<CatalogueLoad, 'catalogue'> & { catalogue: Catalogue }> {
  const gathered = await gatherInputs({
    definitionDirs: sources.definitionDirs ?? [],
    definitionFiles: sources.definitionFiles ?? [],
    ...(sources.cwd !== undefined ? { cwd: sources.cwd } : {}),
  });
  const added = addDefinitionInputs(catalogue, gathered.inputs);
  return { ...added, diagnostics: [...gathered.diagnostics, ...added.diagnostics], fatal: gathered.fatal };
}

/**
 * Adds the definitions of files already read to a catalogue: every document compiled, conflicts
 * resolved, every problem reported. The service reads its folders once and hands the same bytes
 * to each of its worker threads, which all build their catalogue with this.
 */
export function addDefinitionInputs(catalogue: Catalogue, inputs: readonly InputFile[]): Omit<CatalogueLoad, 'catalogue' | 'fatal'> & { catalogue: Catalogue } {
  const read = readDefinitionInputs(inputs);
  const extended = catalogue.withDefinitions(read.documents);
  for (const d of extended.diagnostics) {
    const source = read.sources.has(d.file) ? undefined : read.sourceOf(d.file);
    if (source) read.sources.set(d.file, source);
  }
  return {
    catalogue: extended.catalogue,
    diagnostics: [...read.diagnostics, ...extended.diagnostics],
    sources: read.sources,
    files: read.files,
  };
}

/**
 * Loads a catalogue from its sources: built-ins, plugins (a refused one becomes a `usage`
 * diagnostic and a fatal load), then the definition folders and files.
 */
export async function loadCatalogue(sources: CatalogueSources): Promise<CatalogueLoad> {
  let handlers: Catalogue;
  try {
    handlers = await loadHandlers(sources.plugins ?? [], sources.cwd);
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    return { catalogue: undefined, diagnostics: [refusalDiagnostic(err)], sources: new Map(), files: [], fatal: true };
  }
  return loadDefinitionFiles(handlers, sources);
}
