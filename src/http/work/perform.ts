import type { Catalogue } from '../../catalogue/catalogue.js';
import type { InputFile } from '../../core/input.js';
import type { JsonSchema } from '../../core/json-schema.js';
import { admitReview, readReviewIdentity } from '../../operations/admission.js';
import { capabilitySchema, chooseCapabilityVersion, renderingSchemaDocument } from '../../operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../operations/cluster-profile-schema.js';
import { type CapabilityListing, listCapabilities } from '../../operations/list-capabilities.js';
import { migrateInputs, readMigrationTargets } from '../../operations/migrate.js';
import { reportProblems } from '../../operations/report-problems.js';
import { unifiedDiff } from '../../operations/unified-diff.js';
import type { Platform } from '../../schema/platform-version.js';
import { decodeJsonBody } from '../decode-json-body.js';
import { platformOfQuery } from '../platform-input.js';
import { HttpProblem } from '../problem.js';
import { readEnvelope } from '../request-envelope.js';
import { jsonAnswer, judgeAsText, judgingOptions, REQUEST_FILE, verdictAnswer } from './judge-task.js';
import type { VersionOptions, WorkAnswer, WorkTask } from './task.js';

export { REQUEST_FILE } from './judge-task.js';

/**
 * Does the work of one request against `catalogue` and encodes the answer as UTF-8 bytes of
 * their own (a worker moves them to the main thread); see {@link performTaskAsText}.
 */
export function performTask(catalogue: Catalogue, task: WorkTask): WorkAnswer {
  const answer = performTaskAsText(catalogue, task);
  return 'body' in answer ? { ...answer, body: new TextEncoder().encode(answer.body) } : answer;
}

/**
 * Does the work of one request against `catalogue`, its answer as text (on the thread that
 * writes it out, encoding it first would only cost time); a problem with the request (a body
 * that cannot be decoded, an unknown capability type) is answered as data, and anything else
 * thrown is an unexpected failure for the caller to report. The same function runs in a worker
 * thread and on the serving thread (small validations, embedding and tests).
 */
export function performTaskAsText(catalogue: Catalogue, task: WorkTask): WorkAnswer<string> {
  try {
    switch (task.kind) {
      case 'validate':
      case 'build':
        return judgeAsText(catalogue, task);
      case 'admission':
        return admissionAnswer(catalogue, task.body, task.versions);
      case 'migrate':
        return verdictAnswer('migrate', migrate(catalogue, task.body, task.versions));
      case 'capabilities':
        return jsonAnswer(listingsOf(catalogue));
      case 'capability':
        return jsonAnswer(capability(catalogue, task.type, platformOfQuery(task.platform), versionQuery(task.version)));
      case 'cluster-profile-schema':
        return jsonAnswer(editorSchemaOf(catalogue, platformOfQuery(task.platform)), 'application/schema+json');
    }
  } catch (err) {
    if (err instanceof HttpProblem) return { problem: { status: err.status, detail: err.detail, extensions: { ...err.extensions } } };
    throw err;
  }
}

/**
 * `POST /v1/migrate` (docs/migrate.md): `{profile, to, definitions?, lossy?, platform?}` with the
 * profile as YAML text; `{valid, changed, profile, diff, diagnostics}`, where `profile` is the
 * migrated text, or null unless something changed without errors. A malformed `to`, one naming
 * a definition the service lacks or a version it does not have, is a 400 problem.
 */
function migrate(catalogue: Catalogue, body: Uint8Array, versions: VersionOptions): MigrateVerdict {
  const { text, data } = decodeJsonBody(body);
  const envelope = readEnvelope(text, data, ['profile'], ['to', 'lossy']);
  const members = data as Record<string, unknown>;
  if (envelope.profile.data !== undefined)
    throw new HttpProblem(400, '"profile" must be the YAML text of the profile: migrate rewrites text, keeping its comments');
  const to = members['to'];
  if (!Array.isArray(to) || to.length === 0 || !to.every((t) => typeof t === 'string')) {
    throw new HttpProblem(400, '"to" must be a non-empty list of NAME@VERSION texts, such as ["redis-sidecar@2.0.0"]');
  }
  const lossy = members['lossy'];
  if (lossy !== undefined && typeof lossy !== 'boolean') throw new HttpProblem(400, '"lossy" must be true or false');
  const reading = readMigrationTargets(to as string[]);
  if (reading.problems.length > 0) throw new HttpProblem(400, `"to": ${reading.problems.join('; ')}`);
  const inputs: InputFile[] = [{ file: REQUEST_FILE, content: envelope.profile.text, origin: 'profile' }, ...envelope.definitions];
  const report = migrateInputs(inputs, catalogue, reading.targets, {
    requirePinned: versions.requirePinned,
    lossy: lossy === true,
    platform: { repositoryDefault: versions.platformDefault, overrides: envelope.platform },
  });
  if (report.fatal) throw new HttpProblem(400, `"to": ${report.diagnostics.map((d) => d.message).join('; ')}`);
  const valid = !report.diagnostics.some((d) => d.severity === 'error');
  const file = report.files.find((f) => f.path === REQUEST_FILE);
  const changed = file?.changed === true;
  return {
    valid,
    changed,
    profile: valid && changed && file ? `${file.bom ? '\ufeff' : ''}${file.after}` : null,
    diff: file ? unifiedDiff(REQUEST_FILE, file.before, file.after) : '',
    diagnostics: reportProblems(report.diagnostics).diagnostics,
  };
}

