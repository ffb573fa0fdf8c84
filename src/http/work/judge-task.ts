import { isUtf8 } from 'node:buffer';
import type { Catalogue } from '../../catalogue/catalogue.js';
import { compactJson } from '../../core/json-text.js';
import { buildApplication } from '../../operations/build-application.js';
import type { LintOptions } from '../../operations/lint.js';
import { reportProblems } from '../../operations/report-problems.js';
import { type ProfileVerdict, validateJsonProfile, validateProfile } from '../../operations/validate-profile.js';
import { decodeJsonBody } from '../decode-json-body.js';
import { HttpProblem } from '../problem.js';
import type { BodyKind } from '../request-body.js';
import { isEnvelope, readEnvelope } from '../request-envelope.js';
import type { VersionOptions, WorkAnswer, WorkTask, WorkVerdict } from './task.js';

// Validations and builds, the work a serving process judges itself (inline-runner.ts): apart
// from the other tasks (perform.ts), whose modules it then need not load before it takes
// requests (docs/service.md "During start").

/** The file name diagnostics about the profile carry (docs/profiles.md). */
export const REQUEST_FILE = 'request';

/**
 * A validation or a build against `catalogue` (see perform.ts's `performTaskAsText`, which
 * answers every task this way): its answer as text, a problem with the request as data.
 */
export function judgeAsText(catalogue: Catalogue, task: Extract<WorkTask, { kind: 'validate' | 'build' }>): WorkAnswer<string> {
  try {
    return task.kind === 'validate'
      ? verdictAnswer('validate', validate(catalogue, task.bodyKind, task.body, task.versions))
      : verdictAnswer('build', build(catalogue, task.body, task.versions));
  } catch (err) {
    if (err instanceof HttpProblem) return { problem: { status: err.status, detail: err.detail, extensions: { ...err.extensions } } };
    throw err;
  }
}

/**
 * `POST /v1/validate`: a ClusterProfile as YAML or JSON, or the JSON envelope
 * `{profile, definitions?, platform?}`; the verdict whatever it is, its problems cut for
 * reporting as every command's are.
 */
function validate(catalogue: Catalogue, bodyKind: BodyKind, body: Uint8Array, versions: VersionOptions): ProfileVerdict {
  const verdict = judge(catalogue, bodyKind, body, judgingOptions(versions));
  return { ...verdict, diagnostics: reportProblems(verdict.diagnostics).diagnostics };
}

/** How the service's version options judge a profile: pins, the platform default and the configuration's severities. */
export function judgingOptions(versions: VersionOptions): LintOptions {
  const severity = versions.severity;
  return {
    requirePinned: versions.requirePinned,
    platform: { repositoryDefault: versions.platformDefault },
    ...(severity ? { severityOf: () => severity } : {}),
  };
}

function judge(catalogue: Catalogue, bodyKind: BodyKind, body: Uint8Array, options: LintOptions): ProfileVerdict {
  if (bodyKind === 'yaml') {
    // As for JSON: a request with no body at all is not a document with a mistake in it.
    if (body.length === 0) throw new HttpProblem(400, 'the request body is empty; expected a YAML document');
    // A body that cannot be decoded is a problem of the request (docs/service.md), not a diagnostic of a profile.
    if (!isUtf8(body)) throw new HttpProblem(400, 'the request body is not valid UTF-8');
    return validateProfile({ profile: { file: REQUEST_FILE, content: body } }, catalogue, options);
  }
  const { text, data } = decodeJsonBody(body);
  if (!isEnvelope(data)) return validateJsonProfile(REQUEST_FILE, text, data, catalogue, options);
  const envelope = readEnvelope(text, data, ['profile']);
  const { profile, definitions } = envelope;
  const requestOptions: LintOptions = { ...options, platform: { ...options.platform, overrides: envelope.platform } };
  return profile.data !== undefined && definitions.length === 0
    ? validateJsonProfile(REQUEST_FILE, profile.text, profile.data, catalogue, requestOptions)
    : validateProfile({ profile: { file: REQUEST_FILE, content: profile.text }, definitions }, catalogue, requestOptions);
}

/**
 * `POST /v1/build`: `{application, profile, definitions?, platform?}` (texts or objects);
 * diagnostics name the files `application`, `profile` and `definitions[i]`.
 */
function build(catalogue: Catalogue, body: Uint8Array, versions: VersionOptions): { valid: boolean; diagnostics: unknown[]; application: unknown } {
  const { text, data } = decodeJsonBody(body);
  const envelope = readEnvelope(text, data, ['application', 'profile']);
  const report = buildApplication(
    {
      application: { file: 'application', content: envelope.application.text },
      profile: { file: 'profile', content: envelope.profile.text },
      definitions: envelope.definitions,
    },
    // The request's definitions make a catalogue of their own; the one in service never changes.
    catalogue,
    { requirePinned: versions.requirePinned, platform: { repositoryDefault: versions.platformDefault, overrides: envelope.platform } },
  );
  const valid = !report.diagnostics.some((d) => d.severity === 'error');
  return { valid, diagnostics: reportProblems(report.diagnostics).diagnostics, application: valid ? report.application : null };
}

/** An answer carrying a verdict, for the metrics. */
export function verdictAnswer(operation: WorkVerdict['operation'], verdict: { valid: boolean }): WorkAnswer<string> {
  return { ...jsonAnswer(verdict), verdict: { operation, valid: verdict.valid } };
}

/** A 200 answer of `value` as compact JSON. */
export function jsonAnswer(value: unknown, mediaType = 'application/json'): { status: number; mediaType: string; body: string } {
  return { status: 200, mediaType, body: compactJson(value) };
}
