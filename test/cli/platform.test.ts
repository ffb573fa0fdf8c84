import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel, runKurelJson } from '../helpers/cli.js';
import { pinDiagnostic } from '../helpers/pin.js';

// docs/platform.md from the command line: spec.platform in profiles, --platform on lint, build,
// schema and types, with the example of definitions/service-routing.yaml.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OLD = 'profiles/service-routing-1.28.yaml';
const NEW = 'profiles/service-routing-1.33.yaml';
const DEFS = ['--definitions', 'definitions'];

let scratch: string;
const write = (name: string, text: string) => {
  writeFileSync(join(scratch, name), text);
  return join(scratch, name);
};

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'kurel-platform-'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const PROFILE_HEAD = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: edge\nspec:\n  platform:\n';

describe.concurrent('spec.platform in a ClusterProfile', () => {
  it.each([
    ['a version written as a number', '    kubernetes: 1.30\n', 'wrong-type', 7, 17, '/spec/platform/kubernetes', 'quote it: "1.30"'],
    ['a version written as a whole number', '    kubernetes: 1\n', 'wrong-type', 7, 17, '/spec/platform/kubernetes', 'quote it: "1"'],
    ['a leading v', '    kubernetes: v1.30\n', 'invalid-value', 7, 17, '/spec/platform/kubernetes', 'write 1.30'],
    ['a distribution suffix', '    kubernetes: "1.30.2-eks-1"\n', 'invalid-value', 7, 17, '/spec/platform/kubernetes', 'write 1.30.2'],
    ['a component that is not a DNS-1123 label', '    Gateway_API: "1.1"\n', 'invalid-key', 7, 5, '/spec/platform/Gateway_API', undefined],
    ['a version that is not a scalar', '    kubernetes: [1, 30]\n', 'wrong-type', 7, 17, '/spec/platform/kubernetes', undefined],
    ['a null version', '    kubernetes:\n', 'wrong-type', 7, 5, '/spec/platform/kubernetes', undefined],
  ])('reports %s, positioned, with its hint', async (_name, lines, code, line, column, path, hint) => {
    const file = write(`${code}-${line}-${column}-${path.length}-${lines.length}.yaml`, PROFILE_HEAD + lines);
    const run = await runKurelJson(['lint', file]);
    expect(run.code).toBe(1);
    expect(run.json.diagnostics.map((d) => ({ ...pinDiagnostic(d), hint: d.hint }))).toEqual([{ code, severity: 'error', file, line, column, path, hint }]);
  });

  it('says what a version must look like', async () => {
    const run = await runKurelJson(['lint', write('v.yaml', `${PROFILE_HEAD}    kubernetes: v1.30\n`)]);
    expect(run.json.diagnostics[0]?.message).toBe(
      'spec.platform.kubernetes must be a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2, found string "v1.30"',
    );
  });

  it('takes any component, checked against nothing else', async () => {
    const run = await runKurelJson(['lint', write('any.yaml', `${PROFILE_HEAD}    kubernetes: "1.30"\n    istio: "1.22.3"\n    my-operator: "0.4"\n`)]);
    expect({ code: run.code, diagnostics: run.json.diagnostics }).toEqual({ code: 0, diagnostics: [] });
  });

  it('reports an unknown key beside platform as strictly as the rest of spec', async () => {
    const run = await runKurelJson(['lint', write('typo.yaml', PROFILE_HEAD.replace('  platform:\n', '  platfrom:\n    kubernetes: "1.30"\n'))]);
    expect(run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.hint])).toEqual([['unknown-field', 6, 3, 'did you mean platform?']]);
  });
});

describe.concurrent('kurel lint --platform', () => {
  it('lints both example profiles clean at their own versions', async () => {
    const run = await runKurelJson(['lint', OLD, NEW, ...DEFS], { cwd: ROOT });
    expect({ code: run.code, diagnostics: run.json.diagnostics }).toEqual({ code: 0, diagnostics: [] });
  });

  it('overrides the profile: the 1.33 profile on 1.29 lacks trafficDistribution, reported at the key', async () => {
    const run = await runKurel(['lint', NEW, ...DEFS, '--platform', 'kubernetes=1.29'], { cwd: ROOT });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        `${NEW}:16:9 error field-unavailable capability "service-routing": trafficDistribution needs kubernetes 1.30; this cluster runs 1.29`,
        '          trafficDistribution: PreferSameZone',
        '          ^^^^^^^^^^^^^^^^^^^',
        '1 profile and 5 definition files checked: 1 error, 0 warnings',
        'run kurel explain field-unavailable for details',
        '',
      ].join('\n'),
    );
  });

  it('reports an enum value the overriding version lacks at the value', async () => {
    const run = await runKurelJson(['lint', NEW, ...DEFS, '--platform', 'kubernetes=1.32.9'], { cwd: ROOT });
    expect(run.json.diagnostics.map(pinDiagnostic)).toEqual([
      {
        code: 'field-unavailable',
        severity: 'error',
        file: NEW,
        line: 16,
        column: 30,
        path: '/spec/capabilities/service-routing/rendering/trafficDistribution',
      },
    ]);
  });

  it('takes one flag per component, each overriding only its own', async () => {
    const run = await runKurelJson(['lint', NEW, ...DEFS, '--platform', 'gateway-api=1.0', '--platform', 'kubernetes=1.33.1'], { cwd: ROOT });
    expect({ code: run.code, diagnostics: run.json.diagnostics }).toEqual({ code: 0, diagnostics: [] });
  });

  it('reports a deprecated enum value as a warning, exit 0', async () => {
    const file = write('close.yaml', readFileSync(join(ROOT, NEW), 'utf8').replace('trafficDistribution: PreferSameZone', 'trafficDistribution: PreferClose'));
    const run = await runKurelJson(['lint', file, ...DEFS], { cwd: ROOT });
    expect(run.code).toBe(0);
    expect(run.json.diagnostics.map((d) => [d.code, d.severity, d.line, d.column, d.message])).toEqual([
      [
        'field-deprecated',
        'warning',
        16,
        30,
        'capability "service-routing": trafficDistribution value "PreferClose" is deprecated since kubernetes 1.33 (this cluster runs 1.33): write PreferSameZone, which means the same',
      ],
    ]);
  });

  it.each([
    ['kubernetes', 'expected COMPONENT=VERSION such as kubernetes=1.29, found "kubernetes"'],
    ['kubernetes=v1.29', 'expected a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2 for kubernetes, found "v1.29"; write 1.29'],
  ])('refuses --platform %s as a usage error, exit 2', async (value, message) => {
    const run = await runKurelJson(['lint', OLD, '--platform', value], { cwd: ROOT });
    expect(run.code).toBe(2);
    expect(run.json.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['usage', `option '--platform <component=version>' argument '${value}' is invalid. ${message}`],
    ]);
  });

  it('refuses a component given twice', async () => {
    const run = await runKurel(['lint', OLD, '--platform', 'kubernetes=1.29', '--platform', 'kubernetes=1.30'], { cwd: ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('kubernetes is given twice (1.29 and 1.30); give each component once');
  });
});

