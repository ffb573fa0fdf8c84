import { stringifyJson } from '../../core/json-text.js';
import { didYouMean } from '../../core/suggest.js';
import { capabilitySchema, renderingSchemaDocument } from '../../operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../operations/cluster-profile-schema.js';
import { loadPublishedCatalogue, type PublishOptions } from '../command-catalogue.js';
import { EXIT } from '../exit-code.js';
import type { CommandIo } from '../io.js';
import { narrowingPlatform } from '../platform-flags.js';

/**
 * Runs `kurel schema [TYPE]`: prints the JSON Schema of one capability's rendering, or of a
 * whole `cluster.yaml` without TYPE, narrowed to `--platform` when given; returns the exit
 * code (2 for an unknown TYPE).
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
  const capability = capabilitySchema(catalogue, type, { platform });
  if (!capability) {
    const hint = didYouMean(type, catalogue.knownTypes());
    io.stderr(`error: unknown capability type "${type}"${hint ? ` (${hint})` : ''}; known types: ${catalogue.knownTypes().join(', ')}\n`);
    return EXIT.usage;
  }
  io.stdout(`${stringifyJson(renderingSchemaDocument(capability))}\n`);
  return EXIT.ok;
}
