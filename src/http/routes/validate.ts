import type { RequestHandler } from 'express';
import type { LintOptions } from '../../operations/lint.js';
import { reportProblems } from '../../operations/report-problems.js';
import { type ProfileVerdict, validateJsonProfile, validateProfile } from '../../operations/validate-profile.js';
import { type BodyKind, bodyBytes, decodeJsonBody } from '../body.js';
import type { ServiceMetrics } from '../metrics.js';
import { HttpProblem } from '../problem.js';
import { isEnvelope, readEnvelope } from '../request-envelope.js';
import { sendJson } from '../respond.js';
import type { ServiceState } from '../service-state.js';

/** The file name diagnostics about the profile carry (DESIGN §4.1). */
export const REQUEST_FILE = 'request';

/**
 * `POST /v1/validate`: a ClusterProfile as YAML or JSON, or the JSON envelope
 * `{profile, definitions?, platform?}`; answers 200 `{valid, diagnostics, resolved}` whatever
 * the verdict.
 */
export function validateRoute(state: ServiceState, metrics: ServiceMetrics, options: LintOptions = {}): RequestHandler {
  return (req, res) => {
    const catalogue = state.catalogue;
    const bytes = bodyBytes(req);
    let verdict: ProfileVerdict;
    if ((res.locals['bodyKind'] as BodyKind) === 'yaml') {
      // As for JSON: a request with no body at all is not a document with a mistake in it.
      if (bytes.length === 0) throw new HttpProblem(400, 'the request body is empty; expected a YAML document');
      verdict = validateProfile({ profile: { file: REQUEST_FILE, content: bytes } }, catalogue, options);
    } else {
      const { text, data } = decodeJsonBody(bytes);
      if (isEnvelope(data)) {
        const envelope = readEnvelope(text, data, ['profile']);
        const { profile, definitions } = envelope;
        const requestOptions: LintOptions = { ...options, platform: { ...options.platform, overrides: envelope.platform } };
        verdict =
          profile.data !== undefined && definitions.length === 0
            ? validateJsonProfile(REQUEST_FILE, profile.text, profile.data, catalogue, requestOptions)
            : validateProfile({ profile: { file: REQUEST_FILE, content: profile.text }, definitions }, catalogue, requestOptions);
      } else {
        verdict = validateJsonProfile(REQUEST_FILE, text, data, catalogue, options);
      }
    }
    metrics.validations.inc({ operation: 'validate', verdict: verdict.valid ? 'valid' : 'invalid' });
    sendJson(res, 200, { ...verdict, diagnostics: reportProblems(verdict.diagnostics).diagnostics });
  };
}
