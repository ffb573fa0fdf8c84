import type { Catalogue } from '../../src/catalogue/catalogue.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { InputFile } from '../../src/core/input.js';
import { type LintReport, lintInputs } from '../../src/operations/lint.js';
import { type PinnedDiagnostic, pinDiagnostic } from '../helpers/pin.js';
import { dedent } from '../helpers/profile.js';

/** The lines every test definition starts with; its properties follow from line 8. */
const HEADER = (name: string) => [
  'apiVersion: launcher.gokure.dev/v1alpha1',
  'kind: CapabilityDefinition',
  'metadata:',
  `  name: ${name}`,
  'spec:',
  '  rendering:',
  '    properties:',
];

/** The line the first property of {@link definition} lands on. */
export const FIRST_PROPERTY_LINE = 8;

/**
 * A CapabilityDefinition named `name` whose `spec.rendering.properties` holds `properties`
 * (written without base indentation). Property text line n, column c lands on definition
 * line 7 + n, column 6 + c.
 */
export function definition(properties: string, name = 'my-trait'): string {
  const lines = dedent(properties).map((line) => (line === '' ? '' : `      ${line}`));
  return `${[...HEADER(name), ...lines].join('\n')}\n`;
}

/** What loading definitions (and optionally a profile) in-process gave. */
export interface Loaded {
  report: LintReport;
  registry: Catalogue;
}

/**
 * Lints CapabilityDefinition files (given as `--definitions` inputs, in the order given) and
 * an optional profile in-process, with the built-in handlers.
 */
export function load(files: Record<string, string> | [string, string][], profile?: string): Loaded {
  const inputs: InputFile[] = [];
  if (profile !== undefined) inputs.push({ file: 'cluster.yaml', content: profile, origin: 'argument' });
  const entries = Array.isArray(files) ? files : Object.entries(files);
  for (const [file, content] of entries) inputs.push({ file, content, origin: 'definition' });
  const report = lintInputs(inputs, createCatalogue());
  return { report, registry: report.catalogue };
}

/** A diagnostic pinned to what tests assert: code, severity, file, position and path. */
export type PinnedAt = PinnedDiagnostic;

/** Every diagnostic of a load, pinned. */
export function pinned(loaded: Pick<Loaded, 'report'>): PinnedAt[] {
  return loaded.report.diagnostics.map(pinDiagnostic);
}

/** An expected error in `file`. */
export function errorAt(file: string, code: string, line: number, column: number, path: string): PinnedAt {
  return { code, severity: 'error', file, line, column, path };
}

/** An expected warning in `file`. */
export function warningAt(file: string, code: string, line: number, column: number, path: string): PinnedAt {
  return { code, severity: 'warning', file, line, column, path };
}

/** The JSON Pointer of a property of the test definition. */
export function prop(...segments: (string | number)[]): string {
  return ['/spec/rendering/properties', ...segments].join('/');
}
