export { BUILTIN_HANDLERS } from '../handlers/index.js';
export {
  type CapabilityDefinitionEntry,
  Catalogue,
  type CatalogueExtension,
  type CreateCatalogueOptions,
  createCatalogue,
  type HandlerCandidate,
  type HandlerSource,
  type RegisteredHandler,
  type RenderingCheck,
} from './catalogue/catalogue.js';
export { RegistryError } from './catalogue/errors.js';
export { type CatalogueLoad, type CatalogueSources, loadCatalogue, loadHandlers } from './catalogue/load-catalogue.js';
export { addPlugins, loadPlugins, PluginLoadError, withPlugins } from './catalogue/load-plugins.js';
export { registryDigest } from './catalogue/registry-digest.js';
export { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode, type Issue, type Path, type Severity } from './core/diagnostics.js';
export type { FileReport, InputFile, InputOrigin, ResolvedProfile } from './core/input.js';
export type { JsonSchema, JsonType } from './core/json-schema.js';
export { VERSION } from './core/version.js';
export { latestVersion, refuseDefinitionVersion, refusePin, resolvePin } from './core/versions.js';
export { ApplicationSchema } from './documents/application.js';
export { CapabilityDefinitionSchema } from './documents/capability-definition.js';
export { CapabilityLockSchema, type LockData, readLock, writeLockText } from './documents/capability-lock.js';
export { compareDefinitions, type DefinitionChange, type DefinitionComparison } from './documents/compare-definitions.js';
export { type CompiledDefinition, compileDefinition, type DefinitionCompilation } from './documents/compile-definition.js';
export { definitionDigest } from './documents/definition-digest.js';
export {
  type BuildOptions,
  type BuildReport,
  type BuildSources,
  buildApplication,
  mergeProperties,
  type ResolvedApplication,
  type ResolvedComponent,
  type ResolvedTrait,
} from './operations/build-application.js';
export { type CapabilitySchema, capabilitySchema, listCapabilitySchemas, renderingSchemaDocument } from './operations/capability-schema.js';
export { clusterProfileJsonSchema } from './operations/cluster-profile-schema.js';
export { type CompatFinding, type CompatPair, type CompatRun, compatOfDefinitions, compatOfFiles } from './operations/compat.js';
export {
  type ConversionStep,
  convertRendering,
  migrationChain,
  type RenderingConversion,
  type VersionSchema,
} from './operations/convert-rendering.js';
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
export { unifiedDiff } from './operations/unified-diff.js';
export { type ProfileSources, type ProfileVerdict, validateJsonProfile, validateProfile } from './operations/validate-profile.js';
export { type CheckResult, checkSchema } from './schema/check.js';
export {
  type Bump,
  bumpCovers,
  type ChangeClass,
  type ChangeKind,
  compareSchemas,
  declaredBump,
  neededBump,
  type SchemaChange,
  versionDeclaring,
} from './schema/compare.js';
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
export { comparePlatformVersions, type Platform } from './schema/platform-version.js';
export { publishSchema } from './schema/publish.js';
export { parseYamlStream, type SourceDocument, type YamlStream } from './yaml/source.js';
export { type EditedText, type EditRefusal, editYamlText, type TextChange, type TextEdit } from './yaml/text-edits.js';
