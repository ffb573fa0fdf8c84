import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_ANNOTATION } from '../../src/schema/keywords.js';
import { runKurel } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
const ajv = () => new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).addKeyword(LIFECYCLE_ANNOTATION);

const PLUGIN = `export default {
  type: 'log-shipper',
  description: 'Ships container logs to the cluster log store',
  capabilityAware: false,
  renderingSchema: {
    type: 'object',
    properties: { endpoint: { type: 'string', minLength: 1 } },
    required: ['endpoint'],
    additionalProperties: false,
  },
};
`;
const BROKEN_PLUGIN = `export default { type: 'expose', description: 'claims a built-in type', capabilityAware: false };\n`;
const NOT_YAML_DEFINITION = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: [broken\n';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-schema-'));
  writeFileSync(join(dir, 'log-shipper.mjs'), PLUGIN);
  writeFileSync(join(dir, 'broken.mjs'), BROKEN_PLUGIN);
  mkdirSync(join(dir, 'bad-definitions'));
  writeFileSync(join(dir, 'bad-definitions', 'broken.yaml'), NOT_YAML_DEFINITION);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kurel schema', () => {
  it('prints the draft 2020-12 schema of a whole cluster.yaml, with a property for every built-in', async () => {
    const run = await runKurel(['schema']);
    expect(run.code).toBe(0);
    const schema = JSON.parse(run.stdout) as {
      $schema: string;
      title: string;
      properties: { spec: { properties: { capabilities: { properties: Record<string, unknown> } } } };
    };
    expect(schema.$schema).toBe(DRAFT);
    expect(schema.title).toBe('ClusterProfile');
    expect(Object.keys(schema.properties.spec.properties.capabilities.properties)).toEqual([
      'certificate',
      'cilium-networkpolicy',
      'configmap',
      'expose',
      'external-secret',
      'fluxcd-patches',
      'fluxcd-postbuild',
      'httproute',
      'ingress',
      'networkpolicy',
      'prune-protection',
      'pvc',
      'rbac',
      'scaler',
      'security-context',
      'volsync',
    ]);
    const checker = ajv();
    expect(checker.validateSchema(schema), checker.errorsText(checker.errors)).toBe(true);
  });

  it('prints the exact rendering schema of one capability', async () => {
    const run = await runKurel(['schema', 'expose']);
    expect(run.code).toBe(0);
    const schema = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(schema['$schema']).toBe(DRAFT);
    expect(schema['title']).toBe('expose rendering');
    const validate = ajv().compile(schema);
    expect(validate({ controllerType: 'ingress', ingressClassName: 'nginx' })).toBe(true);
    expect(validate({ controllerType: 'gateway', gatewayName: 'gw', gatewayNamespace: '' })).toBe(true);
    expect(validate({ controllerType: 'gateway', ingressClassName: 'nginx' })).toBe(false);
  });

  it('prints an open schema for a capability whose rendering passes through unvalidated', async () => {
    const run = await runKurel(['schema', 'ingress']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      $schema: DRAFT,
      title: 'ingress rendering',
      description: 'Creates a Kubernetes Ingress for a component; not validated: passed to the trait unchanged',
      type: 'object',
      additionalProperties: true,
    });
  });

  it('exits 2 for an unknown type, suggesting the close one', async () => {
    const run = await runKurel(['schema', 'exposee']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^<command line>:1:1 error usage unknown capability type "exposee"; known types: certificate, .*, volsync\n {2}hint: did you mean expose\?\n$/,
    );
  });

  it('knows a definition only when it is loaded', async () => {
    const without = await runKurel(['schema', 'redis-sidecar'], { cwd: ROOT });
    expect(without.code).toBe(2);
    const withFile = await runKurel(['schema', 'redis-sidecar', '--capability-def', 'definitions/redis-sidecar.yaml'], { cwd: ROOT });
    expect(withFile.code).toBe(0);
    const validate = ajv().compile(JSON.parse(withFile.stdout) as object);
    expect([{ image: 'redis:7' }, { maxMemory: '1Gi' }, { image: 'redis:7', port: '6379' }].map((r) => validate(r))).toEqual([true, false, false]);
  });

  it('publishes a plugin handler schema', async () => {
    const run = await runKurel(['schema', 'log-shipper', '--plugin', './log-shipper.mjs'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ title: 'log-shipper rendering', required: ['endpoint'], additionalProperties: false });
  });

  it('exits 2 and prints no schema when a plugin is refused', async () => {
    const run = await runKurel(['schema', '--plugin', './broken.mjs'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('plugin:./broken.mjs: error usage handler "expose"');
  });

  it('exits 1 and prints no schema when a definition file is not valid YAML', async () => {
    const run = await runKurel(['schema', '--definitions', 'bad-definitions'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^bad-definitions\/broken\.yaml:3:18 error yaml-syntax /);
  });

  it('exits 2 when a definitions folder cannot be read', async () => {
    const run = await runKurel(['schema', '--definitions', 'no-such-folder'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('io-error cannot read no-such-folder: no such directory');
  });
});
