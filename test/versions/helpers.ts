import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { InputFile } from '../../src/core/input.js';
import { type LintOptions, type LintReport, lintInputs } from '../../src/operations/lint.js';
import { type PinnedDiagnostic, pinDiagnostic } from '../helpers/pin.js';

/**
 * A CapabilityDefinition of `name`: line 6 is `version: <version>` (written as given, so a
 * test may quote it or not) when one is given, then `description`, then the properties from
 * line 10 (or 9 without a version).
 */
export function definitionText(
  name: string,
  version: string | undefined,
  properties: string[] = ['image: {type: string, required: true}'],
  extra: string[] = [],
): string {
  return [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: CapabilityDefinition',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    ...(version === undefined ? [] : [`  version: ${version}`]),
    ...extra.map((line) => `  ${line}`),
    '  description: Injects a Redis sidecar container.',
    '  rendering:',
    '    properties:',
    ...properties.map((line) => `      ${line}`),
    '',
  ].join('\n');
}

/**
 * A ClusterProfile binding each key: line 7 is the first key; a binding with a `version` writes
 * it on the line after its key (as given: quoted or not), then `rendering: {image: redis:7}`.
 */
export function profileText(bindings: Record<string, string | undefined>, name = 'prod'): string {
  const lines = ['apiVersion: launcher.gokure.dev/v1alpha1', 'kind: ClusterProfile', 'metadata:', `  name: ${name}`, 'spec:', '  capabilities:'];
  for (const [key, version] of Object.entries(bindings)) {
    lines.push(`    ${key}:`);
    if (version !== undefined) lines.push(`      version: ${version}`);
    lines.push('      rendering: {image: redis:7}');
  }
  return `${lines.join('\n')}\n`;
}

/** The redis-sidecar versions of the fixture package, in memory: 1.0.0, 1.1.0 and 2.0.0-rc.1. */
export const REDIS_VERSIONS: Record<string, string> = {
  'defs/redis-sidecar-1.0.0.yaml': definitionText('redis-sidecar', '1.0.0', [
    'image: {type: string, required: true}',
    'maxMemory: {type: string, default: 256Mi}',
  ]),
  'defs/redis-sidecar-1.1.0.yaml': definitionText('redis-sidecar', '1.1.0', [
    'image: {type: string, required: true}',
    'maxMemory: {type: string, default: 256Mi}',
    'port: {type: integer, default: 6379}',
  ]),
  'defs/redis-sidecar-2.0.0-rc.1.yaml': definitionText('redis-sidecar', '2.0.0-rc.1', [
    'image: {type: string, required: true}',
    'memoryLimit: {type: string, default: 1Gi}',
  ]),
};

/** Lints definition files (in the order given) and profiles in-process with the built-in handlers. */
export function lintWith(
  definitions: Record<string, string> | [string, string][],
  profiles: Record<string, string> = {},
  options: LintOptions = {},
): LintReport {
  const inputs: InputFile[] = [];
  for (const [file, content] of Object.entries(profiles)) inputs.push({ file, content, origin: 'argument' });
  for (const [file, content] of Array.isArray(definitions) ? definitions : Object.entries(definitions)) inputs.push({ file, content, origin: 'definition' });
  return lintInputs(inputs, createCatalogue(), options);
}

/** Every diagnostic of a report, pinned. */
export function pinnedOf(report: Pick<LintReport, 'diagnostics'>): PinnedDiagnostic[] {
  return report.diagnostics.map(pinDiagnostic);
}
