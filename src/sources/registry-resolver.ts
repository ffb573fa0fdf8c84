import type { RegistryResolverOptions } from '../registry/index.js';
import { registerSourceResolver, type SourceResolution, type SourceResolver } from './definition-entries.js';

/** How a run reaches registries (docs/registries.md): its flags and configuration, its environment. */
export interface RegistryAccess {
  readonly offline?: boolean | undefined;
  /** Hosts reached over plain HTTP: `--insecure-registry` and the configuration's `insecureRegistries`. */
  readonly insecureRegistries?: readonly string[] | (() => readonly string[]) | undefined;
  readonly env: NodeJS.ProcessEnv;
  /** Where progress goes when standard error is a terminal. */
  readonly progress?: ((text: string) => void) | undefined;
  /** Serve what the cache holds when a registry cannot be reached (the service, the language server). */
  readonly cacheWhenUnreachable?: boolean | undefined;
}

/**
 * The resolver of `oci://` entries for a run: the registry client (`src/registry/`), loaded on
 * the first source a run meets, so a run without one never loads it (docs/performance.md).
 */
export function registryResolver(access: RegistryAccess): SourceResolver {
  let resolver: ((request: Parameters<SourceResolver>[0]) => Promise<SourceResolution>) | undefined;
  return async (request) => {
    if (resolver === undefined) {
      const { createRegistryResolver } = await import('../registry/index.js');
      const options: RegistryResolverOptions = {
        env: access.env,
        insecureRegistries: [...((typeof access.insecureRegistries === 'function' ? access.insecureRegistries() : access.insecureRegistries) ?? [])],
        ...(access.offline ? { offline: true } : {}),
        ...(access.cacheWhenUnreachable ? { cacheWhenUnreachable: true } : {}),
        ...(access.progress ? { progress: streamOf(access.progress) } : {}),
      };
      resolver = createRegistryResolver(options);
    }
    return resolver(request);
  };
}

/** Registers {@link registryResolver} as the resolver of every read of definition entries in this process. */
export function useRegistry(access: RegistryAccess): void {
  registerSourceResolver(registryResolver(access));
}

function streamOf(write: (text: string) => void): NodeJS.WritableStream {
  const written = (text: string): boolean => {
    write(text);
    return true;
  };
  return { write: written } as unknown as NodeJS.WritableStream;
}
