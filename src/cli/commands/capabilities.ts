import { stringifyJson } from '../../core/json-text.js';
import { type CapabilityListing, listCapabilities } from '../../operations/list-capabilities.js';
import { type CapabilitySourceOptions, loadPublishedCatalogue } from '../command-catalogue.js';
import { EXIT } from '../exit-code.js';
import { escapeControls } from '../format/escape.js';
import type { CommandIo } from '../io.js';

/** Options of `kurel capabilities`. */
export interface CapabilitiesCommandOptions extends CapabilitySourceOptions {
  format: 'text' | 'json';
}

/** Runs `kurel capabilities`: the registry as a table, or as JSON; returns the exit code. */
export async function runCapabilities(options: CapabilitiesCommandOptions, io: CommandIo): Promise<number> {
  const loaded = await loadPublishedCatalogue(options, io);
  if (!loaded.ok) return loaded.exitCode;
  const listing = listCapabilities(loaded.catalogue);
  io.stdout(`${options.format === 'json' ? stringifyJson(listing) : formatTable(listing)}\n`);
  return EXIT.ok;
}

const COLUMNS = ['TYPE', 'SOURCE', 'AWARE', 'REQUIRED', 'DEFINITION', 'DESCRIPTION'] as const;

/** A plain-text table, one capability per row; the last column is not padded. */
export function formatTable(listing: readonly CapabilityListing[]): string {
  const yesNo = (value: boolean) => (value ? 'yes' : 'no');
  // Descriptions come from definition files: printed, their control characters are escaped.
  const rows = listing.map((c) => [
    c.type,
    escapeControls(c.source),
    yesNo(c.capabilityAware),
    yesNo(c.capabilityRequired),
    yesNo(c.hasDefinition),
    escapeControls(c.description),
  ]);
  const all = [[...COLUMNS], ...rows];
  const widths = COLUMNS.map((_, i) => all.reduce((widest, row) => Math.max(widest, row[i]!.length), 0));
  return all.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}
