import { type TSchema, Type } from '@sinclair/typebox';
import { isMap } from '../core/data.js';
import { DIAGNOSTIC_CODES, type Diagnostic, error, type Issue, type Path, RAISE_ONLY_CODES } from '../core/diagnostics.js';
import { translateGlob } from '../core/glob-syntax.js';
import type { JsonSchema } from '../core/json-schema.js';
import { checkSchema } from '../schema/check.js';
import type { Platform } from '../schema/platform-version.js';
import { parseYamlStream, type SourceText } from '../yaml/source.js';
import { PlatformVersions } from './cluster-profile.js';

/** The name of kurel's configuration file (docs/configuration.md). */
export const CONFIG_FILE_NAME = '.kurel.yaml';

/** A severity a configuration may give a code; `off` drops it from the run. */
export type ConfiguredSeverity = 'error' | 'warning' | 'off';

/** Severities by diagnostic code. */
export type SeverityRules = Readonly<Record<string, ConfiguredSeverity>>;

/** The `.kurel.yaml` keys, as written (paths relative to the file's folder). */
export interface KurelConfig {
  definitions: readonly string[];
  capabilityDefs: readonly string[];
  plugins: readonly string[];
  lockfile?: string;
  /** Registry hosts reached over plain HTTP (docs/registries.md). */
  insecureRegistries?: readonly string[];
  strict?: boolean;
  strictCapabilities?: boolean;
  requirePinned?: boolean;
  platform?: Platform;
  /** Globs of inputs never linted, relative to the file's folder. */
  ignore: readonly string[];
  severity: SeverityRules;
  /** Applied in order to the inputs whose path relative to the file's folder matches one of `files`. */
  overrides: readonly { files: readonly string[]; severity: SeverityRules }[];
}

const Paths = (description: string) => Type.Array(Type.String({ minLength: 1 }), { description });

const SeverityLevel = Type.String({ enum: ['error', 'warning', 'off'], description: 'error, warning, or off to drop the code' });

// One property per code, so an unknown or misspelled code is an unknown field with a did-you-mean.
const Severities = Type.Object(Object.fromEntries(DIAGNOSTIC_CODES.map((code) => [code, Type.Optional(SeverityLevel)])) as Record<string, TSchema>, {
  additionalProperties: false,
  description: 'a severity per diagnostic code',
});

