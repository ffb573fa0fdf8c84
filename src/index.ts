export { createRegistry, type CreateRegistryOptions } from './catalogue/create-registry.js';
export { Registry, RegistryError, type CapabilityDefinitionEntry, type HandlerSource, type RegisteredHandler } from './catalogue/registry.js';
export { defineHandler, type Handler, type CapabilityAwareHandler, type PassThroughHandler, type Rendering, type RenderingResult } from './schema/handler.js';
export { checkRendering } from './schema/check-rendering.js';
export { loadPlugins, PluginLoadError } from './catalogue/load-plugins.js';
export { loadDefinitionDocuments } from './catalogue/load-definitions.js';
export { compileDefinition, type CompiledDefinition, type DefinitionCompilation } from './documents/compile-definition.js';
export { CapabilityDefinitionSchema } from './documents/capability-definition.js';
export { checkSchema, type JsonSchema, type CheckResult } from './schema/check.js';
export { lintInputs, type LintInput, type LintOptions, type LintReport, type FileReport, type InputOrigin } from './operations/lint.js';
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
export { ApplicationSchema } from './documents/application.js';
export { evaluateProfile, type ProfileEvaluation, type ResolvedProfile } from './operations/evaluate-profile.js';
export { validateProfile, validateJsonProfile, type ProfileVerdict, type ProfileSources } from './operations/validate-profile.js';
export { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode, type Issue, type Severity, type Path } from './core/diagnostics.js';
export { BUILTIN_HANDLERS } from '../handlers/index.js';
export { parseYamlStream, type YamlStream, type SourceDocument } from './yaml/source.js';
export { clusterProfileJsonSchema } from './operations/cluster-profile-schema.js';
export { capabilitySchema, listCapabilitySchemas, renderingSchemaDocument, type CapabilitySchema } from './operations/capability-schema.js';
export { publishSchema } from './schema/publish.js';
export { VERSION } from './core/version.js';
