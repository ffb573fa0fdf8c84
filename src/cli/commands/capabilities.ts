import { stringifyJson } from '../../core/json-text.js';
import { type CapabilityListing, listCapabilities } from '../../operations/list-capabilities.js';
import type { CapabilitySourceOptions } from '../../sources/command-catalogue.js';
import { EXIT } from '../exit-code.js';
import { escapeControls } from '../format/escape.js';
import { formatTable } from '../format/table.js';
import type { CommandIo } from '../io.js';
import { loadPublishedCatalogue } from '../published-catalogue.js';

/** Options of `kurel capabilities`. */
export interface CapabilitiesCommandOptions extends CapabilitySourceOptions {
  format: 'text' | 'json';
}

/** Runs `kurel capabilities`: the registry as a table, or as JSON; returns the exit code. */
export async function runCapabilities(options: CapabilitiesCommandOptions, io: CommandIo): Promise<number> {
  const loaded = await loadPublishedCatalogue(options, io);
  if (!loaded.ok) return loaded.exitCode;
  const listing = listCapabilities(loaded.catalogue);
  io.stdout(`${options.format === 'json' ? stringifyJson(listing) : formatCapabilityTable(listing)}\n`);
  return EXIT.ok;
}

const COLUMNS = ['TYPE', 'SOURCE', 'AWARE', 'REQUIRED', 'DEFINITION', 'VERSIONS', 'LATEST', 'DESCRIPTION'] as const;

/** A plain-text table, one capability per row, its versions ascending (`-` for none). */
export function formatCapabilityTable(listing: readonly CapabilityListing[]): string {
  const yesNo = (value: boolean) => (value ? 'yes' : 'no');
  // A handler-only type shows its handler's version, marked as such: it is information, not a choice.
  const versionsOf = (c: CapabilityListing) =>
    c.versions.map((v) => v.version).join(', ') || (c.handlerVersion && !c.hasDefinition ? `${c.handlerVersion} (handler)` : '-');
  return formatTable(
    COLUMNS,
    listing.map((c) => [
      c.type,
      escapeControls(c.source),
      yesNo(c.capabilityAware),
      yesNo(c.capabilityRequired),
      yesNo(c.hasDefinition),
      versionsOf(c),
      c.latest ?? '-',
      escapeControls(c.description),
    ]),
  );
}
