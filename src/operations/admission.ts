import type { Catalogue } from '../catalogue/catalogue.js';
import { definitionSchemaDifference } from '../catalogue/definition-conflicts.js';
import { isMap, setOwn } from '../core/data.js';
import { compareDiagnostics, DIAGNOSTIC_CODES, type Diagnostic, describePath, fileDiagnostic, isDiagnosticCode, toPointer } from '../core/diagnostics.js';
import { didYouMean } from '../core/suggest.js';
import { compareVersions } from '../core/versions.js';
import { definitionDigest } from '../documents/definition-digest.js';
import { compatOfFiles } from './compat.js';
import { type LintOptions, lintInputs } from './lint.js';
import { isUnsuppressible } from './suppress.js';
import { validateJsonProfile } from './validate-profile.js';

/** The API group and version of the custom resources the webhook judges (docs/kubernetes.md). */
export const ADMISSION_GROUP = 'launcher.gokure.dev';
export const ADMISSION_VERSION = 'v1alpha1';

/** The file name diagnostics about the reviewed object carry. */
export const ADMISSION_FILE = 'object';

/** The `response` of an `admission.k8s.io/v1` AdmissionReview. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: { code: number; reason?: string; message: string };
  warnings?: string[];
}

/** The AdmissionReview kurel answers with. */
export interface AdmissionReviewAnswer {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  response: AdmissionResponse;
}

/** A review read up to its uid, or why the body is no AdmissionReview (a 400 problem). */
export type ReviewIdentity = { uid: string } | { problem: string };

/** What the webhook checks beyond one object: a definition release against the object it replaces. */
export interface AdmissionOptions extends LintOptions {
  /**
   * The check of an UPDATE that changes a definition's `spec.version`: problems (errors deny).
   * Default: `kurel compat` of the old object against the new one (docs/compat.md).
   */
  checkRelease?: (before: Record<string, unknown>, after: Record<string, unknown>) => readonly Diagnostic[];
}

const KINDS = new Set(['ClusterProfile', 'CapabilityDefinition']);
const OPERATIONS = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);
const SUPPRESSION_ANNOTATION = 'kurel.gokure.dev/disable';
const MESSAGE_ERRORS = 10;
const MAX_WARNINGS = 20;
const MAX_WARNING_LENGTH = 255;
const MAX_WARNINGS_TOTAL = 4096;

/**
 * Reads the uid of an `admission.k8s.io/v1` AdmissionReview. A body that is not a review, or
 * whose `request.uid` is missing, cannot be answered with a review: the caller sends a 400 problem.
 */
export function readReviewIdentity(data: unknown): ReviewIdentity {
  if (!isMap(data)) return { problem: 'expected an admission.k8s.io/v1 AdmissionReview object' };
  if (data['apiVersion'] !== 'admission.k8s.io/v1' || data['kind'] !== 'AdmissionReview') {
    return { problem: `expected apiVersion admission.k8s.io/v1 and kind AdmissionReview; found ${describe(data['apiVersion'])} and ${describe(data['kind'])}` };
  }
  const request = data['request'];
  if (!isMap(request)) return { problem: 'the AdmissionReview has no request object' };
  const uid = request['uid'];
  if (typeof uid !== 'string' || uid === '') return { problem: 'the AdmissionReview request has no uid' };
  return { uid };
}

/** An answer refusing a review kurel could not judge (too large, too slow, malformed). */
export function refuseReview(uid: string, code: number, message: string): AdmissionReviewAnswer {
  return answer({ uid, allowed: false, status: { code, reason: reasonOf(code), message } });
}

/**
 * Judges an AdmissionReview whose uid {@link readReviewIdentity} read (docs/kubernetes.md
 * "Kubernetes"): a ClusterProfile is checked as `POST /v1/validate` checks a profile, a
 * CapabilityDefinition as lint checks a definition file, against the catalogue in service;
 * errors deny with 422, warnings go to `response.warnings`. What is not kurel's to judge is allowed.
 */