interface MigrateVerdict {
  valid: boolean;
  changed: boolean;
  profile: string | null;
  diff: string;
  diagnostics: unknown[];
}

/**
 * `GET /v1/capabilities/{type}[?version=PIN]`: one capability and the JSON Schema of its
 * rendering, of the version the pin resolves to (without one, the version an unpinned binding
 * resolves to), narrowed to `?platform=COMPONENT=VERSION` when given; 404 for a type nothing
 * knows or a pin no version matches, 400 for a malformed pin or platform.
 */
function capability(catalogue: Catalogue, type: string, platform: Platform | undefined, pin: string | undefined): unknown {
  const listing = listingsOf(catalogue).find((c) => c.type === type);
  if (!listing) throw new HttpProblem(404, `no handler or definition knows the capability type ${JSON.stringify(type)}`);
  const choice = chooseCapabilityVersion(catalogue, type, pin);
  if (!choice.ok && choice.reason === 'malformed') throw new HttpProblem(400, `the version query ${choice.message}${choice.hint ? ` (${choice.hint})` : ''}`);
  if (!choice.ok) throw new HttpProblem(404, `${choice.message}`, {}, { versions: choice.versions });
  const version = catalogue.hasDefinitionVersions(type) ? choice.version : undefined;
  const published = capabilitySchema(catalogue, type, { platform, version })!;
  const source = listing.hasDefinition && !catalogue.handler(type) ? (catalogue.definition(type, version)?.file ?? listing.source) : listing.source;
  return { ...listing, source, version: version ?? null, schema: renderingSchemaDocument(published) };
}

// `?version=` given once as text; anything else (repeated, nested) is a malformed request.
function versionQuery(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpProblem(400, 'the version query must be given once, as a pin such as 2.1 or ^2.1.0');
  return value;
}

// A catalogue never changes once in service (a reload brings new workers), so what is published
// from it is computed once per catalogue.
const listings = new WeakMap<Catalogue, CapabilityListing[]>();
const editorSchemas = new WeakMap<Catalogue, JsonSchema>();

function listingsOf(catalogue: Catalogue): CapabilityListing[] {
  let listing = listings.get(catalogue);
  if (!listing) {
    listing = listCapabilities(catalogue);
    listings.set(catalogue, listing);
  }
  return listing;
}

/** `GET /v1/schema/cluster-profile`, narrowed to `?platform=` when given (computed each time then: the platforms asked for vary). */
function editorSchemaOf(catalogue: Catalogue, platform: Platform | undefined): JsonSchema {
  if (platform !== undefined) return clusterProfileJsonSchema(catalogue, { platform });
  let schema = editorSchemas.get(catalogue);
  if (!schema) {
    schema = clusterProfileJsonSchema(catalogue);
    editorSchemas.set(catalogue, schema);
  }
  return schema;
}

/**
 * `POST /v1/admission` (docs/kubernetes.md): an AdmissionReview answered with one of the same uid,
 * always 200 once the uid is read; a body that is no review is a 400 problem.
 */
function admissionAnswer(catalogue: Catalogue, body: Uint8Array, versions: VersionOptions): WorkAnswer<string> {
  const { data } = decodeJsonBody(body);
  const identity = readReviewIdentity(data);
  if ('problem' in identity) throw new HttpProblem(400, identity.problem);
  // Judged as POST /v1/validate judges a profile: the configuration's platform and severities too.
  const answer = admitReview(data as Record<string, unknown>, catalogue, judgingOptions(versions));
  return { ...jsonAnswer(answer), verdict: { operation: 'admission', valid: answer.response.allowed } };
}
