import { appendAll, setOwn } from '../core/data.js';
import { type Diagnostic, fileDiagnostic, hasErrors } from '../core/diagnostics.js';
import type { InputFile, RunInput } from '../core/input.js';
import type { LockedSourceEntry } from '../documents/capability-lock.js';
import { type GatheredInputs, gatherDeferredInputs, gatherInputs, type InputRequest } from '../files/gather-inputs.js';

/** How a definitions entry that names a registry source starts (docs/configuration.md); any other entry is a folder. */
export const SOURCE_PREFIX = 'oci://';

/** True when a definitions entry names a registry source rather than a folder. */
export function isSourceEntry(entry: string): boolean {
  return entry.startsWith(SOURCE_PREFIX);
}

/** A definitions entry: a folder (with the name diagnostics give it) or a registry source (`oci://…`, named as written). */
export interface DefinitionEntry {
  path: string;
  /** The entry as the user gave it, or a name of its own for the package's embedded folder (never an absolute path the user did not write). */
  name: string;
}

/** One definition file as read for a run: its name in diagnostics and the capability list, and its bytes. */
export interface DefinitionText {
  file: string;
  content: Uint8Array;
}

/** One file of a source's artifact: its path inside it, and its bytes. */
export interface SourceFile {
  path: string;
  content: Uint8Array;
}

/** What a resolver is asked: the reference as written, the run's folder, and what the lockfile locks it to, if anything. */
export interface SourceRequest {
  reference: string;
  cwd: string;
  /** The lockfile's entry for this reference: fetch by its digest, never by tag. */
  locked?: LockedSourceEntry | undefined;
}

