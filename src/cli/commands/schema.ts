import type { Registry } from '../../catalogue/registry.js';
import { capabilitySchema, renderingSchemaDocument } from '../../operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../operations/cluster-profile-schema.js';
import { compareDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import { lintInputs } from '../../operations/lint.js';
import { didYouMean } from '../../core/suggest.js';
import { createCommandRegistry } from '../command-registry.js';
import { EXIT } from '../exit-code.js';
import { stringifyJson } from '../../core/json-text.js';
import { formatText, paletteFor } from '../format/text.js';
import { gatherInputs } from '../../files/gather-inputs.js';
import type { CommandIo } from '../io.js';

/** The flags that choose which capabilities a command knows besides the built-ins. */
export interface CapabilitySourceOptions {
  definitions: string[];
  capabilityDef: string[];
  plugin: string[];
}

/** A registry ready to publish, or the exit code when loading it failed (diagnostics already printed). */
export type LoadedRegistry = { ok: true; registry: Registry } | { ok: false; exitCode: number };

/**
 * Builds the registry a command publishes: built-ins, then plugins, then definitions, as lint
 * loads them. Problems go to standard error; any error stops the command (a schema that
 * silently lacked a capability would mislead), warnings do not.
 */
export async function loadCapabilityRegistry(options: CapabilitySourceOptions, io: CommandIo): Promise<LoadedRegistry> {
  const gathered = await gatherInputs({ definitionDirs: options.definitions, definitionFiles: options.capabilityDef }, io.stdin);
  const diagnostics: Diagnostic[] = [...gathered.diagnostics];
  const { registry, refused, diagnostic } = await createCommandRegistry(options.plugin, io.cwd);
  if (diagnostic) diagnostics.push(diagnostic);
  const fatal = gathered.fatal || refused;
  const report = fatal ? undefined : lintInputs(gathered.inputs, registry);
  diagnostics.push(...(report?.diagnostics ?? []));
  diagnostics.sort(compareDiagnostics);
  if (diagnostics.length > 0) {
    io.stderr(formatText(diagnostics, report?.sources ?? new Map(), paletteFor(io.stderrIsTTY ? { isTTY: true } : {}, io.env)) + '\n');
  }
  if (fatal) return { ok: false, exitCode: EXIT.usage };
  if (diagnostics.some((d) => d.severity === 'error')) return { ok: false, exitCode: EXIT.problems };
  return { ok: true, registry };
}

/**
 * Runs `kurel schema [TYPE]`: prints the JSON Schema of one capability's rendering, or of a
 * whole `cluster.yaml` without TYPE; returns the exit code (2 for an unknown TYPE).
 */
export async function runSchema(type: string | undefined, options: CapabilitySourceOptions, io: CommandIo): Promise<number> {
  const loaded = await loadCapabilityRegistry(options, io);
  if (!loaded.ok) return loaded.exitCode;
  const { registry } = loaded;
  if (type === undefined) {
    io.stdout(stringifyJson(clusterProfileJsonSchema(registry)) + '\n');
    return EXIT.ok;
  }
  const capability = capabilitySchema(registry, type);
  if (!capability) {
    const hint = didYouMean(type, registry.knownTypes());
    io.stderr(`error: unknown capability type "${type}"${hint ? ` (${hint})` : ''}; known types: ${registry.knownTypes().join(', ')}\n`);
    return EXIT.usage;
  }
  io.stdout(stringifyJson(renderingSchemaDocument(capability)) + '\n');
  return EXIT.ok;
}