export function admitReview(data: Record<string, unknown>, catalogue: Catalogue, options: AdmissionOptions = {}): AdmissionReviewAnswer {
  const request = data['request'] as Record<string, unknown>;
  const uid = request['uid'] as string;
  const malformed = malformedRequest(request);
  if (malformed !== undefined) return refuseReview(uid, 400, malformed);
  const allow = answer({ uid, allowed: true });
  const kind = request['kind'] as Record<string, unknown>;
  const operation = request['operation'] as string;
  if (operation !== 'CREATE' && operation !== 'UPDATE') return allow;
  if (kind['group'] !== ADMISSION_GROUP || kind['version'] !== ADMISSION_VERSION || !KINDS.has(kind['kind'] as string)) return allow;
  if (typeof request['subResource'] === 'string' && request['subResource'] !== '') return allow;
  const object = request['object'] as Record<string, unknown>;
  const metadata = isMap(object['metadata']) ? object['metadata'] : {};
  if (metadata['deletionTimestamp'] !== undefined && metadata['deletionTimestamp'] !== null) return allow;
  const old = operation === 'UPDATE' ? (request['oldObject'] as Record<string, unknown>) : undefined;
  if (old && sameData(old['spec'], object['spec'])) return allow;

  const document = documentOf(object);
  const text = JSON.stringify(document);
  let diagnostics: Diagnostic[];
  if (kind['kind'] === 'ClusterProfile') {
    diagnostics = validateJsonProfile(ADMISSION_FILE, text, document, catalogue, options).diagnostics;
  } else {
    const report = lintInputs([{ file: ADMISSION_FILE, content: text, origin: 'argument' }], catalogue, options);
    diagnostics = report.diagnostics;
    if (!diagnostics.some((d) => d.severity === 'error')) diagnostics = [...diagnostics, ...servedConflicts(document, report.catalogue, catalogue)];
    if (old && !diagnostics.some((d) => d.severity === 'error'))
      diagnostics = [...diagnostics, ...releaseProblems(documentOf(old), document, catalogue, options)];
  }
  return judge(uid, suppressByAnnotation(diagnostics, metadata['annotations']));
}

/**
 * The object against the service's own definition of its name and version, as `kurel lint`
 * judges a definition file against `--definitions` (docs/kubernetes.md): a schema that differs
 * is a `definition-conflict`.
 */
function servedConflicts(document: Record<string, unknown>, judged: Catalogue, served: Catalogue): Diagnostic[] {
  const name = isMap(document['metadata']) ? document['metadata']['name'] : undefined;
  if (typeof name !== 'string') return [];
  const version = versionOf(document);
  const mine = judged.definition(name, version);
  const theirs = served.definition(name, version);
  if (!mine || !theirs || mine.version !== theirs.version) return [];
  const difference = definitionSchemaDifference(theirs.schema, mine.schema);
  if (!difference) return [];
  const label = version === undefined ? `definition "${name}"` : `definition "${name}" ${version}`;
  const message = `${label} conflicts with the one the service serves from ${theirs.file}: they first differ at ${describePath(difference.path)} (${difference.later} here, ${difference.earlier} in ${theirs.file}); publish it as a new version`;
  return [{ ...fileDiagnostic(ADMISSION_FILE, 'definition-conflict', message), path: toPointer(difference.path) }];
}

/** The object as a file would hold it: Kubernetes' own `metadata` and any `status` are not kurel's. */
function documentOf(object: Record<string, unknown>): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    if (key === 'status') continue;
    if (key !== 'metadata') {
      setOwn(document, key, object[key]);
      continue;
    }
    const metadata = object['metadata'];
    const kept: Record<string, unknown> = {};
    if (isMap(metadata) && metadata['name'] !== undefined) setOwn(kept, 'name', metadata['name']);
    setOwn(document, 'metadata', isMap(metadata) ? kept : metadata);
  }
  return document;
}

