import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { InputFile } from '../../src/core/input.js';
import { type LintReport, lintInputs } from '../../src/operations/lint.js';

/** The lines every test profile starts with; bindings follow from line {@link FIRST_BINDING_LINE}. */
const HEADER = ['apiVersion: launcher.gokure.dev/v1alpha1', 'kind: ClusterProfile', 'metadata:', '  name: test', 'spec:', '  capabilities:'];

/** A CapabilityDefinition of `redis-sidecar` whose rendering requires a string `image`. */
export const REDIS_SIDECAR_DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: redis-sidecar
spec:
  description: a Redis sidecar
  rendering:
    properties:
      image: {type: string, required: true}
`;

/** The line the first binding of {@link withBindings} lands on. */
export const FIRST_BINDING_LINE = HEADER.length + 1;

/**
 * A ClusterProfile whose `spec.capabilities` holds `bindings` (written without base
 * indentation). The first binding line is line 7 and binding keys start at column 5, so a
 * position in the bindings text at line n, column c is line 6 + n, column 4 + c.
 */
export function withBindings(bindings: string): string {
  const lines = dedent(bindings).map((line) => (line === '' ? '' : `    ${line}`));
  return `${[...HEADER, ...lines].join('\n')}\n`;
}

/** Strips a leading newline, trailing blank lines and the common indentation. */
export function dedent(text: string): string[] {
  const lines = text.replace(/^\n/, '').replace(/\s+$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
}

/** Lints one profile text in-process with the built-in handlers (and optional definition files). */
export function lintText(
  text: string | Uint8Array,
  options: { file?: string; strictCapabilities?: boolean; definitions?: Record<string, string> } = {},
): LintReport {
  const inputs: InputFile[] = [{ file: options.file ?? 'cluster.yaml', content: text, origin: 'argument' }];
  for (const [file, content] of Object.entries(options.definitions ?? {})) inputs.push({ file, content, origin: 'definition' });
  return lintInputs(inputs, createCatalogue(), { strictCapabilities: options.strictCapabilities ?? false });
}

/** The parts of a diagnostic tests pin: code, severity, position and JSON Pointer path. */
export interface Pinned {
  code: string;
  severity: string;
  line: number;
  column: number;
  path: string;
}

/** Pins a diagnostic to code, severity, line, column and path. */
export function pin(d: Diagnostic): Pinned {
  return { code: d.code, severity: d.severity, line: d.line, column: d.column, path: d.path };
}

/** Every diagnostic of linting `text`, pinned. */
export function diagnose(text: string | Uint8Array, options: Parameters<typeof lintText>[1] = {}): Pinned[] {
  return lintText(text, options).diagnostics.map(pin);
}

/** An error at a position, for `toEqual` against {@link pin}. */
export function err(code: string, line: number, column: number, path: string): Pinned {
  return { code, severity: 'error', line, column, path };
}

/** The resolved capabilities of a profile that must lint clean; fails loudly otherwise. */
export function resolve(text: string, options: Parameters<typeof lintText>[1] = {}): Record<string, unknown> {
  const report = lintText(text, options);
  if (report.diagnostics.length > 0) {
    throw new Error(`expected no diagnostics, found:\n${report.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join('\n')}`);
  }
  const resolved = report.files[0]?.resolved;
  if (!resolved) throw new Error('the profile has no resolved capabilities');
  return resolved.capabilities;
}

/**
 * The resolved capabilities of a profile whose only problems are `unvalidated-capability`
 * warnings of pass-through bindings (README: a pass-through built-in's rendering is validated by nothing).
 */
export function resolvePassThrough(text: string): Record<string, unknown> {
  const report = lintText(text);
  const others = report.diagnostics.filter((d) => d.code !== 'unvalidated-capability' || d.severity !== 'warning');
  if (others.length > 0)
    throw new Error(`expected only unvalidated-capability warnings, found:\n${others.map((d) => `${d.line}:${d.column} ${d.code}`).join('\n')}`);
  const resolved = report.files[0]?.resolved;
  if (!resolved) throw new Error('the profile has no resolved capabilities');
  return resolved.capabilities;
}

/** A clean ClusterProfile of one binding, in flow style (what the built CLI's start tests lint). */
export const CLEAN_PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  capabilities:
    expose: {rendering: {controllerType: ingress, ingressClassName: nginx}}
`;

/**
 * A profile with the two mistakes the report tests read (a typo'd key with its did-you-mean, and
 * a capability nothing knows): line 10 column 9 `unknown-field`, line 11 column 5 `unknown-capability`.
 */
export const PROFILE_WITH_MISTAKES = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  capabilities:
    expose:
      rendering:
        controllerType: ingress
        ingresClassName: nginx
    servicemesh: {}
`;
