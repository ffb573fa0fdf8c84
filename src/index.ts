// kurel's library API: what a program embedding kurel needs, and nothing it would have to keep
// up with as kurel's internals change. The list is recorded in api/kurel.api.md and checked by
// test/architecture/public-api.test.ts; a change to it is a change of the package's API.

// Handlers: the built-ins, and what a plugin or an embedding program writes.
export { BUILTIN_HANDLERS } from '../handlers/index.js';
// Catalogues: handlers, plugins and definitions put together; loading them from files.
export {
  type CapabilityDefinitionEntry,
  Catalogue,
  type CatalogueExtension,
  type CreateCatalogueOptions,
  createCatalogue,
  type HandlerSource,
  type RegisteredHandler,
  type RenderingCheck,
} from './catalogue/catalogue.js';
export { RegistryError } from './catalogue/errors.js';
export { type CatalogueLoad, type CatalogueSources, loadCatalogue, loadHandlers } from './catalogue/load-catalogue.js';
export { addPlugins, PluginLoadError } from './catalogue/load-plugins.js';
// Diagnostics and the inputs and reports of the operations.
export { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode, type Issue, type Path, type Severity } from './core/diagnostics.js';
export type { FileReport, InputFile, InputOrigin, ResolvedProfile } from './core/input.js';
export type { JsonSchema, JsonType } from './core/json-schema.js';
export { VERSION } from './core/package-version.js';
// The documents' own schemas, and the lockfile.
export { ApplicationSchema } from './documents/application.js';
export { CapabilityDefinitionSchema } from './documents/capability-definition.js';
export { CapabilityLockSchema, type LockData, readLock, writeLockText } from './documents/capability-lock.js';
// The operations: lint, validate, build, publish schemas, list, lock, outdated, migrate, compat.
export {
  type BuildOptions,
  type BuildReport,
  type BuildSources,
  buildApplication,
  type ResolvedApplication,
  type ResolvedComponent,
  type ResolvedTrait,
} from './operations/build-application.js';
export { type CapabilitySchema, capabilitySchema, listCapabilitySchemas, renderingSchemaDocument } from './operations/capability-schema.js';
export { clusterProfileJsonSchema } from './operations/cluster-profile-schema.js';
export { type CompatFinding, type CompatPair, type CompatRun, compatOfDefinitions, compatOfFiles } from './operations/compat.js';
export { type EvaluateOptions, evaluateProfile, type ProfileEvaluation } from './operations/evaluate-profile.js';
export { type LintOptions, type LintReport, lintInputs } from './operations/lint.js';
export { type CapabilityListing, listCapabilities } from './operations/list-capabilities.js';
export { type LockPlan, planLock } from './operations/lock.js';
export {
  type MigratedFile,
  type MigrateOptions,
  type MigrateReport,
  type MigrationTarget,
  migrateInputs,
  readMigrationTargets,
} from './operations/migrate.js';
export { type OutdatedRow, outdatedRows } from './operations/outdated.js';
export type { PlatformOptions } from './operations/platform.js';
export { type ProfileSources, type ProfileVerdict, validateJsonProfile, validateProfile } from './operations/validate-profile.js';
export type { Bump, ChangeClass, ChangeKind } from './schema/compare.js';
export {
  type CapabilityAwareHandler,
  checkRendering,
  defineHandler,
  type Handler,
  type PassThroughHandler,
  type Rendering,
  type RenderingContext,
  type RenderingResult,
} from './schema/handler.js';
export type { Platform } from './schema/platform-version.js';
// Positions: a profile already parsed (evaluateProfile judges its data) gets its issues placed.
export { parseYamlStream, type SourceDocument, type YamlDocument, type YamlStream } from './yaml/source.js';