// A published version is immutable; a new one moves forward and passes compat (docs/kubernetes.md).
function releaseProblems(before: Record<string, unknown>, after: Record<string, unknown>, catalogue: Catalogue, options: AdmissionOptions): Diagnostic[] {
  const was = versionOf(before);
  const now = versionOf(after);
  const name = isMap(after['metadata']) ? String(after['metadata']['name']) : '';
  if (was !== undefined && now === undefined) {
    return [at('/spec', 'invalid-value', `capability definition "${name}" is published as version ${was}; an update may not remove spec.version`)];
  }
  if (was === undefined) return [];
  if (was === now) {
    const [old, current] = [definitionDigest(before), definitionDigest(after)];
    if (old === current) return [];
    const message = `capability definition "${name}" version ${was} is published and immutable: its schema changed (${old} became ${current}); publish it as a new version`;
    return [at('/spec', 'definition-changed', message)];
  }
  if (now !== undefined && compareVersions(now, was) < 0) {
    return [
      at(
        '/spec/version',
        'invalid-value',
        `capability definition "${name}" must move its version forward: ${now} is lower than the version it replaces, ${was}`,
      ),
    ];
  }
  const check = options.checkRelease ?? ((old: Record<string, unknown>, now: Record<string, unknown>) => compatProblems(old, now, catalogue));
  return [...check(before, after)];
}

/** `kurel compat` of the object an UPDATE replaces against the new one: a bump too small denies. */
function compatProblems(before: Record<string, unknown>, after: Record<string, unknown>, catalogue: Catalogue): Diagnostic[] {
  const run = compatOfFiles(
    { file: 'oldObject', content: JSON.stringify(before), origin: 'document' },
    { file: ADMISSION_FILE, content: JSON.stringify(after), origin: 'document' },
    catalogue,
  );
  const failed = run.pairs.find((pair) => !pair.ok);
  if (!failed) return [];
  const breaking = failed.findings.filter((f) => f.class === 'breaking');
  const named = breaking.slice(0, 3).map((f) => `${f.message} at ${f.path}`);
  if (breaking.length > named.length) named.push(`${breaking.length - named.length} more breaking change${breaking.length - named.length === 1 ? '' : 's'}`);
  const release = failed.releaseAs === undefined ? '' : `; release it as ${failed.releaseAs}`;
  const message = `${failed.name} ${failed.from} → ${failed.to} declares ${failed.declared}; needs ${failed.needed}: ${named.join(', ')}${release}`;
  return [at('/spec/version', 'invalid-value', message)];
}

function versionOf(document: Record<string, unknown>): string | undefined {
  const spec = document['spec'];
  return isMap(spec) && typeof spec['version'] === 'string' ? spec['version'] : undefined;
}

function at(path: string, code: 'invalid-value' | 'definition-changed', message: string): Diagnostic {
  return { ...fileDiagnostic(ADMISSION_FILE, code, message), path };
}

// The annotation plays the part of the in-file suppression comment (docs/kubernetes.md): the same
// codes may be silenced, and a code that is unknown, cannot be silenced or silences nothing is
// an `unused-suppression` warning at the annotation.
function suppressByAnnotation(diagnostics: readonly Diagnostic[], annotations: unknown): Diagnostic[] {
  const value = isMap(annotations) ? annotations[SUPPRESSION_ANNOTATION] : undefined;
  if (typeof value !== 'string') return [...diagnostics];
  const written = value.split(',').map((code) => code.trim());
  const notes: Diagnostic[] = [];
  if (value.trim() === '' || written.some((code) => code === '')) {
    const what = value.trim() === '' ? 'no code' : 'an empty code';
    return [...diagnostics, annotationNote(`malformed suppression: ${SUPPRESSION_ANNOTATION} names ${what}; expected "CODE[,CODE...]"`)];
  }
  const codes = new Set<string>();
  for (const code of written) {
    if (!isDiagnosticCode(code)) {
      notes.push(annotationNote(`${SUPPRESSION_ANNOTATION} names "${code}", which is not a kurel diagnostic code`, didYouMean(code, DIAGNOSTIC_CODES)));
    } else if (isUnsuppressible(code)) {
      notes.push(annotationNote(`${code} cannot be silenced: it decides whether a run can be trusted`, 'fix the problem instead'));
    } else codes.add(code);
  }
  const used = new Set<string>();
  const kept = diagnostics.filter((d) => {
    if (!codes.has(d.code)) return true;
    used.add(d.code);
    return false;
  });
  for (const code of codes)
    if (!used.has(code)) notes.push(annotationNote(`${SUPPRESSION_ANNOTATION} silences ${code}, but the object has no ${code} problem`));
  return [...kept, ...notes];
}