/** What a resolver made of a source: the manifest's digest, the tag and range it resolved by, its definition files; or why it could not. */
export type SourceResolution =
  | { ok: true; digest: string; tag?: string | undefined; range?: string | undefined; files: SourceFile[]; diagnostics?: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** Turns a source reference into its definition files (a registry client supplies it). */
export type SourceResolver = (request: SourceRequest) => Promise<SourceResolution>;

/** A source as a run resolved it: the reference as written and what it resolved to (what a lockfile's `sources` holds). */
export interface ResolvedSource {
  reference: string;
  digest: string;
  tag?: string | undefined;
  range?: string | undefined;
}

let registered: SourceResolver | undefined;

/**
 * Registers the resolver every run without one of its own uses for `oci://` entries; undefined
 * removes it. It holds for the thread that registers it: the threads that read definitions
 * (the CLI's, `kurel lsp`'s judge thread, a serving process's main thread) each register it; a
 * `kurel lint --jobs` worker never reads a source (such a run stays on one thread), and the
 * service's workers build from the bytes their process read.
 */
export function registerSourceResolver(resolver: SourceResolver | undefined): void {
  registered = resolver;
}

/** What to read: the entries in order, definition files, where from, and how sources resolve. */
export interface DefinitionEntriesRequest {
  entries: readonly DefinitionEntry[];
  /** Definition files (`--capability-def`, the config's `capabilityDefs`), named as given. */
  files?: readonly string[];
  cwd: string;
  /** The resolver of this run; the registered one when absent. */
  resolve?: SourceResolver | undefined;
  /** The lockfile's `sources`: each source is fetched by its locked digest. */
  lockedSources?: Readonly<Record<string, LockedSourceEntry>> | undefined;
}

/** A run's definitions as read, the sources they came from, and the problems on the way; or why none can be used. */
export type DefinitionEntriesRead =
  | { ok: true; definitions: DefinitionText[]; sources: ResolvedSource[]; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * The one way a run's definition entries become definition texts with their file names: the
 * folders and files read as ever (every YAML file under a folder, each named from the folder's
 * name), then each `oci://` entry, in order, handed to the resolver and its files named
 * `REPOSITORY@DIGEST#PATH` (`sourceFileName`). A folder, file or source that cannot be read, a
 * file with an error (too large), or a source entry with no resolver refuses the read.
 */
export async function readDefinitionEntries(request: DefinitionEntriesRequest): Promise<DefinitionEntriesRead> {
  const folders = request.entries.filter((entry) => !isSourceEntry(entry.path));
  const gathered = await gatherInputs({ definitionDirs: folders.map((folder) => folder.path), definitionFiles: request.files ?? [], cwd: request.cwd });
  const rename = renamer(folders);
  const diagnostics = gathered.diagnostics.map((d): Diagnostic => ({ ...d, file: rename(d.file), message: renameIn(d.message, folders) }));
  if (gathered.fatal || hasErrors(diagnostics)) return { ok: false, diagnostics };
  const definitions = gathered.inputs.map((input) => ({ file: rename(input.file), content: bytesOf(input) }));
  const sources: ResolvedSource[] = [];
  const resolve = request.resolve ?? registered;
  for (const entry of request.entries) {
    if (!isSourceEntry(entry.path)) continue;
    if (!resolve) {
      diagnostics.push(
        fileDiagnostic(entry.name, 'io-error', `cannot read ${entry.name}: this run has no registry client to fetch definitions from a registry`),
      );
      return { ok: false, diagnostics };
    }
    const locked = request.lockedSources && Object.hasOwn(request.lockedSources, entry.path) ? request.lockedSources[entry.path] : undefined;
    const resolved = await resolve({ reference: entry.path, cwd: request.cwd, locked });
    appendAll(diagnostics, resolved.diagnostics ?? []);
    if (!resolved.ok || hasErrors(resolved.diagnostics ?? [])) return { ok: false, diagnostics };
    sources.push({ reference: entry.path, digest: resolved.digest, tag: resolved.tag, range: resolved.range });
    for (const file of resolved.files) definitions.push({ file: sourceFileName(entry.path, resolved.digest, file.path), content: file.content });
  }
  return { ok: true, definitions, sources, diagnostics };
}

/**
 * The name a file of a source has in diagnostics, the capability list and the lockfile's `file`:
 * the reference without its tag, range or digest, then `@DIGEST#PATH`
 * (`oci://ghcr.io/acme/defs@sha256:…#redis-sidecar.yaml`).
 */
export function sourceFileName(reference: string, digest: string, path: string): string {
  return `${sourceRepository(reference)}@${digest}#${path}`;
}

/** `oci://HOST[:PORT]/REPOSITORY` of a reference, without what follows the repository (`:TAG`, `:RANGE`, `@sha256:…`). */
export function sourceRepository(reference: string): string {
  const rest = reference.slice(SOURCE_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return reference;
  const host = rest.slice(0, slash);
  let repository = rest.slice(slash);
  const at = repository.indexOf('@');
  if (at >= 0) repository = repository.slice(0, at);
  else {
    const colon = repository.indexOf(':');
    if (colon >= 0) repository = repository.slice(0, colon);
  }
  return `${SOURCE_PREFIX}${host}${repository}`;
}

/** The definition files of a run as lint reads them: each named as read, its bytes, a definition. */
export function definitionInputsOf(definitions: readonly DefinitionText[]): InputFile[] {
  return definitions.map((d) => ({ file: d.file, content: d.content, origin: 'definition' as const }));
}

/** A command's inputs, and the registry sources its definitions came from. */
export type GatheredWithSources<Input extends RunInput> = GatheredInputs<Input> & { sources: ResolvedSource[] };

/** How a command's sources resolve: the run's resolver (the registered one when absent), and what its lockfile locks. */
export interface SourceOptions {
  resolve?: SourceResolver | undefined;
  lockedSources?: Readonly<Record<string, LockedSourceEntry>> | undefined;
}

/**
 * A command's inputs (`gatherDeferredInputs`) with its definition entries read as
 * `readDefinitionEntries` reads them: the folders searched as ever, each `oci://` entry's files
 * added as definitions already read. A source that cannot be read is the run's input failure (exit 2).
 */
export function gatherRunInputs(request: InputRequest, stdin?: () => Promise<Uint8Array>, options: SourceOptions = {}): Promise<GatheredWithSources<RunInput>> {
  return withSources(gatherDeferredInputs, request, stdin, options);
}

/** `gatherRunInputs` for the commands that read every input at once (`gatherInputs`). */
export function gatherReadInputs(
  request: InputRequest,
  stdin?: () => Promise<Uint8Array>,
  options: SourceOptions = {},
): Promise<GatheredWithSources<InputFile>> {
  return withSources(gatherInputs, request, stdin, options);
}

async function withSources<Input extends RunInput>(
  gather: (request: InputRequest, stdin?: () => Promise<Uint8Array>) => Promise<GatheredInputs<Input>>,
  request: InputRequest,
  stdin: (() => Promise<Uint8Array>) | undefined,
  options: SourceOptions,
): Promise<GatheredWithSources<Input>> {
  const dirs = request.definitionDirs ?? [];
  const sources = dirs.filter(isSourceEntry);
  if (sources.length === 0) return { ...(await gather(request, stdin)), sources: [] };
  const gathered = await gather({ ...request, definitionDirs: dirs.filter((dir) => !isSourceEntry(dir)) }, stdin);
  const read = await readDefinitionEntries({
    entries: sources.map((reference) => ({ path: reference, name: reference })),
    cwd: request.cwd ?? process.cwd(),
    resolve: options.resolve,
    lockedSources: options.lockedSources,
  });
  appendAll(gathered.diagnostics, read.diagnostics);
  if (!read.ok) return { ...gathered, fatal: true, sources: [] };
  for (const input of definitionInputsOf(read.definitions)) gathered.inputs.push(input as Input);
  return { ...gathered, sources: read.sources };
}

/**
 * A lockfile's `sources` for the sources a run resolved (docs/versions.md): each reference as
 * written, with its range, tag and digest. A source resolved by no tag (a reference by digest names
 * its content already) has no entry.
 */
export function lockedSourcesOf(resolved: readonly ResolvedSource[]): Record<string, LockedSourceEntry> {
  const locked: Record<string, LockedSourceEntry> = {};
  for (const source of resolved) {
    if (source.tag === undefined) continue;
    setOwn(locked, source.reference, { ...(source.range !== undefined ? { range: source.range } : {}), tag: source.tag, digest: source.digest });
  }
  return locked;
}

function bytesOf(input: InputFile): Uint8Array {
  return typeof input.content === 'string' ? new TextEncoder().encode(input.content) : input.content;
}

// Files found under a folder are named from its path; a folder with a name of its own gives them that name instead.
function renamer(folders: readonly DefinitionEntry[]): (file: string) => string {
  const renamed = folders.filter((folder) => folder.name !== folder.path);
  return (file) => {
    for (const folder of renamed) {
      if (file === folder.path || file.startsWith(`${folder.path}/`)) return `${folder.name}${file.slice(folder.path.length)}`;
    }
    return file;
  };
}

function renameIn(message: string, folders: readonly DefinitionEntry[]): string {
  let text = message;
  for (const folder of folders) if (folder.name !== folder.path) text = text.replaceAll(folder.path, folder.name);
  return text;
}

/** The resolver registered for this process (`registerSourceResolver`), if any. */
export function registeredSourceResolver(): SourceResolver | undefined {
  return registered;
}
