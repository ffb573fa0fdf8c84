export { createRegistry, type CreateRegistryOptions } from './registry/create-registry.js';
export { Registry, RegistryError, type CapabilityDefinitionEntry, type HandlerSource, type RegisteredHandler } from './registry/registry.js';
export { defineHandler, type Handler, type CapabilityAwareHandler, type PassThroughHandler, type Rendering, type RenderingResult } from './registry/handler.js';
export { checkRendering } from './registry/check-rendering.js';
export { loadPlugins, PluginLoadError } from './registry/load-plugins.js';
export { loadDefinitionDocuments } from './registry/load-definitions.js';
export { compileDefinition, type CompiledDefinition, type DefinitionCompilation } from './registry/compile-definition.js';
export { CapabilityDefinitionSchema } from './documents/capability-definition.js';
export { checkSchema, type JsonSchema, type CheckResult } from './validate/check-schema.js';
export { lintInputs, type LintInput, type LintOptions, type LintReport, type FileReport, type InputOrigin } from './validate/lint.js';
export {
  buildApplication,
  mergeProperties,
  type BuildSources,
  type BuildOptions,
  type BuildReport,
  type ResolvedApplication,
  type ResolvedComponent,
  type ResolvedTrait,
} from './validate/build.js';
export { ApplicationSchema } from './documents/application.js';
export { evaluateProfile, type ProfileEvaluation, type ResolvedProfile } from './validate/evaluate-profile.js';
export { validateProfile, validateJsonProfile, type ProfileVerdict, type ProfileSources } from './validate/validate-profile.js';
export { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode, type Issue, type Severity, type Path } from './validate/diagnostic.js';
export { BUILTIN_HANDLERS } from '../handlers/index.js';
export { parseYamlStream, type YamlStream, type SourceDocument } from './yaml/source.js';
export { clusterProfileJsonSchema } from './schema/cluster-profile-schema.js';
export { capabilitySchema, listCapabilitySchemas, renderingSchemaDocument, type CapabilitySchema } from './schema/capability-schema.js';
export { publishSchema } from './schema/publish-schema.js';
export { VERSION } from './version.js';