describe.concurrent('kurel build --platform', () => {
  const APP = `apiVersion: launcher.gokure.dev/v1alpha1
kind: Application
metadata: {name: shop}
spec:
  components:
  - name: web
    type: webservice
    traits:
    - type: expose
`;

  it('judges every binding of the profile at the platform, used or not', async () => {
    const app = write('app.yaml', APP);
    const ok = await runKurelJson(['build', app, '--profile', NEW, ...DEFS], { cwd: ROOT });
    expect({ code: ok.code, diagnostics: ok.json.diagnostics }).toEqual({ code: 0, diagnostics: [] });
    const old = await runKurelJson(['build', app, '--profile', NEW, ...DEFS, '--platform', 'kubernetes=1.28'], { cwd: ROOT });
    expect(old.code).toBe(1);
    expect(old.json.diagnostics.map(pinDiagnostic)).toEqual([
      {
        code: 'field-unavailable',
        severity: 'error',
        file: NEW,
        line: 16,
        column: 9,
        path: '/spec/capabilities/service-routing/rendering/trafficDistribution',
      },
    ]);
  });
});

describe('a platform component one edit from a known one (docs/codes/unknown-platform-component.md)', () => {
  const MESSAGE = (name: string) => `platform component "${name}" is named by no lifecycle kurel knows of, so its version applies to nothing`;

  it('warns at the key of spec.platform, with a did-you-mean; a free-form component far from every known one is quiet', async () => {
    const file = write('kubernets.yaml', `${PROFILE_HEAD}    kubernets: "1.21"\n    istio: "1.20"\n  capabilities: {}\n`);
    const run = await runKurelJson(['lint', file]);
    expect(run.code).toBe(0);
    expect(run.json.diagnostics.map((d) => [d.code, d.severity, d.line, d.column, d.path, d.message, d.hint])).toEqual([
      ['unknown-platform-component', 'warning', 7, 5, '/spec/platform/kubernets', MESSAGE('kubernets'), 'did you mean kubernetes?'],
    ]);
  });

  it('knows the components the loaded lifecycles name', async () => {
    const definition = write(
      'gateway.yaml',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: gw\nspec:\n  rendering:\n    properties:\n      mode: {type: string, introducedIn: "gateway-api 1.1"}\n',
    );
    const file = write('gateway-typo.yaml', `${PROFILE_HEAD}    gateway-apis: "1.2"\n  capabilities: {}\n`);
    expect((await runKurelJson(['lint', file])).json.diagnostics).toEqual([]);
    const run = await runKurelJson(['lint', file, '--capability-def', definition]);
    expect(run.json.diagnostics.map((d) => [d.code, d.line, d.hint])).toEqual([['unknown-platform-component', 7, 'did you mean gateway-api?']]);
  });

  it('warns about a --platform flag of kurel build too', async () => {
    const file = write('build-plain.yaml', `${PROFILE_HEAD}    kubernetes: "1.29"\n  capabilities: {}\n`);
    const app = write(
      'app.yaml',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata:\n  name: web\nspec:\n  components:\n    - name: web\n      type: webservice\n',
    );
    const run = await runKurelJson(['build', app, '--profile', file, '--platform', 'kubernets=1.29', '--format', 'json']);
    expect(run.code).toBe(0);
    expect(run.json.diagnostics.map((d) => [d.code, d.file, d.hint])).toEqual([['unknown-platform-component', '<command line>', 'did you mean kubernetes?']]);
  });

  it('warns about a --platform flag at the command line', async () => {
    const file = write('plain.yaml', `${PROFILE_HEAD}    kubernetes: "1.29"\n  capabilities: {}\n`);
    const run = await runKurel(['lint', file, '--platform', 'kubernets=1.29']);
    expect(run).toMatchObject({
      code: 0,
      stdout: `<command line>:1:1 warning unknown-platform-component --platform ${MESSAGE('kubernets')}\n  hint: did you mean kubernetes?\n1 profile checked: 0 errors, 1 warning\nrun kurel explain unknown-platform-component for details\n`,
    });
  });
});
