import type { Catalogue } from '../../src/catalogue/catalogue.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { InputFile } from '../../src/core/input.js';
import type { VersionSchema } from '../../src/operations/convert-rendering.js';
import { lintInputs } from '../../src/operations/lint.js';
import { type MigrateOptions, type MigrateReport, type MigrationTarget, migrateInputs } from '../../src/operations/migrate.js';
import { definitionText } from '../versions/helpers.js';

/** Definition files of `name`, one per version, each holding the property lines given (see definitionText). */
export function definitionFiles(versions: Record<string, string[]>, name = 'redis-sidecar'): Record<string, string> {
  return Object.fromEntries(
    Object.entries(versions).map(([version, properties]) => [`defs/${name}-${version}.yaml`, definitionText(name, version, properties)]),
  );
}

/** The catalogue those definitions load into (throws on a definition error, so a test's definitions are known good). */
export function catalogueOf(files: Record<string, string>): Catalogue {
  const report = lintInputs(
    Object.entries(files).map(([file, content]): InputFile => ({ file, content, origin: 'definition' })),
    createCatalogue(),
  );
  const errors = report.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`test definitions do not load: ${JSON.stringify(errors)}`);
  return report.catalogue;
}

/** The compiled schemas of a chain of versions of `name`. */
export function chainOf(catalogue: Catalogue, versions: readonly string[], name = 'redis-sidecar'): VersionSchema[] {
  return versions.map((version) => ({ version, schema: catalogue.definition(name, version)!.schema }));
}

/** Migrates profile texts (named by file) with definition texts, in-process with the built-in handlers. */
export function migrate(
  profiles: Record<string, string>,
  definitions: Record<string, string>,
  to: MigrationTarget[],
  options: MigrateOptions = {},
): MigrateReport {
  const inputs: InputFile[] = [
    ...Object.entries(profiles).map(([file, content]): InputFile => ({ file, content, origin: 'argument' })),
    ...Object.entries(definitions).map(([file, content]): InputFile => ({ file, content, origin: 'definition' })),
  ];
  return migrateInputs(inputs, createCatalogue(), to, options);
}

/** A ClusterProfile named prod whose `spec.capabilities` lines are given (indented under it by 4); its first binding is on line 7. */
export function profile(...bindings: string[]): string {
  return `${['apiVersion: launcher.gokure.dev/v1alpha1', 'kind: ClusterProfile', 'metadata:', '  name: prod', 'spec:', '  capabilities:', ...bindings.map((l) => (l === '' ? '' : `    ${l}`))].join('\n')}\n`;
}
