/**
 * The service's API as the console uses it. Every URL is relative to the page, so the console
 * works under whatever path prefix a proxy serves it from, and no request leaves the origin.
 */

/** A published version of a capability (docs/service.md), when the service knows versions. */
export interface CapabilityVersion {
  version: string;
  file: string;
  digest: string;
}

/** An entry of `GET v1/capabilities`. */
export interface CapabilityListing {
  type: string;
  source: string;
  description: string;
  capabilityAware: boolean;
  capabilityRequired: boolean;
  hasDefinition: boolean;
  versions?: CapabilityVersion[];
  latest?: string;
}

/** A JSON Schema (2020-12) node as the service publishes it; read, never trusted to be well-formed. */
export type JsonSchemaNode = { [keyword: string]: unknown };

/** `GET v1/capabilities/{type}`: the listing and the JSON Schema of the capability's rendering. */
export interface CapabilityDetail extends CapabilityListing {
  schema: JsonSchemaNode;
}

/** One problem the service found (docs/profiles.md); positions are 1-based, columns in UTF-16 code units, the end exclusive. */
export interface ServiceDiagnostic {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  path: string;
  hint?: string;
  /** Set when a `# kurel-disable` comment in the profile silenced it. */
  suppressed?: { reason?: string };
}

/** `POST v1/validate`'s answer. */
export interface ValidateResult {
  valid: boolean;
  diagnostics: ServiceDiagnostic[];
  resolved: unknown;
}

/** A request the service refused or could not answer; the message is the problem's detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A platform version to narrow schemas to (docs/platform.md), such as kubernetes 1.29. */
export interface PlatformFilter {
  component: string;
  version: string;
}

/** Every capability the service knows. */
export function fetchCapabilities(signal?: AbortSignal): Promise<CapabilityListing[]> {
  return fetchJson<CapabilityListing[]>('v1/capabilities', { signal });
}

/** One capability with its rendering schema, for a version and narrowed to a platform when given. */
export function fetchCapability(type: string, options: { version?: string; platform?: PlatformFilter; signal?: AbortSignal } = {}): Promise<CapabilityDetail> {
  return fetchJson<CapabilityDetail>(capabilityUrl(type, options), { signal: options.signal });
}

/** The relative URL of a capability, with `?version=` and `?platform=component=version` as docs/service.md spells them. */
export function capabilityUrl(type: string, options: { version?: string; platform?: PlatformFilter }): string {
  const query: string[] = [];
  if (options.version) query.push(`version=${encodeURIComponent(options.version)}`);
  if (options.platform) query.push(`platform=${encodeURIComponent(options.platform.component)}=${encodeURIComponent(options.platform.version)}`);
  return `v1/capabilities/${encodeURIComponent(type)}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/** Validates a profile sent as YAML text. */
export function validateProfileText(text: string, signal?: AbortSignal): Promise<ValidateResult> {
  return fetchJson<ValidateResult>('v1/validate', { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: text, signal });
}

/** The relative URL of a diagnostic code's explanation. */
export function explanationUrl(code: string): string {
  return `codes/${encodeURIComponent(code)}`;
}

async function fetchJson<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { Accept: 'application/json', ...init.headers }, credentials: 'same-origin' });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, problemDetail(text) ?? `the service answered ${res.status} ${res.statusText}`.trim());
  return JSON.parse(text) as T;
}

function problemDetail(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    return typeof body.detail === 'string' ? body.detail : undefined;
  } catch {
    return undefined;
  }
}
