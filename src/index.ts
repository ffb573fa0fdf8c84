export {
  Catalogue,
  createCatalogue,
  type CapabilityDefinitionEntry,
  type CatalogueExtension,
  type CreateCatalogueOptions,
  type HandlerCandidate,
  type HandlerSource,
  type RegisteredHandler,
  type RenderingCheck,
} from './catalogue/catalogue.js';
export { RegistryError } from './catalogue/errors.js';
export { loadCatalogue, loadHandlers, type CatalogueLoad, type CatalogueSources } from './catalogue/load-catalogue.js';
export { addPlugins, loadPlugins, withPlugins, PluginLoadError } from './catalogue/load-plugins.js';
export { defineHandler, checkRendering, type Handler, type CapabilityAwareHandler, type PassThroughHandler, type Rendering, type RenderingResult } from './schema/handler.js';
export { compileDefinition, type CompiledDefinition, type DefinitionCompilation } from './documents/compile-definition.js';
export { CapabilityDefinitionSchema } from './documents/capability-definition.js';
export { ApplicationSchema } from './documents/application.js';
export { checkSchema, type CheckResult } from './schema/check.js';
export type { JsonSchema, JsonType } from './core/json-schema.js';
export type { FileReport, InputFile, InputOrigin, ResolvedProfile } from './core/input.js';
export { lintInputs, type LintOptions, type LintReport } from './operations/lint.js';
export {
  buildApplication,
  mergeProperties,
  type BuildSources,
  type BuildOptions,
  type BuildReport,
  type ResolvedApplication,
  type ResolvedComponent,
  type ResolvedTrait,
} from './operations/build-application.js';
export { evaluateProfile, type ProfileEvaluation } from './operations/evaluate-profile.js';
export { validateProfile, validateJsonProfile, type ProfileVerdict, type ProfileSources } from './operations/validate-profile.js';
export { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode, type Issue, type Severity, type Path } from './core/diagnostics.js';
export { BUILTIN_HANDLERS } from '../handlers/index.js';
export { parseYamlStream, type YamlStream, type SourceDocument } from './yaml/source.js';
export { clusterProfileJsonSchema } from './operations/cluster-profile-schema.js';
export { capabilitySchema, listCapabilitySchemas, renderingSchemaDocument, type CapabilitySchema } from './operations/capability-schema.js';
export { listCapabilities, type CapabilityListing } from './operations/list-capabilities.js';
export { publishSchema } from './schema/publish.js';
export { VERSION } from './core/version.js';