function annotationNote(message: string, hint?: string): Diagnostic {
  const note: Diagnostic = { ...fileDiagnostic(ADMISSION_FILE, 'unused-suppression', message), severity: 'warning', path: ANNOTATION_PATH };
  if (hint !== undefined) note.hint = hint;
  return note;
}

const ANNOTATION_PATH = `/metadata/annotations/${SUPPRESSION_ANNOTATION.replace(/~/g, '~0').replace(/\//g, '~1')}`;

function judge(uid: string, diagnostics: readonly Diagnostic[]): AdmissionReviewAnswer {
  const sorted = [...diagnostics].sort(compareDiagnostics);
  const errors = sorted.filter((d) => d.severity === 'error');
  const warnings = warningsOf(sorted.filter((d) => d.severity === 'warning'));
  const response: AdmissionResponse = { uid, allowed: errors.length === 0 };
  if (errors.length > 0) {
    const listed = errors.slice(0, MESSAGE_ERRORS).map(describeProblem);
    const rest = errors.length - listed.length;
    if (rest > 0) listed.push(`and ${rest} more error${rest === 1 ? '' : 's'}`);
    response.status = { code: 422, reason: 'Invalid', message: listed.join('; ') };
  }
  if (warnings.length > 0) response.warnings = warnings;
  return answer(response);
}

// Sorted, each cut to 255 characters, stopping before 20 entries or 4,096 characters in all.
function warningsOf(warnings: readonly Diagnostic[]): string[] {
  const out: string[] = [];
  let total = 0;
  for (const warning of warnings) {
    if (out.length >= MAX_WARNINGS) break;
    const text = cut(describeProblem(warning));
    if (total + text.length > MAX_WARNINGS_TOTAL) break;
    out.push(text);
    total += text.length;
  }
  return out;
}

function cut(text: string): string {
  return text.length <= MAX_WARNING_LENGTH ? text : `${text.slice(0, MAX_WARNING_LENGTH - 1)}…`;
}

function describeProblem(d: Diagnostic): string {
  return `${d.path === '' ? '/' : d.path}: ${d.message} (${d.code})`;
}

function malformedRequest(request: Record<string, unknown>): string | undefined {
  const operation = request['operation'];
  if (typeof operation !== 'string' || !OPERATIONS.has(operation)) {
    return `request.operation must be CREATE, UPDATE, DELETE or CONNECT; found ${describe(operation)}`;
  }
  const kind = request['kind'];
  if (!isMap(kind) || typeof kind['kind'] !== 'string' || typeof kind['version'] !== 'string' || typeof kind['group'] !== 'string') {
    return 'request.kind must be an object with group, version and kind strings';
  }
  if (operation === 'CREATE' || operation === 'UPDATE') {
    if (!isMap(request['object'])) return `request.object must be an object on ${operation}; found ${describe(request['object'])}`;
    if (operation === 'UPDATE' && !isMap(request['oldObject'])) return `request.oldObject must be an object on UPDATE; found ${describe(request['oldObject'])}`;
  }
  return undefined;
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameData(item, b[i]));
  }
  if (!isMap(a) || !isMap(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameData(a[key], b[key]));
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : String(value);
}

function reasonOf(code: number): string {
  if (code === 400) return 'BadRequest';
  if (code === 413) return 'RequestEntityTooLarge';
  if (code === 503) return 'ServiceUnavailable';
  if (code === 500) return 'InternalError';
  return 'Invalid';
}

function answer(response: AdmissionResponse): AdmissionReviewAnswer {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}
