import type { Hover } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Path } from '../core/diagnostics.js';
import type { JsonSchema } from '../core/json-schema.js';
import { ClusterProfileSchema } from '../documents/cluster-profile.js';
import { describeLifecycle, judgeLifecycle, type Lifecycle, readLifecycle } from '../schema/lifecycle.js';
import { platformVersionOf } from '../schema/platform-version.js';
import { type BindingAt, bindingOf, isProfileText, type Knowledge, platformOfProfile, renderingSchemas, schemasAt } from './knowledge.js';
import type { PlaceInText } from './yaml-at.js';

/**
 * The hover of a key in a profile (docs/editors.md): on a binding's key, its capability's source
 * (built-in, plugin, or definition file and version) and the version it resolved to; on a key of
 * a rendering, the field's description, type, default, allowed values and lifecycle at the
 * profile's platform; on another key of the profile, what the ClusterProfile schema says of it.
 * `place` is the key at `position`, as the reading thread found it (text-reading.ts).
 */
export function hoverAt(document: TextDocument, place: PlaceInText | undefined, knowledge: Knowledge): Hover | null {
  const text = document.getText();
  if (!place?.isOnKey) return null;
  if (!isProfileText(text)) return null;
  const binding = bindingOf(place.path, knowledge);
  const range = { start: document.positionAt(place.key[0]), end: document.positionAt(place.key[1]) };
  let lines: string[] | undefined;
  if (binding && place.path.length === 3) lines = capabilityLines(binding, knowledge);
  else if (binding && place.path[3] === 'rendering' && place.path.length > 4) lines = fieldLines(place.path.slice(4), binding, knowledge);
  else lines = structureLines(place.path);
  return lines ? { contents: { kind: 'markdown', value: lines.join('\n\n') }, range } : null;
}

// A key of the ClusterProfile document itself (spec.platform, a binding's version, ...): its description and type.
function structureLines(path: Path): string[] | undefined {
  const nodes = schemasAt(ClusterProfileSchema as JsonSchema, path).filter((n) => typeof n.description === 'string');
  const node = nodes[0];
  if (!node) return undefined;
  const lines = [`**${String(path[path.length - 1])}** (ClusterProfile)`, node.description!];
  const type = nodes.find((n) => n.type !== undefined)?.type;
  if (type !== undefined) lines.push(`Type: ${Array.isArray(type) ? type.join(' | ') : type}`);
  return lines;
}

function capabilityLines(binding: BindingAt, knowledge: Knowledge): string[] {
  const { catalogue } = knowledge;
  if (!catalogue.knows(binding.type)) return [`**${binding.key}**: no handler or definition knows the capability \`${binding.type}\``];
  const definition = catalogue.definition(binding.type, binding.version);
  const handler = catalogue.handler(binding.type);
  const lines = [`**${binding.key}**: capability \`${binding.type}\``];
  const description = definition?.description || handler?.handler.description;
  if (description) lines.push(description);
  const sources: string[] = [];
  if (definition) sources.push(`definition ${definition.file}${definition.version ? ` (version ${definition.version})` : ''}`);
  if (handler) sources.push(handler.source === 'builtin' ? 'built-in handler' : `handler of ${handler.source.replace(/^plugin:/, 'plugin ')}`);
  lines.push(`Source: ${sources.join('; ')}`);
  if (binding.version !== undefined)
    lines.push(`Resolved version: ${binding.version}${binding.pin !== undefined ? ` (pinned "${binding.pin}")` : ' (unpinned)'}`);
  const versions = catalogue.versionsOf(binding.type);
  if (versions.length > 1) lines.push(`Versions: ${versions.join(', ')}`);
  const lifecycle = catalogue.capabilityLifecycle(binding.type, binding.version);
  if (lifecycle) lines.push(lifecycleLine(lifecycle, knowledge));
  return lines;
}

function fieldLines(path: (string | number)[], binding: BindingAt, knowledge: Knowledge): string[] | undefined {
  const nodes = renderingSchemas(knowledge.catalogue, binding).flatMap((schema) => schemasAt(schema, path));
  if (nodes.length === 0) return undefined;
  const pick = <K extends keyof JsonSchema>(key: K): JsonSchema[K] | undefined => nodes.find((n) => n[key] !== undefined)?.[key];
  const lines = [`**${String(path[path.length - 1])}** (capability \`${binding.type}\`)`];
  const description = pick('description');
  if (typeof description === 'string') lines.push(description);
  const type = pick('type');
  if (type !== undefined) lines.push(`Type: ${Array.isArray(type) ? type.join(' | ') : type}`);
  const fallback = pick('default');
  if (fallback !== undefined) lines.push(`Default: \`${JSON.stringify(fallback)}\``);
  const allowed = pick('enum');
  if (Array.isArray(allowed)) lines.push(`Allowed: ${allowed.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  const lifecycle = nodes.map((n) => readLifecycle(n as Record<string, unknown>)).find((l) => l !== undefined);
  if (lifecycle) lines.push(lifecycleLine(lifecycle, knowledge));
  return lines;
}

// A lifecycle in words and what it means at the profile's platform.
function lifecycleLine(lifecycle: Lifecycle, knowledge: Knowledge): string {
  const platform = platformOfProfile(knowledge);
  const running = platformVersionOf(platform, lifecycle.component);
  const judgement = judgeLifecycle(lifecycle, platform);
  const at = running === undefined ? `the platform names no ${lifecycle.component} version` : `at ${lifecycle.component} ${running}: ${STATE[judgement.state]}`;
  return `Lifecycle: ${describeLifecycle(lifecycle)} (${at})`;
}

const STATE = { available: 'available', deprecated: 'deprecated', 'too-early': 'not yet introduced', removed: 'removed' } as const;
