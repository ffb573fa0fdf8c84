import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { lintInputs } from '../../src/operations/lint.js';
import { reportProblems } from '../../src/operations/report-problems.js';
import { runKurel } from '../helpers/cli.js';
import { testApp } from '../http/support.js';

// docs/configuration.md and docs/configuration.md: # kurel-disable-next-line and # kurel-disable,
// suppressed problems kept but not counted, unused-suppression for every comment that silences
// nothing, and the codes no comment may silence.

const HEADER = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n';
const profile = (...lines: string[]) => `${HEADER}${lines.join('\n')}\n`;
const DEFINITION = (name: string) =>
  `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: ${name}\nspec:\n  rendering:\n    properties:\n      mode: {type: string, required: true, default: fifo}\n`;

const lint = (text: string, file = 'cluster.yaml') => lintInputs([{ file, content: text, origin: 'argument' }], createCatalogue()).diagnostics;
const shown = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.severity, d.line, d.column, ...(d.suppressed ? [d.suppressed] : [])]);

describe('# kurel-disable-next-line', () => {
  it('silences the codes it names on the next line that holds content, comment lines between allowed, keeping its reason', () => {
    const text = profile(
      '    expose:',
      '      rendering:',
      '        controllerType: ingress',
      '        # kurel-disable-next-line unknown-field, invalid-value -- the old controller reads it until March',
      '        # (a comment line between is fine)',
      '',
      '        ingresClassName: ""',
      '        ingressClassName: ""',
    );
    expect(shown(lint(text))).toEqual([
      ['unused-suppression', 'warning', 10, 9],
      ['unknown-field', 'error', 13, 9, { reason: 'the old controller reads it until March' }],
      ['invalid-value', 'error', 14, 27],
    ]);
    expect(lint(text).find((d) => d.code === 'unused-suppression')?.message).toBe(
      'kurel-disable-next-line invalid-value silences nothing: there is no invalid-value problem on line 13',
    );
  });

  it('gives a suppressed problem no reason when the comment gives none', () => {
    const diagnostics = lint(profile('    # kurel-disable-next-line unknown-capability', '    servicemesh: {}'));
    expect(shown(diagnostics)).toEqual([['unknown-capability', 'warning', 8, 5, {}]]);
  });

  it("counts the alias's line for a problem reached through an alias", () => {
    const text = profile(
      '    expose:',
      '      rendering: &r',
      '        controllerType: ingress',
      '        ingressClassName: ""',
      '    expose.internal:',
      '      # kurel-disable-next-line invalid-value -- the internal copy is fixed with the original',
      '      rendering: *r',
    );
    expect(shown(lint(text))).toEqual([
      ['invalid-value', 'error', 10, 27],
      ['invalid-value', 'error', 13, 18, { reason: 'the internal copy is fixed with the original' }],
    ]);
  });

  it('never silences a # inside a block scalar, which is text', () => {
    const text = `${profile('    servicemesh:', '      rendering:', '        notes: |', '          # kurel-disable-next-line unknown-capability')}`;
    expect(shown(lint(text))).toEqual([['unknown-capability', 'warning', 7, 5]]);
  });
});

describe('# kurel-disable before a document', () => {
  it('silences the codes it names in that document only, each document of a file after its ---', () => {
    // Lines 1-9 the first document, its comment first; 10-18 the second; 19-28 the third.
    const text = [
      '# kurel-disable required-with-default -- kept as the Go tool wrote it\n',
      DEFINITION('first'),
      '---\n',
      DEFINITION('second'),
      '---\n',
      '# kurel-disable required-with-default\n',
      DEFINITION('third'),
    ].join('');
    const diagnostics = lintInputs([{ file: 'defs.yaml', content: text, origin: 'argument' }], createCatalogue()).diagnostics;
    expect(shown(diagnostics)).toEqual([
      ['required-with-default', 'warning', 9, 44, { reason: 'kept as the Go tool wrote it' }],
      ['required-with-default', 'warning', 18, 44],
      ['required-with-default', 'warning', 28, 44, {}],
    ]);
  });

  it('silences nothing when written after the first content, and says where it belongs', () => {
    const diagnostics = lint(profile('    # kurel-disable unknown-capability', '    servicemesh: {}'));
    expect(shown(diagnostics)).toEqual([
      ['unused-suppression', 'warning', 7, 5],
      ['unknown-capability', 'warning', 8, 5],
    ]);
    expect(diagnostics[0]).toMatchObject({
      message: 'kurel-disable silences nothing here: it covers a document only when written before its first content',
      hint: 'move it above the document, or use kurel-disable-next-line',
    });
  });
});

