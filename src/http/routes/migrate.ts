import type { RequestHandler } from 'express';
import type { InputFile } from '../../core/input.js';
import { type MigrateOptions, migrateInputs, readMigrationTargets } from '../../operations/migrate.js';
import { reportProblems } from '../../operations/report-problems.js';
import { unifiedDiff } from '../../operations/unified-diff.js';
import { bodyBytes, decodeJsonBody } from '../body.js';
import type { ServiceMetrics } from '../metrics.js';
import { HttpProblem } from '../problem.js';
import { readEnvelope } from '../request-envelope.js';
import { sendJson } from '../respond.js';
import type { ServiceState } from '../service-state.js';
import { REQUEST_FILE } from './validate.js';

/**
 * `POST /v1/migrate` (DESIGN §8.5): `{profile, to, definitions?, lossy?, platform?}` with the
 * profile as YAML text; answers 200 `{valid, changed, profile, diff, diagnostics}`, where
 * `profile` is the migrated text, or null unless something changed without errors. A malformed
 * `to`, one naming a definition the service lacks or a version it does not have, is a 400 problem.
 */
export function migrateRoute(state: ServiceState, metrics: ServiceMetrics, options: Pick<MigrateOptions, 'requirePinned'> = {}): RequestHandler {
  return (req, res) => {
    const catalogue = state.catalogue;
    const { text, data } = decodeJsonBody(bodyBytes(req));
    const envelope = readEnvelope(text, data, ['profile'], ['to', 'lossy']);
    const body = data as Record<string, unknown>;
    if (envelope.profile.data !== undefined)
      throw new HttpProblem(400, '"profile" must be the YAML text of the profile: migrate rewrites text, keeping its comments');
    const to = body['to'];
    if (!Array.isArray(to) || to.length === 0 || !to.every((t) => typeof t === 'string')) {
      throw new HttpProblem(400, '"to" must be a non-empty list of NAME@VERSION texts, such as ["redis-sidecar@2.0.0"]');
    }
    const lossy = body['lossy'];
    if (lossy !== undefined && typeof lossy !== 'boolean') throw new HttpProblem(400, '"lossy" must be true or false');
    const reading = readMigrationTargets(to as string[]);
    if (reading.problems.length > 0) throw new HttpProblem(400, `"to": ${reading.problems.join('; ')}`);
    const inputs: InputFile[] = [{ file: REQUEST_FILE, content: envelope.profile.text, origin: 'profile' }, ...envelope.definitions];
    const report = migrateInputs(inputs, catalogue, reading.targets, {
      ...options,
      lossy: lossy === true,
      platform: { overrides: envelope.platform },
    });
    if (report.fatal) throw new HttpProblem(400, `"to": ${report.diagnostics.map((d) => d.message).join('; ')}`);
    const valid = !report.diagnostics.some((d) => d.severity === 'error');
    const file = report.files.find((f) => f.path === REQUEST_FILE);
    const changed = file?.changed === true;
    metrics.validations.inc({ operation: 'migrate', verdict: valid ? 'valid' : 'invalid' });
    sendJson(res, 200, {
      valid,
      changed,
      profile: valid && changed && file ? `${file.bom ? '\ufeff' : ''}${file.after}` : null,
      diff: file ? unifiedDiff(REQUEST_FILE, file.before, file.after) : '',
      diagnostics: reportProblems(report.diagnostics).diagnostics,
    });
  };
}
