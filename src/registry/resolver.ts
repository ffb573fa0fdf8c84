import { compareText } from '../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import { parseOciReference } from './reference.js';
import { digestOfTag, resolveSource, type SourceOptions } from './source.js';

/** What a run asks of a registry source: the reference as written, and the lockfile's entry for it. */
export interface RegistrySourceRequest {
  readonly reference: string;
  readonly cwd: string;
  readonly locked?: { readonly range?: string | undefined; readonly tag: string; readonly digest: string } | undefined;
}

/** A source read: the manifest's digest, the tag and range it resolved by, its files; or the diagnostic at its reference. */
export type RegistrySourceResolution =
  | { ok: true; digest: string; tag?: string | undefined; range?: string | undefined; files: { path: string; content: Uint8Array }[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** How a run's resolver reaches registries: {@link SourceOptions} but the lockfile's entry, which each request brings. */
export interface RegistryResolverOptions extends Omit<SourceOptions, 'locked'> {
  /** When the registry cannot be reached, serve what the cache holds (a service's start and reload, the language server). */
  readonly cacheWhenUnreachable?: boolean;
}

/**
 * The resolver of `oci://` definition entries (docs/registries.md) that the floor reading a run's
 * definitions is given: each request resolved by {@link resolveSource} (by the locked digest when
 * the lockfile has the reference), its failure a diagnostic at the reference with its code.
 */
export function createRegistryResolver(options: RegistryResolverOptions): (request: RegistrySourceRequest) => Promise<RegistrySourceResolution> {
  return async (request) => {
    const { cacheWhenUnreachable, ...base } = options;
    const locked = request.locked ? { tag: request.locked.tag, digest: request.locked.digest } : undefined;
    const asked = { ...base, ...(locked ? { locked } : {}) };
    let resolved = await resolveSource(request.reference, asked);
    if ('message' in resolved && resolved.code === 'registry-unreachable' && cacheWhenUnreachable && !base.offline) {
      const cached = await resolveSource(request.reference, { ...asked, offline: true });
      if (!('message' in cached)) resolved = cached;
    }
    if ('message' in resolved) return { ok: false, diagnostics: [fileDiagnostic(request.reference, resolved.code, resolved.message)] };
    const range = rangeOf(request.reference) ?? request.locked?.range;
    return {
      ok: true,
      digest: resolved.digest,
      ...(resolved.tag !== null ? { tag: resolved.tag } : {}),
      ...(range !== undefined ? { range } : {}),
      files: resolved.files.map((file) => ({ path: file.name, content: file.bytes })),
    };
  };
}

function rangeOf(reference: string): string | undefined {
  const parsed = parseOciReference(reference);
  return 'error' in parsed || parsed.range === null ? undefined : parsed.range;
}

/**
 * `kurel lock --check`'s look at the registry (docs/registries.md, "Lockfile"): each locked
 * source's tag is resolved again, and one that now names other content than the locked digest is
 * `source-moved` (error, at the lockfile), until `kurel lock --update` accepts it. A registry
 * that cannot be asked is its own diagnostic.
 */
export async function findMovedSources(
  locked: Readonly<Record<string, { readonly tag: string; readonly digest: string }>>,
  lockfile: string,
  options: Omit<SourceOptions, 'locked'>,
): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const [reference, entry] of Object.entries(locked).sort(([a], [b]) => compareText(a, b))) {
    const now = await digestOfTag(reference, entry.tag, options);
    if ('message' in now) diagnostics.push(fileDiagnostic(reference, now.code, now.message));
    else if (now.digest !== entry.digest) {
      diagnostics.push(
        fileDiagnostic(lockfile, 'source-moved', `${reference}: tag ${entry.tag} now names ${now.digest}, not the locked ${entry.digest}`, {
          hint: 'run kurel lock --update to accept it',
        }),
      );
    }
  }
  return diagnostics;
}
