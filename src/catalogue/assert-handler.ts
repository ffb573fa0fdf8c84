import { typeName } from '../core/data.js';
import { isDefinitionVersion } from '../core/versions.js';
import type { Handler } from '../schema/handler.js';
import { findSchemaProblem } from '../schema/meta-check.js';
import { RegistryError } from './errors.js';

const TYPE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * The startup assertion for one handler (docs/plugins.md): throws {@link RegistryError} naming the
 * handler and the reason when it breaks the contract. `checkSchema` adds the JSON Schema
 * meta-check, needed for plugins (plain JavaScript) and skipped for built-ins.
 */
export function assertHandlerIsSound(candidate: unknown, source: string, options: { checkSchema: boolean }): asserts candidate is Handler {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
    throw new RegistryError('(unnamed)', `a handler must be an object, found ${typeName(candidate)}`, source);
  }
  const h = candidate as Record<string, unknown>;
  const type = h['type'];
  if (typeof type !== 'string' || !TYPE_NAME.test(type)) {
    throw new RegistryError(typeof type === 'string' ? type : '(unnamed)', 'type must be a DNS-1123 label (lowercase letters, digits and -)', source);
  }
  const fail = (reason: string): never => {
    throw new RegistryError(type, reason, source);
  };
  if (typeof h['description'] !== 'string') fail('description must be a string');
  const version = h['version'];
  if (version !== undefined && (typeof version !== 'string' || !isDefinitionVersion(version))) {
    fail(
      `version must be a SemVer version such as 1.0.0 (no leading v, no build metadata), found ${typeof version === 'string' ? JSON.stringify(version) : typeName(version)}`,
    );
  }
  if (typeof h['capabilityAware'] !== 'boolean') fail('capabilityAware must be true or false');
  if (h['capabilityRequired'] !== undefined && typeof h['capabilityRequired'] !== 'boolean') fail('capabilityRequired must be true or false');
  if (h['capabilityRequired'] === true && h['capabilityAware'] !== true) fail('capabilityRequired needs capabilityAware: true');
  const vad = h['validateAndApplyDefaults'];
  if (vad !== undefined && typeof vad !== 'function') fail('validateAndApplyDefaults must be a function');
  const schema = h['renderingSchema'];
  if (h['capabilityAware'] === true) {
    if (typeof vad !== 'function') fail('a capability-aware handler must implement validateAndApplyDefaults');
    if (schema === undefined) fail('a capability-aware handler must declare a renderingSchema');
  }
  const reserved = h['platformReserved'];
  if (reserved !== undefined && !(Array.isArray(reserved) && reserved.every((k) => typeof k === 'string'))) {
    fail('platformReserved must be a list of key names');
  }
  if (schema !== undefined) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) fail('renderingSchema must be a JSON Schema object');
    if (options.checkSchema) {
      const problem = findSchemaProblem(schema);
      if (problem) fail(`renderingSchema is not a valid JSON Schema: ${problem}`);
    }
  }
}
