import canonicalize from 'canonicalize';
import { isMap, setOwn } from '../core/data.js';
import { sha256Digest } from '../core/sha256.js';
import { DEFINITION_SUBSCHEMAS, PROPERTIES_KEYWORD } from '../schema/keywords.js';

/**
 * The digest of a CapabilityDefinition document (docs/versions.md): `sha256:` and the
 * hex SHA-256 of the RFC 8785 canonical JSON of `{name, spec}` as written, with
 * `spec.deprecation` left out and docs/definitions.md's equivalences written in full (`rendering` absent, null
 * or `{}` is `{properties: {}}`; a property written `name:` is `{}`). Key order and YAML
 * formatting never matter; descriptions do. Never depends on kurel's compiled form.
 */
export function definitionDigest(data: unknown): string {
  const document = isMap(data) ? data : {};
  const metadata = isMap(document['metadata']) ? document['metadata'] : {};
  const subject: Record<string, unknown> = {};
  setOwn(subject, 'name', metadata['name'] ?? null);
  setOwn(subject, 'spec', normaliseSpec(document['spec']));
  return sha256Digest(canonicalText(subject));
}

function normaliseSpec(raw: unknown): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (isMap(raw)) for (const key of Object.keys(raw)) if (key !== 'deprecation') setOwn(spec, key, raw[key]);
  const rendering = spec['rendering'];
  const full: Record<string, unknown> = {};
  if (isMap(rendering)) for (const key of Object.keys(rendering)) setOwn(full, key, rendering[key]);
  const properties = full[PROPERTIES_KEYWORD];
  setOwn(full, PROPERTIES_KEYWORD, isMap(properties) ? normaliseProperties(properties) : (properties ?? {}));
  setOwn(spec, 'rendering', isMap(rendering) || rendering === undefined || rendering === null ? full : rendering);
  return spec;
}

// A `properties` map at any depth: a property written `name:` (null) is `{}`.
function normaliseProperties(properties: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(properties)) {
    const declaration = properties[name];
    setOwn(out, name, declaration === null ? {} : normaliseDeclaration(declaration));
  }
  return out;
}

function normaliseDeclaration(declaration: unknown): unknown {
  if (!isMap(declaration)) return declaration;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(declaration)) {
    const value = declaration[key];
    // The subschemas a declaration may write, by the keyword table's positions: a map of properties, or one declaration.
    const shape = DEFINITION_SUBSCHEMAS.get(key);
    if (shape === 'map' && isMap(value)) setOwn(out, key, normaliseProperties(value));
    else if (shape !== undefined && isMap(value)) setOwn(out, key, normaliseDeclaration(value));
    else setOwn(out, key, value);
  }
  return out;
}

/**
 * RFC 8785 canonical JSON through a maintained JCS implementation. JCS knows only IEEE doubles,
 * so an integer beyond 2^53 (kept exact as a bigint) is written with all its digits, and a
 * string with a lone surrogate (which JCS refuses) is written escaped as JSON.stringify escapes
 * it: both through placeholders no string of the data contains, swapped after canonicalising.
 */
export function canonicalText(value: unknown): string {
  // Almost every document has neither: it goes to the library as it is.
  if (!hasSpecialValue(value)) return canonicalize(value) ?? 'null';
  const literals: string[] = [];
  const strings: string[] = [];
  collectStrings(value, strings);
  let marker = 'kurel-literal-';
  while (strings.some((s) => s.includes(marker))) marker = `${marker}x`;
  const prepared = replaceLiterals(value, marker, literals);
  const text = canonicalize(prepared) ?? 'null';
  if (literals.length === 0) return text;
  const pattern = new RegExp(`"${marker}(\\d+)"`, 'g');
  return text.replace(pattern, (_match, index: string) => literals[Number(index)]!);
}

// An integer beyond 2^53 or a string (value or key) with a lone surrogate anywhere in the data.
function hasSpecialValue(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'bigint' || (typeof item === 'string' && hasLoneSurrogate(item))) return true;
    if (Array.isArray(item)) for (const child of item) stack.push(child);
    else if (isMap(item)) {
      for (const key of Object.keys(item)) {
        if (hasLoneSurrogate(key)) return true;
        stack.push(item[key]);
      }
    }
  }
  return false;
}

function collectStrings(value: unknown, out: string[]): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') out.push(item);
    else if (Array.isArray(item)) for (const child of item) stack.push(child);
    else if (isMap(item)) {
      for (const key of Object.keys(item)) {
        out.push(key);
        stack.push(item[key]);
      }
    }
  }
}

function replaceLiterals(value: unknown, marker: string, literals: string[]): unknown {
  if (typeof value === 'bigint') return literal(value.toString(), marker, literals);
  if (typeof value === 'string') return hasLoneSurrogate(value) ? literal(JSON.stringify(value), marker, literals) : value;
  if (Array.isArray(value)) return value.map((item) => replaceLiterals(item, marker, literals));
  if (!isMap(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // A key with a lone surrogate cannot be a placeholder (keys are not swapped); its escaped text is.
    setOwn(out, hasLoneSurrogate(key) ? JSON.stringify(key).slice(1, -1) : key, replaceLiterals(value[key], marker, literals));
  }
  return out;
}

function literal(text: string, marker: string, literals: string[]): string {
  literals.push(text);
  return `${marker}${literals.length - 1}`;
}

function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}
