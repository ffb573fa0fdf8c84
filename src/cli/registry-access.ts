import { compareText } from '../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import type { LockData, LockedSourceEntry } from '../documents/capability-lock.js';
import { isSourceEntry, type ResolvedSource, registeredSourceResolver, registerSourceResolver, type SourceResolver } from '../sources/definition-entries.js';
import { type RegistryAccess, registryResolver, useRegistry } from '../sources/registry-resolver.js';
import type { RunConfig } from '../sources/run-config.js';
import { loadRunConfig } from '../sources/run-config.js';
import type { CommandIo } from './io.js';

/** The registry flags of a command (docs/registries.md). */
export interface RegistryFlags {
  offline?: boolean | undefined;
  insecureRegistry?: readonly string[] | undefined;
}

/** How a command reaches registries: its flags, the configuration's `insecureRegistries`, its environment, progress on a terminal. */
export function registryAccessOf(flags: RegistryFlags, run: RunConfig | undefined, io: CommandIo): RegistryAccess {
  return {
    env: io.env,
    offline: flags.offline === true,
    insecureRegistries: [...(run?.config.insecureRegistries ?? []), ...(flags.insecureRegistry ?? [])],
    ...(io.stderrIsTTY ? { progress: (text: string) => io.stderr(text) } : {}),
  };
}

/** A resolver for one run that also records each source it resolved (what a lockfile's `sources` holds). */
export function recordingResolver(access: RegistryAccess): { resolve: SourceResolver; resolved: ResolvedSource[] } {
  // One registered for the process (an embedder's, a test's) wins over the registry client.
  const inner = registeredSourceResolver() ?? registryResolver(access);
  const resolved: ResolvedSource[] = [];
  const resolve: SourceResolver = async (request) => {
    const result = await inner(request);
    if (result.ok) resolved.push({ reference: request.reference, digest: result.digest, tag: result.tag, range: result.range });
    return result;
  };
  return { resolve, resolved };
}

/** The lockfile's entries for the sources a run names, to fetch each by its locked digest. */
export function lockedSourcesOf(
  entries: readonly string[],
  locked: Readonly<Record<string, LockedSourceEntry>> | undefined,
): Record<string, LockedSourceEntry> | undefined {
  if (locked === undefined) return undefined;
  const out: Record<string, LockedSourceEntry> = {};
  for (const entry of entries) if (isSourceEntry(entry) && Object.hasOwn(locked, entry)) out[entry] = locked[entry]!;
  return out;
}

/** A lockfile's `sources` from what a run resolved, sorted by reference. */
export function sourcesOfRun(resolved: readonly ResolvedSource[]): Record<string, LockedSourceEntry> {
  const out: Record<string, LockedSourceEntry> = {};
  for (const source of [...resolved].sort((a, b) => compareText(a.reference, b.reference))) {
    if (source.tag === undefined) continue;
    out[source.reference] = { ...(source.range !== undefined ? { range: source.range } : {}), tag: source.tag, digest: source.digest };
  }
  return out;
}

/** The registry client's options of a run, for what a command asks the registry itself (`lock --check`). */
export function sourceOptionsOf(access: RegistryAccess): { env: NodeJS.ProcessEnv; insecureRegistries: string[]; offline?: boolean } {
  const insecure = typeof access.insecureRegistries === 'function' ? access.insecureRegistries() : access.insecureRegistries;
  return { env: access.env, insecureRegistries: [...(insecure ?? [])], ...(access.offline ? { offline: true } : {}) };
}

/**
 * `lock-outdated` for each registry source a run names that its lockfile does not hold (a new
 * source, or one whose reference or range changed: the key is the reference as written),
 * at 1:1 of the lockfile (docs/registries.md, "Lock it").
 */
export function unlockedSources(
  entries: readonly string[],
  lockfile: { lock: LockData | undefined; location?: { display: string } | undefined },
): Diagnostic[] {
  if (lockfile.lock === undefined || lockfile.location === undefined) return [];
  const locked = lockfile.lock.sources ?? {};
  return entries
    .filter((entry) => isSourceEntry(entry) && !Object.hasOwn(locked, entry))
    .map((entry) =>
      fileDiagnostic(lockfile.location!.display, 'lock-outdated', `the registry source ${entry} is not in ${lockfile.location!.display}`, {
        hint: 'run kurel lock',
      }),
    );
}

/**
 * Registers the resolver every read of definition entries in this command uses when it is given
 * none of its own: the command's registry flags, the configuration's `insecureRegistries` (read
 * when the first source is met), its environment.
 */
export function useCommandRegistry(flags: RegistryFlags & { config?: string | false | undefined }, io: CommandIo): () => void {
  // One registered for the process (an embedder's, a test's) wins; ours lasts for this command only.
  if (registeredSourceResolver() !== undefined) return () => undefined;
  useRegistry({
    ...registryAccessOf(flags, undefined, io),
    insecureRegistries: () => {
      const loaded = loadRunConfig(flags.config, io.cwd);
      return [...(loaded.ok ? (loaded.run?.config.insecureRegistries ?? []) : []), ...(flags.insecureRegistry ?? [])];
    },
  });
  return () => registerSourceResolver(undefined);
}
