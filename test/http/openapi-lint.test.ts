import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findTool, skipWithout } from '../helpers/real-tool.js';

// openapi.yaml passes the checks of Redocly's recommended rules that it once failed:
// security-defined, operation-4xx-response and tag-description.

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
}
interface Spec {
  security?: unknown[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
}

const SPEC_FILE = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
const spec = parse(readFileSync(SPEC_FILE, 'utf8')) as Spec;
const operations = Object.entries(spec.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, op]) => ({ where: `${method} ${template}`, op })),
);

describe('openapi.yaml under the recommended lint rules', () => {
  it('declares security on every operation: the bearer token of POST /v1/reload, none elsewhere', () => {
    expect(spec.components.securitySchemes).toEqual({ adminToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(operations.filter(({ op }) => op.security === undefined).map(({ where }) => where)).toEqual([]);
    expect(operations.filter(({ op }) => (op.security ?? []).length > 0).map(({ where, op }) => [where, op.security])).toEqual([
      ['post /v1/reload', [{}, { adminToken: [] }]],
    ]);
  });

  it('gives every operation a 4XX response', () => {
    expect(operations.filter(({ op }) => !Object.keys(op.responses).some((status) => /^4\d\d$/.test(status))).map(({ where }) => where)).toEqual([]);
  });

  it('describes every tag', () => {
    expect(spec.tags.filter((tag) => !tag.description).map((tag) => tag.name)).toEqual([]);
  });
});

// Redocly CLI itself (a devDependency, pinned), with its recommended rules.
const REDOCLY = findTool(fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url)), ['--version']);

describe.skipIf(skipWithout(REDOCLY))(`openapi.yaml under redocly lint (${REDOCLY.version})`, () => {
  it('has no error and no warning', () => {
    const run = spawnSync(REDOCLY.command, ['lint', SPEC_FILE, '--format', 'json'], { encoding: 'utf8', timeout: 120_000 });
    const report = JSON.parse(run.stdout) as { totals: Record<string, number>; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect([run.status, report.totals]).toEqual([0, { errors: 0, warnings: 0, ignored: 0 }]);
  });
});