describe('unused-suppression (docs/configuration.md)', () => {
  it.each([
    [
      'a misspelt keyword',
      '# kurel-disable-nextline unknown-capability',
      'malformed suppression "kurel-disable-nextline": expected kurel-disable-next-line CODE[, CODE...] [-- reason], or kurel-disable CODE[, CODE...] [-- reason] before a document',
      'did you mean kurel-disable-next-line?',
    ],
    [
      'no code',
      '# kurel-disable-next-line -- why',
      'malformed suppression: kurel-disable-next-line names no code; expected kurel-disable-next-line CODE[, CODE...] [-- reason], or kurel-disable CODE[, CODE...] [-- reason] before a document',
      undefined,
    ],
    [
      'an unknown code',
      '# kurel-disable-next-line unknwn-capability',
      'kurel-disable-next-line names "unknwn-capability", which is not a kurel diagnostic code',
      'did you mean unknown-capability?',
    ],
  ])('is reported at the # for %s, and the problem stays', (_name, comment, message, hint) => {
    const diagnostics = lint(profile(`    ${comment}`, '    servicemesh: {}'));
    expect(shown(diagnostics)).toEqual([
      ['unused-suppression', 'warning', 7, 5],
      ['unknown-capability', 'warning', 8, 5],
    ]);
    expect({ message: diagnostics[0]!.message, hint: diagnostics[0]!.hint }).toEqual({ message, hint });
  });

  it.each([
    'yaml-syntax',
    'io-error',
    'usage',
    'file-too-large',
    'too-deep',
    'alias-limit',
    'definition-invalid',
    'definition-conflict',
    'definition-changed',
    'lock-outdated',
    'plugin-error',
    'unused-suppression',
  ])('refuses to silence %s, which decides whether a run can be trusted', (code) => {
    const diagnostics = lint(profile(`    # kurel-disable-next-line ${code}`, '    servicemesh: {}'));
    expect(diagnostics[0]).toMatchObject({
      code: 'unused-suppression',
      line: 7,
      column: 5,
      message: `${code} cannot be silenced in a file: it decides whether a run can be trusted`,
    });
  });

  it('never lets a comment silence a yaml-syntax error', () => {
    const diagnostics = lint('# kurel-disable yaml-syntax\napiVersion: [\n');
    expect(diagnostics.map((d) => [d.code, d.suppressed])).toEqual([
      ['unused-suppression', undefined],
      ['yaml-syntax', undefined],
    ]);
  });
});

describe('suppressed problems and the run', () => {
  it('do not count for the verdict, and never against the 1,000-problem limit', () => {
    const problem = (line: number, suppressed: boolean): Diagnostic => ({
      code: 'unknown-field',
      severity: 'error',
      message: 'm',
      file: 'big.yaml',
      line,
      column: 1,
      endLine: line,
      endColumn: 2,
      path: '',
      ...(suppressed ? { suppressed: {} } : {}),
    });
    const reported = reportProblems([...Array.from({ length: 1_200 }, (_, i) => problem(i + 1, true)), problem(5_000, false)]);
    expect({ errors: reported.errors, suppressed: reported.suppressed, shown: reported.diagnostics.length }).toEqual({
      errors: 1,
      suppressed: 1_200,
      shown: 1_201,
    });
    expect(reported.diagnostics.some((d) => d.code === 'too-many-problems')).toBe(false);
  });
});

