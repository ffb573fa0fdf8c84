import { stringifyJson } from '../../core/json-text.js';
import { didYouMean } from '../../core/suggest.js';
import { capabilitySchema, chooseCapabilityVersion, renderingSchemaDocument } from '../../operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../operations/cluster-profile-schema.js';
import type { PublishOptions } from '../../sources/command-catalogue.js';
import { narrowingPlatform } from '../../sources/platform-flags.js';
import { EXIT } from '../exit-code.js';
import type { CommandIo } from '../io.js';
import { loadPublishedCatalogue } from '../published-catalogue.js';

/**
 * Runs `kurel schema [TYPE[@PIN]]`: prints the JSON Schema of one capability's rendering (the
 * version the pin resolves to; without one, the version an unpinned binding resolves to), or of
 * a whole `cluster.yaml` without TYPE, narrowed to `--platform` when given; returns the exit
 * code (2 for an unknown TYPE or a pin no version matches).
 */
export async function runSchema(type: string | undefined, options: PublishOptions, io: CommandIo): Promise<number> {
  const loaded = await loadPublishedCatalogue(options, io);
  if (!loaded.ok) return loaded.exitCode;
  const { catalogue } = loaded;
  const platform = narrowingPlatform(options.platform, loaded.platformDefault);
  if (type === undefined) {
    io.stdout(`${stringifyJson(clusterProfileJsonSchema(catalogue, { platform }))}\n`);
    return EXIT.ok;
  }
  const at = type.indexOf('@');
  const name = at === -1 ? type : type.slice(0, at);
  if (!catalogue.knows(name)) {
    const hint = didYouMean(name, catalogue.knownTypes());
    io.stderr(`error: unknown capability type "${name}"${hint ? ` (${hint})` : ''}; known types: ${catalogue.knownTypes().join(', ')}\n`);
    return EXIT.usage;
  }
  const choice = chooseCapabilityVersion(catalogue, name, at === -1 ? undefined : type.slice(at + 1));
  if (!choice.ok) {
    const hint = choice.reason === 'malformed' && choice.hint ? ` (${choice.hint})` : '';
    io.stderr(`error: ${type}: ${choice.message}${hint}\n`);
    return EXIT.usage;
  }
  const version = catalogue.hasDefinitionVersions(name) ? choice.version : undefined;
  const capability = capabilitySchema(catalogue, name, { platform, version })!;
  io.stdout(`${stringifyJson(renderingSchemaDocument(capability))}\n`);
  return EXIT.ok;
}
