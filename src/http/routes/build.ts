import type { RequestHandler } from 'express';
import { type BuildOptions, buildApplication } from '../../operations/build-application.js';
import { reportProblems } from '../../operations/report-problems.js';
import { bodyBytes, decodeJsonBody } from '../body.js';
import type { ServiceMetrics } from '../metrics.js';
import { readEnvelope } from '../request-envelope.js';
import { sendJson } from '../respond.js';
import type { ServiceState } from '../service-state.js';

/**
 * `POST /v1/build`: `{application, profile, definitions?, platform?}` (texts or objects); answers 200
 * `{valid, diagnostics, application}` whatever the verdict. Diagnostics name the files
 * `application`, `profile` and `definitions[i]`.
 */
export function buildRoute(state: ServiceState, metrics: ServiceMetrics, options: BuildOptions = {}): RequestHandler {
  return (req, res) => {
    const catalogue = state.catalogue;
    const { text, data } = decodeJsonBody(bodyBytes(req));
    const envelope = readEnvelope(text, data, ['application', 'profile']);
    const report = buildApplication(
      {
        application: { file: 'application', content: envelope.application.text },
        profile: { file: 'profile', content: envelope.profile.text },
        definitions: envelope.definitions,
      },
      // The request's definitions make a catalogue of their own; the one in service never changes.
      catalogue,
      { ...options, platform: { ...options.platform, overrides: envelope.platform } },
    );
    const valid = !report.diagnostics.some((d) => d.severity === 'error');
    metrics.validations.inc({ operation: 'build', verdict: valid ? 'valid' : 'invalid' });
    sendJson(res, 200, { valid, diagnostics: reportProblems(report.diagnostics).diagnostics, application: valid ? report.application : null });
  };
}