describe('suppressions through the CLI and HTTP', () => {
  let dir: string;
  const TEXT = profile(
    '    expose:',
    '      rendering:',
    '        controllerType: ingress',
    '        # kurel-disable-next-line invalid-value -- tracked in PLAT-12',
    '        ingressClassName: ""',
  );
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kurel-suppress-'));
    writeFileSync(join(dir, 'cluster.yaml'), TEXT);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 with the problem kept in JSON as suppressed', async () => {
    const run = await runKurel(['lint', 'cluster.yaml', '--format', 'json'], { cwd: dir });
    const json = JSON.parse(run.stdout) as { valid: boolean; diagnostics: (Diagnostic & { suppressed?: { reason?: string } })[] };
    expect({ code: run.code, valid: json.valid, diagnostics: json.diagnostics.map((d) => [d.code, d.line, d.suppressed]) }).toEqual({
      code: 0,
      valid: true,
      diagnostics: [['invalid-value', 11, { reason: 'tracked in PLAT-12' }]],
    });
  });

  it('hides it in text, counting it in the summary', async () => {
    const run = await runKurel(['lint', 'cluster.yaml'], { cwd: dir });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: '1 profile checked: no problems (1 suppressed)\n' });
  });

  it('hides it in GitHub and JUnit output', async () => {
    const github = await runKurel(['lint', 'cluster.yaml', '--format', 'github'], { cwd: dir });
    expect(github.stdout).toBe('1 profile checked: no problems (1 suppressed)\n');
    const junit = await runKurel(['lint', 'cluster.yaml', '--format', 'junit'], { cwd: dir });
    expect(junit.stdout).toContain('failures="0"');
    expect(junit.stdout).not.toContain('invalid-value');
  });

  it('lists it in SARIF as a result with an in-source suppression and its justification', async () => {
    const run = await runKurel(['lint', 'cluster.yaml', '--format', 'sarif'], { cwd: dir });
    const log = JSON.parse(run.stdout) as { runs: { results: { ruleId: string; suppressions?: unknown }[] }[] };
    expect(log.runs[0]!.results.map((r) => [r.ruleId, r.suppressions])).toEqual([
      ['invalid-value', [{ kind: 'inSource', justification: 'tracked in PLAT-12' }]],
    ]);
  });

  it('is honoured by kurel build in the profile it builds against', async () => {
    writeFileSync(
      join(dir, 'app.yaml'),
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata:\n  name: shop\nspec:\n  components:\n    - name: api\n      type: webservice\n      traits: []\n',
    );
    const run = await runKurel(['build', 'app.yaml', '--profile', 'cluster.yaml', '--format', 'json'], { cwd: dir });
    const json = JSON.parse(run.stdout) as { valid: boolean; diagnostics: Diagnostic[] };
    expect({ code: run.code, valid: json.valid, found: json.diagnostics.map((d) => [d.code, d.file, d.line, d.suppressed]) }).toEqual({
      code: 0,
      valid: true,
      found: [['invalid-value', 'cluster.yaml', 11, { reason: 'tracked in PLAT-12' }]],
    });
    const text = await runKurel(['build', 'app.yaml', '--profile', 'cluster.yaml'], { cwd: dir });
    expect(text.stderr).toBe('1 profile and 1 application checked: no problems (1 suppressed)\n');
  });

  it('judges the same over HTTP: valid, the problem marked suppressed', async () => {
    const { app } = testApp({});
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(TEXT);
    expect(res.status).toBe(200);
    expect({ valid: res.body.valid, diagnostics: res.body.diagnostics.map((d: Diagnostic) => [d.code, d.line, d.suppressed]) }).toEqual({
      valid: true,
      diagnostics: [['invalid-value', 11, { reason: 'tracked in PLAT-12' }]],
    });
  });
});
