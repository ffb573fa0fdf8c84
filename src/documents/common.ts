import { Type } from '@sinclair/typebox';
import type { Issue, Path } from '../core/diagnostics.js';
import { nativePattern } from '../schema/pattern-matcher.js';

/** The API group of every kurel document. */
export const API_GROUP = 'launcher.gokure.dev';
/** The apiVersion every kurel document carries. */
export const API_VERSION = `${API_GROUP}/v1alpha1`;

/** DNS-1123 subdomain: lowercase alphanumerics, `-` and `.`, labels start and end alphanumeric. */
export const DNS1123_SUBDOMAIN = nativePattern('^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$');

/** DNS-1123 label: at most 63 lowercase alphanumerics or `-`, starting and ending alphanumeric. */
export const DNS1123_LABEL = nativePattern('^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$');

/** A capability key: `<type>` or `<type>.<scope>`, the type a DNS-1123 label, the scope a DNS-1123 subdomain. */
export const CAPABILITY_KEY = nativePattern('^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$');

/** `apiVersion` of every document. */
export const ApiVersion = Type.Literal(API_VERSION);

/** A `metadata.name` that is a DNS-1123 subdomain. */
export const SubdomainName = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: DNS1123_SUBDOMAIN,
  'x-expected': 'a DNS-1123 subdomain (lowercase letters, digits, - and ., starting and ending alphanumeric)',
});

/** The trait type part of a capability key (`expose.internal` → `expose`). */
export function capabilityType(key: string): string {
  const dot = key.indexOf('.');
  return dot === -1 ? key : key.slice(0, dot);
}

/** Reads the source text of the scalar at a path (the YAML layer knows it); undefined when there is none. */
export type SourceTextReader = (path: Path) => string | undefined;

/**
 * Adds the hint `quote it: "2.1"` to a `wrong-type` issue about a version written as a YAML
 * number, quoting the text as written (`1.20` stays `1.20`, not the parsed 1.2).
 */
export function hintQuotedVersion(issues: Issue[], path: Path, value: unknown, sourceOf: SourceTextReader | undefined): void {
  if (typeof value !== 'number' && typeof value !== 'bigint') return;
  const at = issues.findIndex((issue) => issue.code === 'wrong-type' && samePath(issue.path, path));
  if (at === -1) return;
  const written = sourceOf?.(path) ?? String(value);
  issues[at] = { ...issues[at]!, hint: `quote it: ${JSON.stringify(written)}` };
}

function samePath(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}