/** The schema of `.kurel.yaml`: every key optional, nothing else allowed (docs/configuration.md). */
export const KurelConfigSchema = Type.Object(
  {
    definitions: Type.Optional(Paths('folders of CapabilityDefinitions, relative to this file')),
    capabilityDefs: Type.Optional(Paths('CapabilityDefinition files, relative to this file')),
    plugins: Type.Optional(Paths('handler plugins: ./paths relative to this file, or package names resolved from its folder')),
    lockfile: Type.Optional(Type.String({ minLength: 1, description: 'the lockfile, relative to this file' })),
    insecureRegistries: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'registry hosts (HOST or HOST:PORT) reached over plain HTTP' })),
    strict: Type.Optional(Type.Boolean({ description: 'exit 1 on warnings too' })),
    strictCapabilities: Type.Optional(Type.Boolean({ description: 'report unknown and unvalidated capabilities as errors' })),
    requirePinned: Type.Optional(Type.Boolean({ description: 'require a version pin on every binding of a versioned definition' })),
    platform: Type.Optional(PlatformVersions),
    ignore: Type.Optional(Paths('globs of inputs never linted, relative to this file')),
    severity: Type.Optional(Severities),
    overrides: Type.Optional(
      Type.Array(
        Type.Object(
          {
            files: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'globs relative to this file' }),
            severity: Severities,
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

/** `.kurel.yaml` read: the configuration, or the problems that refuse it (each positioned in the file). */
export interface ConfigRead {
  /** Undefined when the file has an error. */
  config: KurelConfig | undefined;
  diagnostics: Diagnostic[];
  source: SourceText;
}

/**
 * Reads and checks a `.kurel.yaml` as strictly as a profile: unknown keys and wrong types are
 * diagnostics positioned in the file, and so is a `severity` that lowers or turns off a code
 * that may only be raised (docs/configuration.md). An empty file is an empty configuration. Never throws.
 */
export function readKurelConfig(file: string, content: string | Uint8Array): ConfigRead {
  const stream = parseYamlStream(content, file);
  const out: ConfigRead = { config: undefined, diagnostics: [...stream.diagnostics], source: stream.source };
  if (stream.diagnostics.length > 0) return out;
  const [document, second] = stream.documents;
  if (!document || document.isEmpty) {
    if (!document || document.diagnostics.length === 0) out.config = configOf({});
    if (document) out.diagnostics.push(...document.diagnostics);
    return out;
  }
  out.diagnostics.push(...document.diagnostics);
  if (second) {
    out.diagnostics.push(stream.source.diagnosticAt('multiple-documents', `${file} holds one document; found a second one`, [second.start, second.start + 3]));
  }
  if (document.data === undefined || out.diagnostics.length > 0) return out;
  const issues = checkSchema(KurelConfigSchema as JsonSchema, document.data).issues;
  if (isMap(document.data)) issues.push(...loweredRaiseOnlyCodes(document.data), ...refusedGlobs(document.data));
  for (const issue of issues) out.diagnostics.push(document.toDiagnostic(issue));
  if (out.diagnostics.length === 0) out.config = configOf(document.data as Record<string, unknown>);
  return out;
}

function loweredRaiseOnlyCodes(data: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const check = (rules: unknown, at: Path) => {
    if (!isMap(rules)) return;
    for (const [code, level] of Object.entries(rules)) {
      if (!RAISE_ONLY_CODES.has(code) || level === 'error' || level === null || (level !== 'warning' && level !== 'off')) continue;
      issues.push(
        error(
          'invalid-value',
          [...at, code],
          `${code} may only be raised, never lowered or turned off: it decides whether a run can be trusted; found ${level}`,
          {
            hint: `remove ${code} from this severity map`,
          },
        ),
      );
    }
  };
  check(data['severity'], ['severity']);
  if (Array.isArray(data['overrides'])) {
    for (const [i, entry] of data['overrides'].entries()) if (isMap(entry)) check(entry['severity'], ['overrides', i, 'severity']);
  }
  return issues;
}

/** The globs of `ignore` and `overrides[].files` that cannot be matched in linear time (docs/configuration.md, "Globs"). */
function refusedGlobs(data: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const check = (globs: unknown, at: Path) => {
    if (!Array.isArray(globs)) return;
    for (const [i, glob] of globs.entries()) {
      if (typeof glob !== 'string') continue;
      const translated = translateGlob(glob);
      if (!translated.ok) issues.push(error('invalid-value', [...at, i], `the glob ${JSON.stringify(glob)} is refused: ${translated.reason}`));
    }
  };
  check(data['ignore'], ['ignore']);
  if (Array.isArray(data['overrides'])) {
    for (const [i, entry] of data['overrides'].entries()) if (isMap(entry)) check(entry['files'], ['overrides', i, 'files']);
  }
  return issues;
}

function configOf(data: Record<string, unknown>): KurelConfig {
  const list = (key: string): string[] => (Array.isArray(data[key]) ? (data[key] as string[]) : []);
  const flag = (key: string): boolean | undefined => (typeof data[key] === 'boolean' ? (data[key] as boolean) : undefined);
  const rules = (value: unknown): SeverityRules => {
    const out: Record<string, ConfiguredSeverity> = {};
    if (isMap(value)) for (const [code, level] of Object.entries(value)) if (typeof level === 'string') out[code] = level as ConfiguredSeverity;
    return out;
  };
  const config: KurelConfig = {
    definitions: list('definitions'),
    capabilityDefs: list('capabilityDefs'),
    plugins: list('plugins'),
    ignore: list('ignore'),
    severity: rules(data['severity']),
    overrides: (Array.isArray(data['overrides']) ? data['overrides'] : []).filter(isMap).map((entry) => ({
      files: entry['files'] as string[],
      severity: rules(entry['severity']),
    })),
  };
  if (typeof data['lockfile'] === 'string') config.lockfile = data['lockfile'];
  if (Array.isArray(data['insecureRegistries'])) config.insecureRegistries = data['insecureRegistries'] as string[];
  const strict = flag('strict');
  if (strict !== undefined) config.strict = strict;
  const strictCapabilities = flag('strictCapabilities');
  if (strictCapabilities !== undefined) config.strictCapabilities = strictCapabilities;
  const requirePinned = flag('requirePinned');
  if (requirePinned !== undefined) config.requirePinned = requirePinned;
  if (isMap(data['platform'])) config.platform = Object.freeze({ ...(data['platform'] as Record<string, string>) });
  return config;
}
