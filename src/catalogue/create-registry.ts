import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import { Registry } from './registry.js';

/** Options for {@link createRegistry}. */
export interface CreateRegistryOptions {
  /** Register the built-in handlers (default true). */
  builtins?: boolean;
}

/** A registry holding the built-in handlers; register plugins and definitions on it. */
export function createRegistry(options: CreateRegistryOptions = {}): Registry {
  const registry = new Registry();
  if (options.builtins !== false) {
    for (const handler of BUILTIN_HANDLERS) registry.register(handler, 'builtin', { trusted: true });
  }
  return registry;
}
