import type { Catalogue } from '../../src/catalogue/catalogue.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { type BuildOptions, type BuildReport, buildApplication } from '../../src/operations/build-application.js';
import { type PinnedDiagnostic, pinDiagnostic } from './pin.js';

const APP_HEADER = [
  'apiVersion: launcher.gokure.dev/v1alpha1',
  'kind: Application',
  'metadata:',
  '  name: shop',
  'spec:',
  '  components:',
  '  - name: web',
  '    type: webservice',
  '    traits:',
];

/** The line the first trait of {@link appWithTraits} lands on. */
export const FIRST_TRAIT_LINE = APP_HEADER.length + 1;

/**
 * An Application with one component `web` whose `traits` list is `traits` (written from
 * column 1, `- type: ...`). Trait lines start at line 10 and are indented by 4, so a
 * position at line n, column c of `traits` is line 9 + n, column 4 + c.
 */
export function appWithTraits(traits: string): string {
  const lines = trimBlock(traits).map((line) => (line === '' ? '' : `    ${line}`));
  return `${[...APP_HEADER, ...lines].join('\n')}\n`;
}

const PROFILE_HEADER = ['apiVersion: launcher.gokure.dev/v1alpha1', 'kind: ClusterProfile', 'metadata:', '  name: prod', 'spec:', '  capabilities:'];

/**
 * A ClusterProfile named `prod` whose `spec.capabilities` holds `bindings` (written from column
 * 1). Binding lines start at line 7, indented by 4.
 */
export function profileWithBindings(bindings: string): string {
  const lines = trimBlock(bindings).map((line) => (line === '' ? '' : `    ${line}`));
  return `${[...PROFILE_HEADER, ...lines].join('\n')}\n`;
}

/** Strips a leading newline, trailing blanks and the common indentation. */
function trimBlock(text: string): string[] {
  const lines = text.replace(/^\n/, '').replace(/\s+$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
}

/** Builds `app.yaml` against `cluster.yaml` in-process. */
export function buildTexts(
  app: string,
  profile: string,
  options: BuildOptions & { registry?: Catalogue; definitions?: Record<string, string> } = {},
): BuildReport {
  const definitions = Object.entries(options.definitions ?? {}).map(([file, content]) => ({ file, content, origin: 'definition' as const }));
  return buildApplication(
    { application: { file: 'app.yaml', content: app }, profile: { file: 'cluster.yaml', content: profile }, definitions },
    options.registry ?? createCatalogue(),
    options.strictCapabilities === undefined ? {} : { strictCapabilities: options.strictCapabilities },
  );
}

/** The parts of a diagnostic tests pin: code, severity, file, position and path. */
export type PinnedBuild = PinnedDiagnostic;

/** Pins a diagnostic to code, severity, file, line, column and path. */
export const pinBuild: (d: Diagnostic) => PinnedBuild = pinDiagnostic;

/** An expected diagnostic, for `toEqual` against {@link pinBuild}. */
export function at(code: string, file: string, line: number, column: number, path: string, severity = 'error'): PinnedBuild {
  return { code, severity, file, line, column, path };
}
