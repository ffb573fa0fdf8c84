import type { Registry } from '../../catalogue/registry.js';
import { EXIT } from '../exit-code.js';
import { stringifyJson } from '../../core/json-text.js';
import type { CommandIo } from '../io.js';
import { loadCapabilityRegistry, type CapabilitySourceOptions } from './schema.js';

/** Options of `kurel capabilities`. */
export interface CapabilitiesCommandOptions extends CapabilitySourceOptions {
  format: 'text' | 'json';
}

/** One capability type the registry knows (DESIGN §5.1). */
export interface CapabilityListing {
  type: string;
  /** `builtin`, `plugin:<module>`, or for a type only a definition knows, its file. */
  source: string;
  capabilityAware: boolean;
  capabilityRequired: boolean;
  hasDefinition: boolean;
  description: string;
}

/** Every type a handler or definition knows, sorted by type; never mutates the registry. */
export function listCapabilities(registry: Registry): CapabilityListing[] {
  return registry.knownTypes().map((type) => {
    const registered = registry.handler(type);
    const definition = registry.definition(type);
    const handler = registered?.handler;
    return {
      type,
      source: registered?.source ?? definition?.file ?? 'unknown',
      capabilityAware: handler?.capabilityAware ?? false,
      capabilityRequired: handler?.capabilityRequired ?? false,
      hasDefinition: definition !== undefined,
      description: handler?.description || definition?.description || '',
    };
  });
}

/** Runs `kurel capabilities`: the registry as a table, or as JSON; returns the exit code. */
export async function runCapabilities(options: CapabilitiesCommandOptions, io: CommandIo): Promise<number> {
  const loaded = await loadCapabilityRegistry(options, io);
  if (!loaded.ok) return loaded.exitCode;
  const listing = listCapabilities(loaded.registry);
  io.stdout((options.format === 'json' ? stringifyJson(listing) : formatTable(listing)) + '\n');
  return EXIT.ok;
}

const COLUMNS = ['TYPE', 'SOURCE', 'AWARE', 'REQUIRED', 'DEFINITION', 'DESCRIPTION'] as const;

/** A plain-text table, one capability per row; the last column is not padded. */
export function formatTable(listing: readonly CapabilityListing[]): string {
  const yesNo = (value: boolean) => (value ? 'yes' : 'no');
  const rows = listing.map((c) => [c.type, c.source, yesNo(c.capabilityAware), yesNo(c.capabilityRequired), yesNo(c.hasDefinition), c.description]);
  const all = [[...COLUMNS], ...rows];
  const widths = COLUMNS.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  return all.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}
